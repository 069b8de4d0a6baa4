import HotStringsProtocol
import StringsFormat
import Testing

/// Format rules ride beside the plain entries, so a client that reads only `entries` keeps working.
@Suite struct RulePayloadTests {
    static let rule: JSONValue = .object([
        ("NSStringLocalizedFormatKey", "%#@n@"),
        ("n", .object([("NSStringFormatSpecTypeKey", "NSStringPluralRuleType"), ("one", "%d file"),
                       ("other", "%d files")])),
    ])

    @Test func snapshotsAndReloadsCarryRulesAndReadThemBack() throws {
        let tables = [TablePayload(language: LanguageTag("en")!, table: "L", file: "en.lproj/L.stringsdict",
                                   entries: [("files", "%d files")], rules: [("files", Self.rule)])]
        let snapshot = EventEncoder.encode(.snapshot(tables: tables), epoch: 1, seq: 2)
        #expect(try ServerEventTests.typed(snapshot) == .snapshot(tables: tables))
        let changes = [ChangePayload(language: LanguageTag("en")!, table: "L", file: "f", kind: .updated,
                                     changed: [("files", "%d files")], rules: [("files", Self.rule)])]
        let reload = EventEncoder.encode(.reload(changes: changes), epoch: 1, seq: 3)
        #expect(try ServerEventTests.typed(reload) == .reload(changes: changes))
        // The plain text is where an older client looks for it.
        let body = try #require(String(decoding: snapshot, as: UTF8.self).split(separator: "\n").first)
        #expect(body.contains(#""entries":{"files":"%d files"},"rules":{"files":{"NSStringLocalizedFormatKey""#))
    }

    @Test func tablesWithoutRulesAreWrittenAsBefore() {
        let table = TablePayload(language: LanguageTag("de")!, table: "L", file: "f", entries: [("a", "b")])
        #expect(String(decoding: EventEncoder.encode(.snapshot(tables: [table]), epoch: 1, seq: 2), as: UTF8.self)
            == #"{"event":"snapshot","epoch":1,"seq":2,"tables":[{"language":"de","table":"L","file":"f","entries":{"a":"b"}}]}"#
            + "\n")
    }

    @Test(arguments: [JSONValue.array([]), .object([("k", "not an object")]), .string("x")])
    func rulesThatAreNotObjectsOfObjectsAreMalformed(rules: JSONValue) {
        let body: JSONValue = ["tables": [.object([("language", "de"), ("table", "L"), ("file", "f"),
                                                   ("entries", .object([])), ("rules", rules)])]]
        #expect {
            try ServerEvent(name: "snapshot", body: body)
        } throws: { error in
            (error as? MalformedMessage)?.description.contains("rules must be an object of objects") == true
        }
    }
}
