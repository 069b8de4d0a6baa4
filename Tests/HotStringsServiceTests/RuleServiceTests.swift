import BundleChanges
import HotStringsProtocol
import HotStringsService
import StringsFormat
import StringsStore
import Testing

/// `get`, `table` and snapshots carry a key's format rule beside its plain text.
@Suite struct RuleServiceTests {
    static let stringsdict = #"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict>"#
        + "<key>files</key><dict><key>NSStringLocalizedFormatKey</key><string>%#@n@</string>"
        + "<key>n</key><dict><key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>"
        + "<key>NSStringFormatValueTypeKey</key><string>d</string>"
        + "<key>one</key><string>%d file</string><key>other</key><string>%d files</string></dict></dict>"
        + "</dict></plist>"
    static let rule: JSONValue = .object([
        ("NSStringLocalizedFormatKey", "%#@n@"),
        ("n", .object([("NSStringFormatSpecTypeKey", "NSStringPluralRuleType"), ("NSStringFormatValueTypeKey", "d"),
                       ("one", "%d file"), ("other", "%d files")])),
    ])

    func fixtureWithRules() async throws -> ServiceFixture {
        let fixture = ServiceFixture()
        try await fixture.scan()
        let english = try #require(LanguageTag("en"))
        let rules = TableContent(rules: try StringsdictFile.parse(text: Self.stringsdict))
        _ = await fixture.store.apply(ChangeBatch(updates: [TableUpdate(
            id: TableID(language: english, table: "Localizable"), file: "en.lproj/Localizable.stringsdict",
            content: .parsed(rules))]))
        return fixture
    }

    @Test func getAnswersTheRuleAndItsLanguage() async throws {
        let fixture = try await fixtureWithRules()
        let answer = try await fixture.answer(.get(key: "files", table: "Localizable", languages: ["de"]))
        #expect(answer["value"] == .string("%d files") && answer["language"] == .string("en"))
        #expect(answer["rule"] == Self.rule)
        let plain = try await fixture.answer(.get(key: "greeting", table: "Localizable", languages: ["de"]))
        #expect(plain["rule"] == nil)
    }

    @Test func tableAndSnapshotCarryTheRules() async throws {
        let fixture = try await fixtureWithRules()
        let table = try await fixture.answer(.table(language: "en", table: "Localizable"))
        #expect(table["entries"] == .object([("greeting", "Hello!"), ("farewell", "Bye"), ("files", "%d files")]))
        #expect(table["rules"] == .object([("files", Self.rule)]))
        let outputs = await fixture.send(.subscribe(Subscription(languages: ["en"], tables: ["Localizable"])))
        guard case .snapshot(let tables)? = outputs.last?.delivered?.event.event else {
            throw Unexpected(description: "no snapshot")
        }
        #expect(tables.count == 1)
        #expect(JSONValue.object(tables[0].rules) == .object([("files", Self.rule)]))
        #expect(tables[0].entries.last.map { "\($0.0)=\($0.1)" } == "files=%d files")
    }
}
