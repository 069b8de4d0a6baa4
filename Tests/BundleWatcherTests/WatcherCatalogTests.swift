import BundleChanges
import HotStringsTestSupport
import LinuxSystem
import StringsFormat
import Testing
@testable import BundleWatcher

/// String Catalogs (`T.xcstrings`) in the root and in language folders are read on the first scan and on every
/// save, as one update holding the table in each of the catalog's languages; a broken one is an error at its line
/// and column, a deleted one a removal.
@Suite struct WatcherCatalogTests {
    static func settings(title: String) -> String {
        CatalogText.catalog([
            ("Settings", ["de": CatalogText.text(title), "fr": CatalogText.text("Réglages")]),
            ("%lld items", ["de": CatalogText.plural(["one": "%lld Eintrag", "other": "%lld Einträge"])]),
        ])
    }

    /// The catalog's languages, as the last update of `path` in `batch` has them.
    static func languages(of path: String, in batch: ChangeBatch) -> [String: [String: String]]? {
        guard case .catalog(let languages)? = batch.seen[path] else { return nil }
        return languages
    }

    @Test func aRootCatalogIsReadOnTheScanInEveryLanguageAndOnEverySave() throws {
        var files = TestBundle.standardFiles
        files["Settings.xcstrings"] = Self.settings(title: "Einstellungen")
        let session = try WatchSession(files: files)
        let update = try #require(session.initial.updates.first { $0.file == "Settings.xcstrings" })
        #expect(update.id.table == "Settings" && update.isCatalog)
        let languages = try #require(Self.languages(of: "Settings.xcstrings", in: session.initial))
        #expect(languages.keys.sorted() == ["de", "en", "fr"])
        // The source language serves each key itself; a plural's plain text is its `other` form.
        #expect(languages["en"] == ["Settings": "Settings", "%lld items": "%lld items"])
        #expect(languages["de"] == ["Settings": "Einstellungen", "%lld items": "%lld Einträge"])
        #expect(languages["fr"] == ["Settings": "Réglages"])

        let start = session.log.count
        try session.bundle.save("Settings.xcstrings", Self.settings(title: "Optionen"))
        let index = try session.log.waitForBatch(from: start, "the saved catalog") {
            Self.languages(of: "Settings.xcstrings", in: $0)?["de"]?["Settings"] == "Optionen"
        }
        #expect(session.log.all[index].updates.count { $0.file == "Settings.xcstrings" } == 1)

        // Written in place (no rename): the root's CLOSE_WRITE brings the read.
        let inPlace = session.log.count
        try session.bundle.create("Settings.xcstrings", Self.settings(title: "Konfiguration"))
        try session.log.waitForBatch(from: inPlace, "the catalog written in place") {
            Self.languages(of: "Settings.xcstrings", in: $0)?["de"]?["Settings"] == "Konfiguration"
        }
    }

    @Test func aCatalogInALanguageFolderAndOneMadeLaterAreServedToo() throws {
        var files = TestBundle.standardFiles
        files["de.lproj/Extra.xcstrings"] = CatalogText.catalog([("Hi", ["de": CatalogText.text("Hallo")])])
        let session = try WatchSession(files: files)
        #expect(Self.languages(of: "de.lproj/Extra.xcstrings", in: session.initial)?["de"] == ["Hi": "Hallo"])

        try session.bundle.save("Later.xcstrings", CatalogText.catalog([("Bye", ["fr": CatalogText.text("Salut")])]))
        try session.bundle.save("de.lproj/Extra.xcstrings",
                                CatalogText.catalog([("Hi", ["de": CatalogText.text("Servus")])]))
        try session.log.waitForTables("both catalogs") { tables in
            guard case .catalog(let later)? = tables["Later.xcstrings"],
                  case .catalog(let extra)? = tables["de.lproj/Extra.xcstrings"] else { return false }
            return later["fr"] == ["Bye": "Salut"] && later["en"] == ["Bye": "Bye"] && extra["de"] == ["Hi": "Servus"]
        }
    }

    @Test func aBrokenCatalogIsAnErrorAtItsLineAndColumnAndADeletedOneIsRemoved() throws {
        var files = TestBundle.standardFiles
        files["Settings.xcstrings"] = Self.settings(title: "Einstellungen")
        let session = try WatchSession(files: files)

        let broken = session.log.count
        let truncated = String(Self.settings(title: "Kaputt").prefix(120))
        try session.bundle.save("Settings.xcstrings", truncated)
        let failed = try session.log.waitForBatch(from: broken, "the broken catalog") {
            $0.seen["Settings.xcstrings"]?.problem != nil
        }
        let problem = try #require(session.log.all[failed].seen["Settings.xcstrings"]?.problem)
        #expect(problem.file == "Settings.xcstrings" && problem.line != nil && problem.column != nil)

        let wrongType = session.log.count
        try session.bundle.save("Settings.xcstrings", #"{"sourceLanguage":"en","strings":{"a":{"comment":3}}}"#)
        let typed = try session.log.waitForBatch(from: wrongType, "the mistyped catalog") {
            $0.seen["Settings.xcstrings"]?.problem != nil
        }
        let typeProblem = try #require(session.log.all[typed].seen["Settings.xcstrings"]?.problem)
        #expect(typeProblem.line == 1 && typeProblem.column == 50, "\(typeProblem)")

        let removal = session.log.count
        try session.bundle.remove("Settings.xcstrings")
        try session.log.waitForBatch(from: removal, "the catalog's removal") {
            $0.seen["Settings.xcstrings"] == .removed
        }
        #expect(session.log.tables["en.lproj/Localizable.strings"] != nil)
    }

    @Test func aCatalogLanguageThatIsNoTagIsReportedAndTheOthersAreServed() throws {
        var files = TestBundle.standardFiles
        files["Odd.xcstrings"] = CatalogText.catalog([
            ("Hi", ["de": CatalogText.text("Hallo"), "not a tag!": CatalogText.text("?")]),
        ])
        let session = try WatchSession(files: files)
        let update = try #require(session.initial.updates.first { $0.file == "Odd.xcstrings" })
        guard case .catalog(let catalog) = update.content else {
            Issue.record("expected a catalog, got \(update.content)")
            return
        }
        #expect(catalog.tables.keys.map(\.identifier).sorted() == ["de", "en"])
        #expect(catalog.problems.map(\.file) == ["Odd.xcstrings"])
        #expect(catalog.problems.first?.message.contains("'not a tag!' is not a language tag") == true)
    }

    /// A Kubernetes ConfigMap mounted as the bundle: `Settings.xcstrings -> ..data/Settings.xcstrings`, and an update
    /// renames a new `..data` link into place. No event names the catalog: the swap must make it be read again.
    @Test func aRootCatalogReachedThroughASwappedLinkIsReadAgain() throws {
        var files = TestBundle.standardFiles
        files["..2026_01/Settings.xcstrings"] = Self.settings(title: "Eins")
        files["..2026_02/Settings.xcstrings"] = Self.settings(title: "Zwei")
        let bundle = try TestBundle(files)
        try FileSystem.makeSymbolicLink(atPath: bundle.path("..data"), pointingTo: "..2026_01")
        try FileSystem.makeSymbolicLink(atPath: bundle.path("Settings.xcstrings"),
                                        pointingTo: "..data/Settings.xcstrings")
        let session = try WatchSession(bundle)
        #expect(Self.languages(of: "Settings.xcstrings", in: session.initial)?["de"]?["Settings"] == "Eins")

        let start = session.log.count
        try FileSystem.makeSymbolicLink(atPath: bundle.path("..data_tmp"), pointingTo: "..2026_02")
        try FileSystem.rename(bundle.path("..data_tmp"), to: bundle.path("..data"))
        try session.log.waitForBatch(from: start, "the swapped catalog") {
            Self.languages(of: "Settings.xcstrings", in: $0)?["de"]?["Settings"] == "Zwei"
        }
    }
}
