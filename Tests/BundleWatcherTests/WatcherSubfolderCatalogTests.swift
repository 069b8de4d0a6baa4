import BundleChanges
import HotStringsTestSupport
import LinuxSystem
import StringsFormat
import Testing
@testable import BundleWatcher

/// String Catalogs in any ordinary folder below the root (`Resources/Settings.xcstrings`, `Features/Chat/…`) are
/// found on the first scan and in folders made or moved in later, read on every save and removed with their folder;
/// hidden folders, folders reached through a symbolic link and folders beyond the depth and count limits are not
/// searched (the last two reported once).
@Suite struct WatcherSubfolderCatalogTests {
    static func catalog(_ key: String, _ language: String, _ value: String) -> String {
        CatalogText.catalog([(key, [language: CatalogText.text(value)])])
    }

    /// The German value of `key` in the catalog at `path`, as the folded tables have it.
    static func german(_ key: String, at path: String, in tables: [String: Seen]) -> String? {
        guard case .catalog(let languages)? = tables[path] else { return nil }
        return languages["de"]?[key]
    }

    /// Waits until the watcher has exactly `count` directories watched.
    static func waitForWatches(_ session: WatchSession, _ count: Int, _ what: String) throws {
        _ = try session.log.wait(for: "\(what) (\(count) watched directories)") { _ in
            session.watcher.status.watchedDirectories == count ? true : nil
        }
    }

    @Test func aCatalogInASubfolderIsServedFromTheStartAndEverySaveIsOneBatch() throws {
        var files = TestBundle.standardFiles
        files["Resources/Settings.xcstrings"] = WatcherCatalogTests.settings(title: "Einstellungen")
        files["Features/Chat/Chat.xcstrings"] = Self.catalog("Send", "de", "Senden")
        let session = try WatchSession(files: files)
        let update = try #require(session.initial.updates.first { $0.file == "Resources/Settings.xcstrings" })
        #expect(update.id == TableID(language: .base, table: "Settings") && update.isCatalog)
        // From the folded tables: a file the scan found held open by a parallel test's child is read again.
        guard case .catalog(let languages)? = session.log.tables["Resources/Settings.xcstrings"] else {
            Issue.record("no catalog: \(session.log.tables)")
            return
        }
        #expect(languages.keys.sorted() == ["de", "en", "fr"])
        #expect(languages["de"]?["Settings"] == "Einstellungen")
        #expect(Self.german("Send", at: "Features/Chat/Chat.xcstrings", in: session.log.tables) == "Senden")
        // The root, en.lproj, de.lproj, Resources, Features and Features/Chat.
        #expect(session.watcher.status.watchedDirectories == 6)

        let start = session.log.count
        try session.bundle.save("Resources/Settings.xcstrings", WatcherCatalogTests.settings(title: "Optionen"))
        let index = try session.log.waitForBatch(from: start, "the saved catalog") {
            WatcherCatalogTests.languages(of: "Resources/Settings.xcstrings", in: $0)?["de"]?["Settings"] == "Optionen"
        }
        #expect(session.log.all[index].updates.map(\.file) == ["Resources/Settings.xcstrings"])
        #expect(session.log.effectiveChanges(in: start..<session.log.count).map(\.path)
            == ["Resources/Settings.xcstrings"])

        // Written in place two levels down: the folder's own watch sees its CLOSE_WRITE.
        let inPlace = session.log.count
        try session.bundle.create("Features/Chat/Chat.xcstrings", Self.catalog("Send", "de", "Abschicken"))
        try session.log.waitForBatch(from: inPlace, "the catalog written in place") {
            Self.german("Send", at: "Features/Chat/Chat.xcstrings", in: $0.seen) == "Abschicken"
        }
    }

    @Test func aBrokenSubfolderCatalogIsAnErrorAtItsLineAndTheLastGoodStays() throws {
        var files = TestBundle.standardFiles
        files["Resources/Settings.xcstrings"] = WatcherCatalogTests.settings(title: "Einstellungen")
        let session = try WatchSession(files: files)
        let start = session.log.count
        try session.bundle.save("Resources/Settings.xcstrings",
                                String(WatcherCatalogTests.settings(title: "Kaputt").prefix(120)))
        let failed = try session.log.waitForBatch(from: start, "the broken catalog") {
            $0.seen["Resources/Settings.xcstrings"]?.problem != nil
        }
        let problem = try #require(session.log.all[failed].seen["Resources/Settings.xcstrings"]?.problem)
        #expect(problem.file == "Resources/Settings.xcstrings" && problem.line != nil && problem.column != nil)
    }

    @Test func aFolderMadeWithMkdirPAndFilledAtOnceIsSearchedAndRemovingItRemovesItsCatalogs() throws {
        let session = try WatchSession()
        #expect(session.watcher.status.watchedDirectories == 3)
        let source = session.bundle.folder + "/Later.xcstrings"
        try writeText(Self.catalog("Later", "de", "Später"), toPath: source)
        // The catalog is written before the new folders' watches can exist: the search after each watch finds it.
        try ProcessRun.checkedTool("/bin/sh", ["-c", "mkdir -p a/b && cp \"$0\" a/b/Later.xcstrings", source],
                    in: session.bundle.root)
        try session.log.waitForTables("the catalog in the new folders") {
            Self.german("Later", at: "a/b/Later.xcstrings", in: $0) == "Später"
        }
        try Self.waitForWatches(session, 5, "a and a/b watched")

        let edit = session.log.count
        try session.bundle.save("a/b/Later.xcstrings", Self.catalog("Later", "de", "Nachher"))
        let edited = try session.log.waitForBatch(from: edit, "the edited catalog") {
            Self.german("Later", at: "a/b/Later.xcstrings", in: $0.seen) == "Nachher"
        }
        #expect(session.log.all[edited].updates.count == 1)

        let removal = session.log.count
        try ProcessRun.checkedTool("/bin/rm", ["-r", "a"], in: session.bundle.root)
        try session.waitFor("a/b/Later.xcstrings", .removed, from: removal)
        try Self.waitForWatches(session, 3, "a and a/b no longer watched")
        #expect(session.log.tables["a/b/Later.xcstrings"] == nil)
        #expect(session.log.tables["en.lproj/Localizable.strings"] != nil)
    }

    @Test func aFolderMovedInIsSearchedAndOneMovedAwayTakesItsCatalogs() throws {
        var files = TestBundle.standardFiles
        files["Resources/Settings.xcstrings"] = Self.catalog("Settings", "de", "Einstellungen")
        let session = try WatchSession(files: files)
        let outside = session.bundle.folder + "/Staged"
        try FileSystem.makeDirectory(atPath: outside)
        try FileSystem.makeDirectory(atPath: outside + "/Deep")
        try writeText(Self.catalog("Staged", "de", "Bereit"), toPath: outside + "/Deep/Staged.xcstrings")

        let moveIn = session.log.count
        try FileSystem.rename(outside, to: session.bundle.path("Features"))
        try session.waitFor("Features/Deep/Staged.xcstrings", .catalog(["de": ["Staged": "Bereit"],
                                                                        "en": ["Staged": "Staged"]]), from: moveIn)

        // Renamed inside the bundle: the old path's catalog goes, the new path's comes.
        let rename = session.log.count
        try session.bundle.rename("Resources", to: "Assets")
        try session.log.waitForTables("the renamed folder's catalog") { tables in
            tables["Resources/Settings.xcstrings"] == nil
                && Self.german("Settings", at: "Assets/Settings.xcstrings", in: tables) == "Einstellungen"
        }
        #expect(session.log.all[rename...].contains { $0.seen["Resources/Settings.xcstrings"] == .removed })
        // And edits under the new name are seen (the watch follows the folder's current path).
        let edit = session.log.count
        try session.bundle.save("Assets/Settings.xcstrings", Self.catalog("Settings", "de", "Optionen"))
        try session.log.waitForBatch(from: edit, "the edit under the new name") {
            Self.german("Settings", at: "Assets/Settings.xcstrings", in: $0.seen) == "Optionen"
        }

        let moveOut = session.log.count
        try FileSystem.rename(session.bundle.path("Features"), to: session.bundle.folder + "/Gone")
        try session.waitFor("Features/Deep/Staged.xcstrings", .removed, from: moveOut)
        // The root, two language folders, Assets.
        try Self.waitForWatches(session, 4, "the moved-away folders no longer watched")
    }

    @Test func hiddenFoldersAndFoldersBehindSymbolicLinksAreNotSearched() throws {
        var files = TestBundle.standardFiles
        files[".cache/Hidden.xcstrings"] = Self.catalog("Hidden", "de", "Versteckt")
        files["Real/Real.xcstrings"] = Self.catalog("Real", "de", "Echt")
        let bundle = try TestBundle(files)
        try FileSystem.makeDirectory(atPath: bundle.folder + "/Outside")
        try writeText(Self.catalog("Outside", "de", "Draußen"), toPath: bundle.folder + "/Outside/Outside.xcstrings")
        try FileSystem.makeSymbolicLink(atPath: bundle.path("External"), pointingTo: bundle.folder + "/Outside")
        try FileSystem.makeSymbolicLink(atPath: bundle.path("Real/Loop"), pointingTo: "..")
        let session = try WatchSession(bundle)
        #expect(session.initial.seen.keys.filter { $0.hasSuffix(".xcstrings") } == ["Real/Real.xcstrings"])
        #expect(session.initial.problems.isEmpty, "\(session.initial.problems)")

        // Made while watching: a link to a folder holding a catalog, a hidden folder, a catalog in a folder behind
        // a link.
        try FileSystem.makeSymbolicLink(atPath: bundle.path("Shortcut"), pointingTo: "Real")
        try bundle.create(".sync/Synced.xcstrings", Self.catalog("Synced", "de", "Abgeglichen"))
        try writeText(Self.catalog("Outside", "de", "Neu"), toPath: bundle.folder + "/Outside/New.xcstrings")
        try bundle.create("Real/Seen.xcstrings", Self.catalog("Seen", "de", "Gesehen"))
        try session.log.waitForTables("the catalog in the real folder") {
            Self.german("Seen", at: "Real/Seen.xcstrings", in: $0) == "Gesehen"
        }
        try session.flush()
        let catalogs = session.log.tables.keys.filter { $0.hasSuffix(".xcstrings") }.sorted()
        #expect(catalogs == ["Real/Real.xcstrings", "Real/Seen.xcstrings"])
        // The root, two language folders, Real: no watch through a link.
        #expect(session.watcher.status.watchedDirectories == 4)
    }

    @Test func aFolderDeeperThanTheLimitIsReportedOnceAndNotSearched() throws {
        let sixteen = (1...16).map { "d\($0)" }.joined(separator: "/")
        var files = TestBundle.standardFiles
        files[sixteen + "/Deepest.xcstrings"] = Self.catalog("Deepest", "de", "Am tiefsten")
        files[sixteen + "/d17/TooDeep.xcstrings"] = Self.catalog("TooDeep", "de", "Zu tief")
        let session = try WatchSession(files: files)
        #expect(Self.german("Deepest", at: sixteen + "/Deepest.xcstrings", in: session.log.tables) == "Am tiefsten")
        #expect(session.initial.seen[sixteen + "/d17/TooDeep.xcstrings"] == nil)
        #expect(session.initial.problems.map(\.file) == [sixteen + "/d17"])
        #expect(session.initial.problems.first?.message.contains("more than 16 folders below the root") == true)

        // Made later: reported once too; a rescan reports neither again.
        let start = session.log.count
        try session.bundle.create(sixteen + "/e17/Late.xcstrings", Self.catalog("Late", "de", "Spät"))
        try session.log.waitForBatch(from: start, "the late folder's problem") {
            $0.problems.contains { $0.file == sixteen + "/e17" }
        }
        let rescan = session.log.count
        session.watcher.rescan()
        try session.log.waitForBatch(from: rescan, "the rescan") { $0.resync == .requested }
        try session.flush()
        let reported = session.log.all.flatMap(\.problems).map(\.file)
        #expect(reported.filter { $0.hasPrefix(sixteen + "/") }.sorted() == [sixteen + "/d17", sixteen + "/e17"])
        #expect(session.log.tables.keys.filter { $0.contains("/d17/") || $0.contains("/e17/") }.isEmpty)
    }

    @Test func foldersBeyondTheLimitOnWatchedFoldersAreReportedAndNotSearched() throws {
        var files = TestBundle.standardFiles
        files["A/One.xcstrings"] = Self.catalog("One", "de", "Eins")
        files["B/Two.xcstrings"] = Self.catalog("Two", "de", "Zwei")
        files["C/Three.xcstrings"] = Self.catalog("Three", "de", "Drei")
        files["D/Four.xcstrings"] = Self.catalog("Four", "de", "Vier")
        let session = try WatchSession(TestBundle(files)) { $0.catalogSearchFolders = 2 }
        let catalogs = session.initial.seen.keys.filter { $0.hasSuffix(".xcstrings") }.sorted()
        #expect(catalogs == ["A/One.xcstrings", "B/Two.xcstrings"])
        #expect(session.initial.problems.map(\.file) == ["C"], "reported once, at the first folder beyond it")
        #expect(session.initial.problems.first?.message.contains("more than 2 folders") == true)

        // Room again once a searched folder goes: the next folder made is searched.
        let start = session.log.count
        try session.bundle.remove("A")
        try session.waitFor("A/One.xcstrings", .removed, from: start)
        try session.bundle.create("E/Five.xcstrings", Self.catalog("Five", "de", "Fünf"))
        try session.log.waitForTables("the catalog in the new folder") {
            Self.german("Five", at: "E/Five.xcstrings", in: $0) == "Fünf"
        }
    }

    /// `fr.lproj -> Resources/fr`: the kernel has one watch for the directory, which the language folder takes over;
    /// searching `Resources` again (its permissions changed) must not remove it.
    @Test func aLanguageFolderLinkedIntoASearchedFolderKeepsItsWatch() throws {
        var files = TestBundle.standardFiles
        files["Resources/fr/Localizable.strings"] = stringsText(["greeting": "Bonjour"])
        let bundle = try TestBundle(files)
        try FileSystem.makeSymbolicLink(atPath: bundle.path("fr.lproj"), pointingTo: "Resources/fr")
        let session = try WatchSession(bundle)
        #expect(session.log.tables["fr.lproj/Localizable.strings"] == .parsed(["greeting": "Bonjour"]))

        let searched = session.log.count
        try ProcessRun.checkedTool("/bin/chmod", ["700", bundle.path("Resources")])
        try session.flush()
        #expect(session.log.effectiveChanges(in: searched..<session.log.count).filter { $0.path.hasPrefix("fr") }
            .isEmpty)
        let edit = session.log.count
        try bundle.save("Resources/fr/Localizable.strings", stringsText(["greeting": "Salut"]))
        try session.waitFor("fr.lproj/Localizable.strings", .parsed(["greeting": "Salut"]), from: edit)
    }

    /// The rule itself is the store's (see `CatalogTableTests`); here the watcher gives it the deeper paths.
    @Test func ofARootAndASubfolderCatalogOfOneTableBothAreReadWithTheirPaths() throws {
        var files = TestBundle.standardFiles
        files["Settings.xcstrings"] = Self.catalog("Done", "de", "Fertig")
        files["Resources/Settings.xcstrings"] = Self.catalog("Done", "de", "Erledigt")
        let session = try WatchSession(files: files)
        let catalogs = session.initial.updates.filter(\.isCatalog)
        #expect(catalogs.map(\.file).sorted() == ["Resources/Settings.xcstrings", "Settings.xcstrings"])
        #expect(catalogs.allSatisfy { $0.id == TableID(language: .base, table: "Settings") })
    }
}
