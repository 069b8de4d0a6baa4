import Foundation
import HotStringsProtocol
import StringsFormat
import Testing
@testable import HotStringsClient

/// `localizedString(_:table:arguments:)` with format rules: the plural rules of the language the value came
/// from, width and device, and reloads of rules.
struct PluralLookupTests {
    static func plural(_ forms: [(String, String)]) -> JSONValue {
        .object([("NSStringFormatSpecTypeKey", "NSStringPluralRuleType"), ("NSStringFormatValueTypeKey", "d")]
            + forms.map { ($0.0, JSONValue.string($0.1)) })
    }

    static func rule(_ format: String, _ variables: [(String, JSONValue)]) -> JSONValue {
        .object([("NSStringLocalizedFormatKey", .string(format))] + variables)
    }

    static let englishFiles = rule("%#@n@ in %@", [("n", plural([("one", "%d file"), ("other", "%d files")]))])
    static let russianFiles = rule("%#@n@", [("n", plural([
        ("one", "%d файл"), ("few", "%d файла"), ("many", "%d файлов"), ("other", "%d файла"),
    ]))])

    /// `en` and `ru` with a `files` rule, `de` without one (so `de` falls back to `en`'s rule), and a `label`
    /// with width and device variables.
    static let payloads: [TablePayload] = [
        TablePayload(language: LanguageTag("de")!, table: "Localizable", file: "de.lproj/Localizable.strings",
                     entries: [("greeting", "Hallo")]),
        TablePayload(language: LanguageTag("en")!, table: "Localizable", file: "en.lproj/Localizable.stringsdict",
                     entries: [("files", "%d files in %@"), ("label", "Click here"), ("broken", "%d things")],
                     rules: [("files", englishFiles),
                             ("broken", rule("%#@n@", [("n", plural([("one", "%d thing")]))])),
                             ("label", rule("%#@action@ %#@place@", [
                         ("action", .object([("NSStringFormatSpecTypeKey", "NSStringDeviceSpecificRuleType"),
                                             ("ipad", "Tap"), ("other", "Click")])),
                         ("place", .object([("NSStringFormatSpecTypeKey", "NSStringVariableWidthRuleType"),
                                            ("5", "here"), ("20", "on this button")])),
                     ]))]),
        TablePayload(language: LanguageTag("ru")!, table: "Localizable", file: "ru.lproj/Localizable.stringsdict",
                     entries: [("files", "%d файла")], rules: [("files", russianFiles)]),
    ]

    func client(language: String, device: String = "other") -> (LiveStrings, FakeTransport) {
        let transport = FakeTransport()
        let configuration = LiveStrings.Configuration(environment: ["LANG": language], device: device)
        let strings = LiveStrings(transport: transport, configuration: configuration)
        transport.emit(.connected)
        transport.emit(.snapshot(tables: Self.payloads), seq: 1)
        transport.emit(.serverInfo(ServerInfo(languages: ["de", "en", "ru"], selectedLanguage: nil,
                                              developmentLanguage: "en")))
        return (strings, transport)
    }

    @Test(arguments: [
        ("en", 1, "1 file in Docs"), ("en", 2, "2 files in Docs"), ("ru", 1, "1 файл"), ("ru", 3, "3 файла"),
        ("ru", 5, "5 файлов"), ("ru", 21, "21 файл"),
        // `de` has no `files`: the English rule formats it with English rules.
        ("de", 1, "1 file in Docs"), ("de", 0, "0 files in Docs"),
    ])
    func pluralFormsFollowTheLanguageTheValueCameFrom(language: String, count: Int, expected: String) {
        let (strings, _) = client(language: language)
        #expect(strings.localizedString("files", arguments: [count, "Docs"]) == expected)
    }

    @Test func decimalsAndNumbersOfOtherTypesSelectForms() {
        let (strings, _) = client(language: "en")
        #expect(strings.localizedString("files", arguments: [UInt8(1), "A"]) == "1 file in A")
        #expect(strings.localizedString("files", arguments: [1.0, "A"]) == "1 file in A", "a Double reads as ICU does")
        #expect(strings.localizedString("files", arguments: ["1.0", "A"]) == "1 files in A")
        #expect(strings.localizedString("files", arguments: [Int64(7), "A"]) == "7 files in A")
    }

    @Test func widthAndDeviceOptionsPickTheirTexts() {
        let (phone, _) = client(language: "en")
        #expect(phone.localizedString("label", arguments: [0, 0]) == "Click on this button")
        #expect(phone.localizedString("label", arguments: [0, 0], width: 10) == "Click here")
        let (tablet, _) = client(language: "en", device: "ipad")
        #expect(tablet.localizedString("label", arguments: [0, 0], width: 1) == "Tap here")
        // Without arguments a rule reads as its plain text.
        #expect(phone.localizedString("label") == "Click here")
    }

    @Test func aRuleThatCannotBeFormattedFallsBackToItsPlainText() {
        let (strings, _) = client(language: "en")
        #expect(strings.localizedString("broken", arguments: [1]) == "1 thing")
        // 5 is `other` in English, which the rule lacks.
        #expect(strings.localizedString("broken", arguments: [5]) == "5 things")
    }

    @Test func reloadsReplaceRulesAndTellHooks() throws {
        let (strings, transport) = client(language: "en")
        let recorder = ChangeRecorder()
        let token = recorder.record(strings)
        defer { token.cancel() }
        let edited = Self.rule("%#@n@ in %@", [("n", Self.plural([("one", "one file"), ("other", "%d files")]))])
        // The plain text is the same: only the rule changed.
        transport.emit(.reload(changes: [ChangePayload(
            language: LanguageTag("en")!, table: "Localizable", file: "en.lproj/Localizable.stringsdict", kind: .updated,
            changed: [("files", "%d files in %@")], rules: [("files", edited)])]), seq: 2)
        #expect(strings.localizedString("files", arguments: [1, "A"]) == "one file in A")
        #expect(recorder.take().map(\.keys) == [["Localizable": ["files"]]])
        // The key becomes a plain string: no rule any more.
        transport.emit(.reload(changes: [ChangePayload(
            language: LanguageTag("en")!, table: "Localizable", file: "en.lproj/Localizable.strings", kind: .updated,
            changed: [("files", "%d file(s) in %@")])]), seq: 3)
        #expect(strings.localizedString("files", arguments: [1, "A"]) == "1 file(s) in A")
        #expect(recorder.take().count == 1)
    }
}
