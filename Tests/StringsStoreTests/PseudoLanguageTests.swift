import BundleChanges
import StringsFormat
import Testing
@testable import StringsStore

/// `en-XA` and `ar-XB` are derived from the development language's tables in the same `apply`.
@Suite struct PseudoLanguageTests {
    static let rlo = "\u{202E}"
    static let pdf = "\u{202C}"

    func makePseudoStore(developmentLanguage: String = "en") async -> StringsStore {
        let store = StringsStore(developmentLanguage: developmentLanguage, epoch: 7, pseudoLanguages: true)
        _ = await store.apply(ChangeBatch(updates: [
            parsed("en", makeTable(["hello": "Hello", "count": "%d files"])),
            parsed("de", makeTable(["hello": "Hallo"])),
        ], isFullScan: true))
        return store
    }

    @Test func theFirstScanServesThePseudoLanguages() async {
        let store = await makePseudoStore()
        #expect(await store.languages().map(\.language) == ["ar-XB", "de", "en", "en-XA"])
        #expect(await store.lookup("hello", preferences: ["en-XA"]) == Lookup(value: "[Ĥéļļö one two]",
                                                                              language: "en-XA", found: true))
        #expect(await store.lookup("count", preferences: ["ar-XB"]).value == "%d \(Self.rlo)files\(Self.pdf)")
        // A key the development language lacks is not in the pseudo-languages either: the chain goes on.
        #expect(await store.lookup("missing", preferences: ["en-XA"]).found == false)
        let snapshot = await store.snapshot(languages: ["en-XA"])
        #expect(snapshot.tables.map(\.file) == ["en.lproj/Localizable.strings"])
    }

    @Test func aStoreWithoutTheOptionHasNone() async {
        let store = await makeStore([("en", "Localizable", makeTable(["hello": "Hello"]))])
        #expect(await store.languages().map(\.language) == ["en"])
    }

    @Test func aChangeOfTheSourceIsOneReloadNamingThePseudoTables() async throws {
        let store = await makePseudoStore()
        let events = await store.apply(ChangeBatch(updates: [
            parsed("en", makeTable(["hello": "Hi", "count": "%d files"])),
        ]))
        #expect(events.count == 1)
        guard case .reload(_, let changes) = events.first else { Issue.record("no reload: \(events)"); return }
        #expect(changes.map(\.language.identifier) == ["ar-XB", "en", "en-XA"])
        #expect(changes.allSatisfy { $0.file == "en.lproj/Localizable.strings" && $0.kind == .updated })
        #expect(changes.first { $0.language.identifier == "en-XA" }?.changed
                    == pairs(["hello": "[Ĥî one]"]))
        #expect(changes.first { $0.language.identifier == "ar-XB" }?.changed
                    == pairs(["hello": "\(Self.rlo)Hi\(Self.pdf)"]))
        #expect(await store.lookup("hello", preferences: ["en-XA"]).value == "[Ĥî one]")
    }

    @Test func anotherLanguageChangingLeavesThePseudoTablesAlone() async {
        let store = await makePseudoStore()
        let events = await store.apply(ChangeBatch(updates: [parsed("de", makeTable(["hello": "Servus"]))]))
        guard case .reload(_, let changes) = events.first else { Issue.record("no reload: \(events)"); return }
        #expect(changes.map(\.language.identifier) == ["de"])
    }

    @Test func removingTheSourceRemovesThePseudoTables() async {
        let store = await makePseudoStore()
        let events = await store.apply(ChangeBatch(updates: [removed("en")]))
        guard case .reload(_, let changes) = events.first else { Issue.record("no reload: \(events)"); return }
        #expect(changes.map(\.kind) == [.deleted, .deleted, .deleted])
        #expect(await store.languages().map(\.language) == ["de"])
    }

    @Test func rulesAreDerivedFormByForm() async throws {
        let store = StringsStore(epoch: 1, pseudoLanguages: true)
        _ = await store.apply(ChangeBatch(updates: [
            try parsedRules("en", stringsdict(["files": ("%#@n@", "n", ["one": "%d file", "other": "%d files"])])),
        ], isFullScan: true))
        let lookup = await store.lookup("files", preferences: ["en-XA"])
        #expect(lookup.rule?.variables["n"] == .plural(valueType: "d", forms: [.one: "[%d ƒîļé one]",
                                                                                .other: "[%d ƒîļéš one two]"]))
        #expect(lookup.value == "[%d ƒîļéš one two]")
    }

    /// Pseudo-languages answer only a request for themselves: English of any region finds en, Arabic does not
    /// find ar-XB, and no chain passes through them on its way to the development language (`ar` found `ar-XB`
    /// and every chain had `en-XA` after `en` before the matcher left them out).
    @Test func onlyTheirOwnNamesFindThePseudoLanguages() async {
        let store = await makePseudoStore()
        for preference in ["en", "en-US", "en-GB", "en-001"] {
            let chain = await store.chain(for: [preference]).map(\.identifier)
            #expect(chain == ["en", "Base"], "\(preference): \(chain)")
        }
        let arabic = await store.chain(for: ["ar"]).map(\.identifier)
        #expect(arabic == ["en", "Base"], "\(arabic)")
        let pseudo = await store.chain(for: ["ar-XB"]).map(\.identifier)
        #expect(pseudo == ["ar-XB", "en", "Base"], "\(pseudo)")
        let accented = await store.chain(for: ["en-XA", "de"]).map(\.identifier)
        #expect(accented == ["en-XA", "en", "de", "Base"], "\(accented)")
    }

    @Test func aPseudoLanguageCanBeSelected() async throws {
        let store = await makePseudoStore()
        _ = try await store.selectLanguage("en-XA")
        #expect(await store.lookup("hello", preferences: []).value == "[Ĥéļļö one two]")
        _ = try await store.selectLanguage("ar-XB")
        #expect(await store.lookup("hello", preferences: ["fr"]).value == "\(Self.rlo)Hello\(Self.pdf)")
    }

    @Test func aFolderOfAPseudoLanguageIsNotServedOverTheDerivedTable() async {
        let store = await makePseudoStore()
        let events = await store.apply(ChangeBatch(updates: [parsed("en-XA", makeTable(["hello": "Folder"]))]))
        #expect(events.isEmpty)
        #expect(await store.lookup("hello", preferences: ["en-XA"]).value == "[Ĥéļļö one two]")
    }

    @Test func aCatalogsTableIsDerivedToo() async throws {
        let store = StringsStore(epoch: 1, pseudoLanguages: true)
        let tables = [LanguageTag("en")!: TableContent(strings: makeTable(["done": "Done"])),
                      LanguageTag("de")!: TableContent(strings: makeTable(["done": "Fertig"]))]
        let events = await store.apply(ChangeBatch(updates: [
            TableUpdate(id: TableID(language: .base, table: "Settings"), file: "Settings.xcstrings",
                        content: .catalog(CatalogTables(tables: tables))),
        ], isFullScan: true))
        guard case .reload(_, let changes) = events.first else { Issue.record("no reload: \(events)"); return }
        #expect(changes.map(\.language.identifier) == ["ar-XB", "de", "en", "en-XA"])
        #expect(await store.lookup("done", table: "Settings", preferences: ["en-XA"]).value == "[Ðöñé one]")
    }

    /// A save of `T.strings` re-reads `T.stringsdict` too: the pseudo tables name the file that changed, as the
    /// source does (they named the `.stringsdict`, read last, before).
    @Test func thePseudoTablesNameTheFileTheSourceNames() async throws {
        let store = StringsStore(epoch: 1, pseudoLanguages: true)
        let rules = try parsedRules("en", stringsdict(["files": ("%#@n@", "n", ["other": "%d files"])]))
        _ = await store.apply(ChangeBatch(updates: [parsed("en", makeTable(["a": "A"])), rules], isFullScan: true))
        let events = await store.apply(ChangeBatch(updates: [parsed("en", makeTable(["a": "B"])), rules]))
        guard case .reload(_, let changes) = events.first else { Issue.record("no reload: \(events)"); return }
        #expect(changes.map(\.file) == Array(repeating: "en.lproj/Localizable.strings", count: 3))
    }

    @Test func theDevelopmentLanguageSetsTheSource() async {
        let store = StringsStore(developmentLanguage: "de", epoch: 7, pseudoLanguages: true)
        _ = await store.apply(ChangeBatch(updates: [parsed("de", makeTable(["hello": "Hallo"]))], isFullScan: true))
        #expect(await store.lookup("hello", preferences: ["en-XA"]).value == "[Ĥåļļö one two]")
    }
}
