import BundleChanges
import StringsFormat
import Testing
@testable import StringsStore

@Suite struct LanguageTests {
    static let bundle: [(String, String, StringsTable)] = [
        ("fr", "Localizable", makeTable(["a": "1", "b": "2"])),
        ("fr", "InfoPlist", makeTable(["CFBundleName": "App"])),
        ("German", "Localizable", makeTable(["a": "1"])),
        ("Base", "Main", makeTable(["x": "y", "z": "w", "v": "u"])),
        ("pt_BR", "Localizable", makeTable([:])),
    ]

    @Test func languagesCountKeysPerTable() async {
        let store = await makeStore(Self.bundle)
        #expect(await store.languages() == [
            LanguageSummary(language: "Base", tables: ["Main": 3]),
            LanguageSummary(language: "de", tables: ["Localizable": 1]),
            LanguageSummary(language: "fr", tables: ["Localizable": 2, "InfoPlist": 1]),
            LanguageSummary(language: "pt-BR", tables: ["Localizable": 0]),
        ])
    }

    @Test func languagesFollowChanges() async {
        let store = await makeStore(Self.bundle)
        _ = await store.apply(ChangeBatch(updates: [removed("German"), parsed("fr", makeTable(["a": "1"]))]))
        #expect(await store.languages().map(\.language) == ["Base", "fr", "pt-BR"])
        #expect(await store.languages().first { $0.language == "fr" }?.tables["Localizable"] == 1)
    }

    /// A requested selection and what the store must answer: the canonical selection, or an error.
    static let selections: [(String, String?)] = [
        ("fr", "fr"), ("FR", "fr"), ("German", "de"), ("de", "de"), ("de_CH", "de-CH"), ("pt-br", "pt-BR"),
        // `pt` is `pt-Latn-BR` (CLDR likely subtags), so pt_BR.lproj answers it; no script is crossed.
        ("pt", "pt"), ("iw", nil), ("zh-TW", nil), ("en", nil), ("Base", nil), ("base", nil), ("", nil), ("fr!", nil), ("zz-ZZ", nil),
    ]

    @Test(arguments: selections)
    func selectionIsValidatedAgainstTheBundle(request: String, expected: String?) async {
        let store = await makeStore(Self.bundle)
        if let expected {
            let events = try? await store.selectLanguage(request)
            #expect(events == [.language(seq: 2, language: LanguageTag(expected), previous: nil)])
            #expect(await store.selectedLanguage?.identifier == expected)
        } else {
            await #expect(throws: StoreError.unsupportedLanguage(request, available: ["de", "fr", "pt-BR"])) {
                try await store.selectLanguage(request)
            }
            #expect(await store.selectedLanguage == nil)
            #expect(await store.seq == 1)
        }
    }

    @Test func selectingAgainOrClearingTwiceIsNoEvent() async throws {
        let store = await makeStore(Self.bundle)
        #expect(try await store.selectLanguage("fr") == [.language(seq: 2, language: LanguageTag("fr"), previous: nil)])
        #expect(try await store.selectLanguage("FR").isEmpty)
        #expect(try await store.selectLanguage("de")
            == [.language(seq: 3, language: LanguageTag("de"), previous: LanguageTag("fr"))])
        #expect(try await store.selectLanguage(nil) == [.language(seq: 4, language: nil, previous: LanguageTag("de"))])
        #expect(try await store.selectLanguage(nil).isEmpty)
        #expect(await store.selectedLanguage == nil)
        #expect(await store.seq == 4)
    }

    @Test func selectionChangesTheChain() async throws {
        let store = await makeStore([
            ("fr", "Localizable", makeTable(["k": "fr"])), ("en", "Localizable", makeTable(["k": "en"])),
        ])
        #expect(await store.lookup("k", preferences: []).language == "en")
        _ = try await store.selectLanguage("fr")
        #expect(await store.lookup("k", preferences: []).language == "fr")
        _ = try await store.selectLanguage(nil)
        #expect(await store.lookup("k", preferences: []).language == "en")
    }

    @Test func restoredSelectionIsCanonicalAndInvalidOnesAreDropped() async {
        #expect(await StringsStore(selectedLanguage: "pt_br").selectedLanguage?.identifier == "pt-BR")
        #expect(await StringsStore(selectedLanguage: "no way").selectedLanguage == nil)
        #expect(await StringsStore(selectedLanguage: "Base").selectedLanguage == nil)
        #expect(StringsStore(developmentLanguage: "EN_gb").developmentLanguage == "en-GB")
    }

    @Test func snapshotIsSortedAndFiltered() async {
        let store = await makeStore(Self.bundle)
        let all = await store.snapshot()
        #expect(all.epoch == 42)
        #expect(all.seq == 1)
        #expect(all.tables.map(\.id.description) == [
            "Base/Main", "de/Localizable", "fr/InfoPlist", "fr/Localizable", "pt-BR/Localizable",
        ])
        #expect(all.tables.map(\.file)[1] == path("German"))
        #expect(all.tables[3].table == makeTable(["a": "1", "b": "2"]))

        let some = await store.snapshot(languages: ["FR", "pt_BR", "not a tag"], tables: ["Localizable"])
        #expect(some.tables.map(\.id.description) == ["fr/Localizable", "pt-BR/Localizable"])
        #expect(await store.snapshot(languages: []).tables.isEmpty)
        #expect(await store.snapshot(tables: ["InfoPlist"]).tables.map(\.id) == [tableID("fr", "InfoPlist")])
    }
}
