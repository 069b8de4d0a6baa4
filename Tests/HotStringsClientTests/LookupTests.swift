import Foundation
import Testing
@testable import HotStringsClient

/// Lookups through the fallback chain, the missing-key rules and formatting, on a mirror fed by hand.
struct LookupTests {
    struct ChainCase: CustomTestStringConvertible, Sendable {
        var environment: String?
        var selected: String?
        var override: String?
        var key: String
        var expected: String
        var testDescription: String {
            "env \(environment ?? "-") selected \(selected ?? "-") override \(override ?? "-"): \(key)"
        }
    }

    static let chainCases: [ChainCase] = [
        // A regional tag, its parent, the development language, Base, then the key itself.
        ChainCase(environment: "de_CH.UTF-8", key: "greeting", expected: "Grüezi"),
        ChainCase(environment: "de_CH.UTF-8", key: "only.de", expected: "D"),
        ChainCase(environment: "de_CH.UTF-8", key: "only.en", expected: "E"),
        ChainCase(environment: "de_CH.UTF-8", key: "only.base", expected: "B"),
        ChainCase(environment: "de_CH.UTF-8", key: "only.fr", expected: "only.fr"),
        // The selected app language beats the environment and is the whole preference.
        ChainCase(environment: "de_CH.UTF-8", selected: "fr", key: "greeting", expected: "Bonjour"),
        ChainCase(environment: "de_CH.UTF-8", selected: "fr", key: "only.de", expected: "only.de"),
        ChainCase(environment: "de_CH.UTF-8", selected: "fr", key: "only.en", expected: "E"),
        // The override comes first, then the selected language, then the development language.
        ChainCase(selected: "fr", override: "de-CH", key: "greeting", expected: "Grüezi"),
        ChainCase(selected: "fr", override: "de-CH", key: "only.de", expected: "D"),
        ChainCase(selected: "fr", override: "de-CH", key: "only.fr", expected: "F"),
        ChainCase(selected: "fr", override: "de_ch", key: "greeting", expected: "Grüezi"),
        // A language the bundle lacks falls through to the next preference.
        ChainCase(environment: "it:de", key: "greeting", expected: "Hallo"),
        ChainCase(environment: "zh_Hans_CN", key: "greeting", expected: "你好"),
        ChainCase(environment: "zh_Hans_CN", key: "only.en", expected: "E"),
        // No preference at all: the development language, then Base.
        ChainCase(key: "greeting", expected: "Hello"),
        ChainCase(environment: "C", key: "greeting", expected: "Hello"),
        ChainCase(key: "only.base", expected: "B"),
    ]

    @Test(arguments: chainCases)
    func fallbackChain(_ testCase: ChainCase) {
        var environment: [String: String] = [:]
        if let language = testCase.environment {
            environment[language.contains(":") ? "LANGUAGE" : "LANG"] = language
        }
        let (strings, transport) = makeClient(environment: environment)
        transport.connect(selected: testCase.selected)
        if let override = testCase.override { strings.overrideLanguage(override) }
        #expect(strings.localizedString(testCase.key) == testCase.expected)
    }

    @Test func tablesAreSeparate() {
        let (strings, transport) = makeClient(environment: ["LANG": "fr_FR.UTF-8"])
        transport.connect()
        #expect(strings.localizedString("CFBundleName", table: "InfoPlist") == "Démo")
        #expect(strings.localizedString("CFBundleName") == "CFBundleName")
        #expect(strings.localizedString("greeting", table: "InfoPlist") == "greeting")
    }

    @Test(arguments: [
        (String?.none, "missing"), ("", "missing"), ("Fallback", "Fallback"),
    ])
    func aMissingKeyGivesTheValueElseTheKey(value: String?, expected: String) {
        let (strings, transport) = makeClient()
        transport.connect()
        #expect(strings.localizedString("missing", value: value) == expected)
        #expect(strings.localizedString("greeting", value: value) == "Hello")
    }

    @Test func beforeAnySnapshotEveryLookupGivesItsKeyOrValue() {
        let (strings, _) = makeClient()
        #expect(strings.localizedString("greeting") == "greeting")
        #expect(strings.localizedString("greeting", value: "Hi") == "Hi")
        #expect(!strings.isSynchronized)
    }

    @Test(arguments: [
        ("en", "Ana sent you 3 messages"),
        ("de", "Ana hat dir 3 Nachrichten geschickt"),
        ("fr", "3 messages de la part de Ana"),
    ])
    func positionalArguments(language: String, expected: String) {
        let (strings, transport) = makeClient(environment: ["LANG": language])
        transport.connect()
        #expect(strings.format("messages.received", "Ana", 3) == expected)
        #expect(strings.localizedString("messages.received", arguments: ["Ana", 3]) == expected)
    }

    @Test func formattingAMissingKeyFormatsTheKey() {
        let (strings, transport) = makeClient()
        transport.connect()
        #expect(strings.format("%d files", 4) == "4 files")
        #expect(strings.localizedString("%@ and %@", table: "Other", arguments: ["a", "b"]) == "a and b")
    }
}
