import Foundation
import HotStringsProtocol
import StringsFormat
import Testing
@testable import HotStringsClient

/// `localizedString(_:arguments:)` formats plain values and rules with the bounded formatter, never Foundation's
/// `String(format:)`, which a translation `%*d` given 2147483647 crashes (issue 20, finding 6).
struct FormattingBoundsTests {
    func client() -> LiveStrings {
        let transport = FakeTransport()
        let strings = LiveStrings(transport: transport, configuration: .init(environment: ["LANG": "en"]))
        transport.emit(.connected)
        transport.emit(.snapshot(tables: [TablePayload(
            language: LanguageTag("en")!, table: "Localizable", file: "en.lproj/Localizable.stringsdict",
            entries: [("star", "[%*d]"), ("rule", "[%*d]"), ("missing", "%d and %d")],
            rules: [("rule", PluralLookupTests.rule("%#@n@", [("n", PluralLookupTests.plural([("other", "[%*d]")]))]))]
        )]), seq: 1)
        transport.emit(.serverInfo(ServerInfo(languages: ["en"], selectedLanguage: nil, developmentLanguage: "en")))
        return strings
    }

    @Test(arguments: ["star", "rule"])
    func starWidthsAreBounded(key: String) {
        let strings = client()
        // A rule's variable takes the first argument; its `*` the next, its `%d` the variable's own.
        let value: (any CVarArg, any CVarArg) -> [any CVarArg] = key == "rule" ? { [$1, $0] } : { [$0, $1] }
        #expect(strings.localizedString(key, arguments: value(Int.max, 7)) == "[7]")
        #expect(strings.localizedString(key, arguments: value(4_294_967_296, 7)) == "[7]")
        #expect(strings.localizedString(key, arguments: value(-5, 7)) == "[7    ]")
        #expect(strings.localizedString(key, arguments: value(Int.min, 7)) == "[7]")
        #expect(strings.localizedString(key, arguments: value(Int(Int32.max), 7)).utf8.count == 1_000_002)
    }

    @Test func aPlainValueThatCannotBeFormattedIsReturnedAsItIs() {
        #expect(client().localizedString("missing", arguments: [1]) == "%d and %d")
    }
}
