import BundleChanges
import StringsFormat
import Testing
@testable import StringsStore

/// A String Catalog is table `T` in each of its languages, under each folder's own `T.strings`/`T.stringsdict`
/// (the folder's files win key by key); a save reloads exactly the changed keys of each language.
@Suite struct CatalogTableTests {
    /// An update of the catalog at `file` (table `table`) holding `languages`.
    func catalog(_ languages: [String: KeyValuePairs<String, String>], file: String = "Settings.xcstrings",
                 table: String = "Settings") -> TableUpdate {
        var tables: [LanguageTag: TableContent] = [:]
        for (language, pairs) in languages {
            tables[LanguageTag(language)!] = TableContent(strings: makeTable(pairs))
        }
        return TableUpdate(id: TableID(language: .base, table: table), file: file,
                           content: .catalog(CatalogTables(tables: tables)))
    }

    func reload(in events: [StoreEvent]) -> [TableChange]? {
        for case .reload(_, let changes) in events { return changes }
        return nil
    }

    func problems(in events: [StoreEvent]) -> [FileProblem] {
        events.compactMap { if case .error(_, let problem) = $0 { problem } else { nil } }
    }

    static let first: [String: KeyValuePairs<String, String>] = [
        "en": ["Settings": "Settings", "Done": "Done"],
        "de": ["Settings": "Einstellungen", "Done": "Fertig"],
        "fr": ["Settings": "Réglages", "Done": "OK"],
    ]

    @Test func aCatalogServesEveryLanguageItHasEvenWithoutAFolder() async throws {
        let store = StringsStore(epoch: 1)
        let events = await store.apply(ChangeBatch(updates: [catalog(Self.first)], isFullScan: true))
        let changes = try #require(reload(in: events))
        #expect(changes.map(\.language.identifier) == ["de", "en", "fr"])
        #expect(changes.allSatisfy { $0.kind == .created && $0.file == "Settings.xcstrings" })
        #expect(await store.lookup("Done", table: "Settings", preferences: ["fr"]).value == "OK")
        #expect(await store.languages().map(\.language) == ["de", "en", "fr"])
        #expect(await store.snapshot().tables.map(\.file) == Array(repeating: "Settings.xcstrings", count: 3))
        // A language only the catalog has can be selected.
        #expect((try? await store.selectLanguage("fr"))?.count == 1)
    }

    @Test func aSaveReloadsOnlyTheChangedKeysOfTheLanguagesThatChanged() async throws {
        let store = StringsStore(epoch: 1)
        _ = await store.apply(ChangeBatch(updates: [catalog(Self.first)], isFullScan: true))
        let events = await store.apply(ChangeBatch(updates: [catalog([
            "en": ["Settings": "Settings", "Done": "Done"],
            "de": ["Settings": "Optionen", "Done": "Fertig", "New": "Neu"],
            "fr": ["Settings": "Réglages", "Done": "OK"],
        ])]))
        #expect(events.count == 1)
        let changes = try #require(reload(in: events))
        #expect(changes == [TableChange(language: "de", table: "Settings", file: "Settings.xcstrings", kind: .updated,
                                        added: pairs(["New": "Neu"]), changed: pairs(["Settings": "Optionen"]))])
        // The same catalog again: nothing changed, no reload.
        let again = await store.apply(ChangeBatch(updates: [catalog([
            "en": ["Settings": "Settings", "Done": "Done"],
            "de": ["Settings": "Optionen", "Done": "Fertig", "New": "Neu"],
            "fr": ["Settings": "Réglages", "Done": "OK"],
        ])]))
        #expect(again.isEmpty)
    }

    @Test func theFolderFilesWinKeyByKeyAndDeletingTheCatalogLeavesThem() async throws {
        let store = StringsStore(epoch: 1)
        _ = await store.apply(ChangeBatch(updates: [
            catalog(Self.first), parsed("de", makeTable(["Done": "Erledigt", "Extra": "Mehr"]), table: "Settings"),
        ], isFullScan: true))
        let content = try #require(await store.content(tableID("de", "Settings")))
        #expect(content.strings.dictionary == ["Settings": "Einstellungen", "Done": "Erledigt", "Extra": "Mehr"])

        // A catalog edit of a key the folder overrides changes nothing served in that language.
        let shadowed = await store.apply(ChangeBatch(updates: [catalog([
            "en": ["Settings": "Settings", "Done": "Done"],
            "de": ["Settings": "Einstellungen", "Done": "Fertig!"],
            "fr": ["Settings": "Réglages", "Done": "OK"],
        ])]))
        #expect(shadowed.isEmpty)

        let events = await store.apply(ChangeBatch(updates: [
            TableUpdate(id: TableID(language: .base, table: "Settings"), file: "Settings.xcstrings", content: .removed),
        ]))
        let changes = try #require(reload(in: events))
        #expect(changes.map { "\($0.language) \($0.kind)" } == ["de updated", "en deleted", "fr deleted"])
        #expect(changes.first?.removed == ["Settings"])
        #expect(await store.content(tableID("de", "Settings"))?.strings.dictionary == ["Done": "Erledigt",
                                                                                      "Extra": "Mehr"])
        #expect(await store.languages().map(\.language) == ["de"])
    }

    @Test func aFailedCatalogKeepsTheLastGoodOneAndAFullScanWithoutItRemovesIt() async throws {
        let store = StringsStore(epoch: 1)
        _ = await store.apply(ChangeBatch(updates: [catalog(Self.first)], isFullScan: true))
        let problem = FileProblem(file: "Settings.xcstrings", line: 3, column: 7, message: "expected ','")
        let failure = TableUpdate(id: TableID(language: .base, table: "Settings"), file: "Settings.xcstrings",
                                  content: .failed(problem))
        let events = await store.apply(ChangeBatch(updates: [failure]))
        #expect(problems(in: events) == [problem] && reload(in: events) == nil)
        // A rescan that finds it still broken keeps it too.
        let rescan = await store.apply(ChangeBatch(updates: [failure], isFullScan: true))
        #expect(reload(in: rescan) == nil)
        #expect(await store.lookup("Done", table: "Settings", preferences: ["de"]).value == "Fertig")

        let gone = await store.apply(ChangeBatch(updates: [], isFullScan: true))
        #expect(try #require(reload(in: gone)).allSatisfy { $0.kind == .deleted })
        #expect(await store.languages().isEmpty)
    }

    @Test func aLanguageDroppedFromTheCatalogIsDeleted() async throws {
        let store = StringsStore(epoch: 1)
        _ = await store.apply(ChangeBatch(updates: [catalog(Self.first)], isFullScan: true))
        let events = await store.apply(ChangeBatch(updates: [catalog([
            "en": ["Settings": "Settings", "Done": "Done"], "de": ["Settings": "Einstellungen", "Done": "Fertig"],
        ])]))
        let changes = try #require(reload(in: events))
        #expect(changes.map { "\($0.language) \($0.kind)" } == ["fr deleted"])
    }

    @Test func ofTwoCatalogsOfOneTableTheOneNearestTheRootWinsAndTheOtherIsReported() async throws {
        let store = StringsStore(epoch: 1)
        let nested = catalog(["de": ["Done": "Nested"], "it": ["Done": "Fatto"]], file: "de.lproj/Settings.xcstrings")
        let events = await store.apply(ChangeBatch(updates: [nested, catalog(Self.first)], isFullScan: true))
        #expect(await store.lookup("Done", table: "Settings", preferences: ["de"]).value == "Fertig")
        #expect(await store.languages().map(\.language) == ["de", "en", "fr"])
        let reported = problems(in: events)
        #expect(reported.map(\.file) == ["de.lproj/Settings.xcstrings"])
        #expect(reported.first?.message.contains("Settings.xcstrings, which is served") == true)

        // Without the winner the other one is served.
        let removal = await store.apply(ChangeBatch(updates: [
            TableUpdate(id: TableID(language: .base, table: "Settings"), file: "Settings.xcstrings", content: .removed),
        ]))
        #expect(problems(in: removal).isEmpty)
        let changes = try #require(reload(in: removal))
        #expect(changes.map { "\($0.language) \($0.kind) \($0.file)" } == [
            "de updated de.lproj/Settings.xcstrings", "en deleted Settings.xcstrings", "fr deleted Settings.xcstrings",
            "it created de.lproj/Settings.xcstrings",
        ])
        #expect(await store.lookup("Done", table: "Settings", preferences: ["de"]).value == "Nested")
    }

    /// Catalogs in any folder below the root (`Resources/`, `Features/Chat/`): depth is counted in folders, so the
    /// root's catalog beats `Resources/`'s, `Resources/` beats `Features/Chat/`, and of two at the same depth the
    /// first path in byte order wins (`Assets/` before `Resources/`, and `Resources/` before `de.lproj/`).
    @Test func theNearestRuleHoldsForCatalogsInSubfolders() async throws {
        let store = StringsStore(epoch: 1)
        let root = catalog(["de": ["Done": "Root"]])
        let resources = catalog(["de": ["Done": "Resources"]], file: "Resources/Settings.xcstrings")
        let assets = catalog(["de": ["Done": "Assets"]], file: "Assets/Settings.xcstrings")
        let language = catalog(["de": ["Done": "Folder"]], file: "de.lproj/Settings.xcstrings")
        let chat = catalog(["de": ["Done": "Chat"]], file: "Features/Chat/Settings.xcstrings")
        let events = await store.apply(ChangeBatch(updates: [chat, language, resources, root, assets],
                                                   isFullScan: true))
        #expect(await store.lookup("Done", table: "Settings", preferences: ["de"]).value == "Root")
        #expect(problems(in: events).map(\.file) == [
            "Assets/Settings.xcstrings", "Features/Chat/Settings.xcstrings", "Resources/Settings.xcstrings",
            "de.lproj/Settings.xcstrings",
        ])
        #expect(problems(in: events).allSatisfy {
            $0.message.contains("the catalog Settings.xcstrings, which is served")
        })

        // Without the root's, the first one level down in byte order is served, and one reload says so.
        func removal(_ file: String) -> ChangeBatch {
            ChangeBatch(updates: [
                TableUpdate(id: TableID(language: .base, table: "Settings"), file: file, content: .removed),
            ])
        }
        let rootGone = await store.apply(removal("Settings.xcstrings"))
        #expect(try #require(reload(in: rootGone)).map { "\($0.language) \($0.kind) \($0.file)" }
            == ["de updated Assets/Settings.xcstrings"])
        #expect(await store.lookup("Done", table: "Settings", preferences: ["de"]).value == "Assets")
        _ = await store.apply(removal("Assets/Settings.xcstrings"))
        #expect(await store.lookup("Done", table: "Settings", preferences: ["de"]).value == "Resources")
        _ = await store.apply(removal("Resources/Settings.xcstrings"))
        #expect(await store.lookup("Done", table: "Settings", preferences: ["de"]).value == "Folder")
        _ = await store.apply(removal("de.lproj/Settings.xcstrings"))
        #expect(await store.lookup("Done", table: "Settings", preferences: ["de"]).value == "Chat")
    }

    /// A catalog read again keeps the table of each language a save did not touch (the same value, as
    /// `CompiledCatalog` keeps it): only the changed language is looked at and reloads, and every language still
    /// serves what it did, under a folder's own file too; a later change of that folder's file still reloads.
    @Test func aSaveThatKeepsTheOtherLanguagesTablesReloadsOnlyTheChangedOne() async throws {
        func update(_ tables: [String: TableContent]) -> TableUpdate {
            let tables = Dictionary(uniqueKeysWithValues: tables.map { (LanguageTag($0.key)!, $0.value) })
            return TableUpdate(id: TableID(language: .base, table: "Settings"), file: "Settings.xcstrings",
                               content: .catalog(CatalogTables(tables: tables)))
        }
        var tables = Self.first.mapValues { TableContent(strings: makeTable($0)) }
        let store = StringsStore(epoch: 1)
        _ = await store.apply(ChangeBatch(updates: [
            update(tables), parsed("fr", makeTable(["Extra": "Plus"]), table: "Settings"),
        ], isFullScan: true))
        tables["de"] = TableContent(strings: makeTable(["Settings": "Optionen", "Done": "Fertig"]))
        let changes = try #require(reload(in: await store.apply(ChangeBatch(updates: [update(tables)]))))
        #expect(changes == [TableChange(language: "de", table: "Settings", file: "Settings.xcstrings", kind: .updated,
                                        changed: pairs(["Settings": "Optionen"]))])
        #expect(await store.lookup("Settings", table: "Settings", preferences: ["de"]).value == "Optionen")
        #expect(await store.lookup("Done", table: "Settings", preferences: ["fr"]).value == "OK")
        #expect(await store.lookup("Extra", table: "Settings", preferences: ["fr"]).value == "Plus")
        #expect(await store.lookup("Done", table: "Settings", preferences: ["en"]).value == "Done")

        let folder = try #require(reload(in: await store.apply(ChangeBatch(updates: [
            parsed("fr", makeTable(["Extra": "Encore", "Done": "Fini"]), table: "Settings"),
        ]))))
        #expect(folder.map(\.language.identifier) == ["fr"])
        #expect(await store.lookup("Done", table: "Settings", preferences: ["fr"]).value == "Fini")
        #expect(await store.lookup("Settings", table: "Settings", preferences: ["fr"]).value == "Réglages")
    }

    @Test func theCatalogsRulesAreServedUnderTheFolderStrings() async throws {
        let catalog = try StringCatalog.parse(Array(#"""
            {"sourceLanguage":"en","strings":{"%lld items":{"localizations":{"de":{"variations":{"plural":{
            "one":{"stringUnit":{"state":"translated","value":"%lld Eintrag"}},
            "other":{"stringUnit":{"state":"translated","value":"%lld Einträge"}}}}}}}}}
            """#.utf8))
        let tables = CatalogTables(tables: [LanguageTag("de")!: catalog.compiled(language: "de"),
                                            LanguageTag("en")!: catalog.compiled(language: "en")])
        let store = StringsStore(epoch: 1)
        _ = await store.apply(ChangeBatch(updates: [
            TableUpdate(id: TableID(language: .base, table: "Localizable"), file: "Localizable.xcstrings",
                        content: .catalog(tables)),
            parsed("de", makeTable(["Title": "Titel"])),
        ], isFullScan: true))
        let lookup = await store.lookup("%lld items", preferences: ["de"])
        #expect(lookup.language == "de" && lookup.value == "%lld Einträge" && lookup.rule != nil)
        #expect(await store.lookup("Title", preferences: ["de"]).value == "Titel")
        #expect(await store.lookup("%lld items", preferences: ["en"]).value == "%lld items")
    }
}
