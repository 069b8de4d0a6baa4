import BundleChanges
import StringsFormat
import Testing
@testable import StringsStore

/// One lookup and its answer (`language` nil: not found, the value is the key).
struct LookupCase: CustomTestStringConvertible, Sendable {
    let name: String
    var preferences: [String]
    var key: String
    var table = "Localizable"
    var selected: String?
    var development = "en"
    var value: String
    var language: String?
    var testDescription: String { name }
}

@Suite struct LookupTests {
    static let bundle: [(String, String, StringsTable)] = [
        ("de_CH", "Localizable", makeTable(["greeting": "Grüezi"])),
        ("German", "Localizable", makeTable(["greeting": "Hallo", "only-de": "nur"])),
        ("fr", "Localizable", makeTable(["greeting": "Bonjour", "only-fr": "seulement", "bye": "Au revoir"])),
        ("it", "Localizable", makeTable(["only-it": "solo", "bye": "Ciao"])),
        ("en", "Localizable", makeTable(["greeting": "Hello", "only-en": "english", "bye": "Bye"])),
        ("Base", "Localizable", makeTable(["only-base": "base", "greeting": "Base hello"])),
        ("de", "Other", makeTable(["other": "anders"])),
        ("zh_Hans", "Localizable", makeTable(["greeting": "你好"])),
    ]

    static let cases: [LookupCase] = [
        LookupCase(name: "exact region", preferences: ["de-CH", "fr"], key: "greeting", value: "Grüezi",
                   language: "de-CH"),
        LookupCase(name: "region falls back to language", preferences: ["de-CH", "fr"], key: "only-de",
                   value: "nur", language: "de"),
        LookupCase(name: "then the next preference", preferences: ["de-CH", "fr"], key: "only-fr",
                   value: "seulement", language: "fr"),
        LookupCase(name: "then the development language", preferences: ["de-CH", "fr"], key: "only-en",
                   value: "english", language: "en"),
        LookupCase(name: "then Base", preferences: ["de-CH", "fr"], key: "only-base", value: "base",
                   language: "Base"),
        LookupCase(name: "missing everywhere", preferences: ["de-CH", "fr"], key: "nowhere", value: "nowhere",
                   language: nil),
        LookupCase(name: "request spelled with underscore and lower case", preferences: ["de_ch"], key: "greeting",
                   value: "Grüezi", language: "de-CH"),
        LookupCase(name: "request by legacy name", preferences: ["German"], key: "greeting", value: "Hallo",
                   language: "de"),
        LookupCase(name: "script and region", preferences: ["zh-Hans-CN"], key: "greeting", value: "你好",
                   language: "zh-Hans"),
        LookupCase(name: "no preferences", preferences: [], key: "greeting", value: "Hello", language: "en"),
        LookupCase(name: "invalid and unknown preferences are skipped", preferences: ["!!", "", "xx"],
                   key: "greeting", value: "Hello", language: "en"),
        LookupCase(name: "selected language before development", preferences: ["fr"], key: "only-it",
                   selected: "it", value: "solo", language: "it"),
        LookupCase(name: "preferences before selected language", preferences: ["fr"], key: "bye", selected: "it",
                   value: "Au revoir", language: "fr"),
        LookupCase(name: "selected language without preferences", preferences: [], key: "bye", selected: "it",
                   value: "Ciao", language: "it"),
        LookupCase(name: "selected language falls back to its language", preferences: [], key: "only-de",
                   selected: "de-AT", value: "nur", language: "de"),
        LookupCase(name: "development language after selected", preferences: [], key: "only-en", selected: "it",
                   value: "english", language: "en"),
        LookupCase(name: "other development language", preferences: ["it"], key: "greeting", development: "fr",
                   value: "Bonjour", language: "fr"),
        LookupCase(name: "other table", preferences: ["de-CH"], key: "other", table: "Other", value: "anders",
                   language: "de"),
        LookupCase(name: "other table missing in the chain", preferences: ["fr"], key: "other", table: "Other",
                   value: "other", language: nil),
        LookupCase(name: "unknown table", preferences: ["de"], key: "greeting", table: "Nope", value: "greeting",
                   language: nil),
    ]

    @Test(arguments: cases)
    func fallbackChain(_ test: LookupCase) async {
        let store = await makeStore(Self.bundle, developmentLanguage: test.development, selected: test.selected)
        let result = await store.lookup(test.key, table: test.table, preferences: test.preferences)
        #expect(result == Lookup(value: test.value, language: test.language, found: test.language != nil))
    }

    @Test func lookupSeesTheLatestBatch() async {
        let store = await makeStore(Self.bundle)
        _ = await store.apply(ChangeBatch(updates: [parsed("fr", makeTable(["greeting": "Salut"]))]))
        #expect(await store.lookup("greeting", preferences: ["fr"]).value == "Salut")
        _ = await store.apply(ChangeBatch(updates: [removed("fr")]))
        #expect(await store.lookup("greeting", preferences: ["fr"]) == Lookup(value: "Hello", language: "en",
                                                                               found: true))
    }
}
