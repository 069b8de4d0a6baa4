import HotStringsProtocol
import StringsFormat
import Testing
@testable import HotStringsCLI

/// `subscribe --format text`: each event line as readable text.
struct ClientTextTests {
    @Test(arguments: [
        (#"{"event":"snapshot","epoch":1,"seq":0,"tables":[{"language":"de","table":"L","file":"de.lproj/L.strings","#
            + #""entries":{}},{"language":"fr","table":"L","file":"fr.lproj/L.strings","entries":{"a":"b"}}]}"#,
         ["snapshot: 2 tables"]),
        (#"{"event":"snapshot","epoch":1,"seq":0,"tables":[{"language":"de","table":"L","file":"f","entries":{}}]}"#,
         ["snapshot: 1 table"]),
        (#"{"event":"reload","epoch":1,"seq":3,"changes":[{"language":"de","table":"Localizable","#
            + #""file":"de.lproj/Localizable.strings","kind":"updated","added":{"new":"neu"},"#
            + #""changed":{"greeting":"Hallo"},"removed":["old"]}]}"#,
         ["reload de/Localizable: ~greeting +new -old"]),
        (#"{"event":"reload","epoch":1,"seq":3,"changes":[{"language":"fr","table":"Extra","file":"f","#
            + #""kind":"created","added":{"a":"1","b c":"2"},"changed":{},"removed":[]},{"language":"Base","#
            + #""table":"Old","file":"g","kind":"deleted","added":{},"changed":{},"removed":["x"]}]}"#,
         ["reload fr/Extra (created): +a +\"b c\"", "reload Base/Old (deleted): -x"]),
        (#"{"event":"reload","epoch":1,"seq":3,"changes":[{"language":"de","table":"T","file":"f","#
            + #""kind":"updated","added":{},"changed":{},"removed":[]}]}"#,
         ["reload de/T: no keys"]),
        (#"{"event":"error","epoch":1,"seq":4,"file":"de.lproj/Localizable.strings","line":3,"column":1,"#
            + #""message":"missing ';'"}"#,
         ["error de.lproj/Localizable.strings:3:1: missing ';'"]),
        (#"{"event":"error","epoch":1,"seq":4,"file":"de.lproj","line":null,"column":null,"#
            + #""message":"permission denied"}"#,
         ["error de.lproj: permission denied"]),
        (#"{"event":"language","epoch":1,"seq":5,"language":"fr","previous":"de"}"#, ["language fr (was de)"]),
        (#"{"event":"language","epoch":1,"seq":5,"language":null,"previous":"fr"}"#, ["language none (was fr)"]),
        (#"{"event":"resync","epoch":1,"seq":6,"reason":"overflow"}"#, ["resync overflow"]),
        (#"{"event":"future","epoch":1,"seq":7,"detail":[1,2]}"#, [#"future {"detail":[1,2]}"#]),
        ("not json", ["not json"]),
        // Names from the bundle are shown escaped: an escape sequence in a table name, a newline in a file name.
        (#"{"event":"reload","epoch":1,"seq":3,"changes":[{"language":"de","table":"Red\u001b[31m","file":"f","#
            + #""kind":"updated","added":{},"changed":{},"removed":["k"]}]}"#,
         [#"reload de/Red\u{1B}[31m: -k"#]),
        (#"{"event":"error","epoch":1,"seq":4,"file":"de.lproj/Evil\nhotstrings: info: FORGED.strings","#
            + #""line":1,"column":2,"message":"expected '='"}"#,
         [#"error de.lproj/Evil\nhotstrings: info: FORGED.strings:1:2: expected '='"#]),
        ("not json\u{1B}[2J", [#"not json\u{1B}[2J"#]),
    ])
    func eventsReadAsOneLinePerTableOrEvent(line: String, expected: [String]) {
        #expect(ClientText.event(line: Array(line.utf8)) == expected)
    }

    @Test func aReloadNamesAtMostTheKeyLimitAndCountsTheRest() {
        let removed = (1...25).map { "\"k\($0)\"" }.joined(separator: ",")
        let line = #"{"event":"reload","epoch":1,"seq":1,"changes":[{"language":"de","table":"T","file":"f","#
            + #""kind":"updated","added":{},"changed":{},"removed":[\#(removed)]}]}"#
        let text = ClientText.event(line: Array(line.utf8))
        #expect(text == ["reload de/T: " + (1...20).map { "-k\($0)" }.joined(separator: " ") + " … 5 more"])
    }

    @Test(arguments: [
        ("greeting", "greeting"), ("welcome.title", "welcome.title"), ("Grüße", "Grüße"),
        ("two words", "\"two words\""), ("", "\"\""), ("line\nbreak", "\"line\\nbreak\""),
        ("say \"hi\"", "\"say \\\"hi\\\"\""),
    ])
    func keysAreQuotedOnlyWhenTheyWouldBeAmbiguous(key: String, expected: String) {
        #expect(ClientText.key(key) == expected)
    }

    @Test func languagesShowTableNamesEscaped() throws {
        let result = #"{"languages":[{"language":"de","tables":{"Red\u001b[31m":1}}],"selected":null,"#
            + #""developmentLanguage":"en"}"#
        let members = try #require(try JSONValue(parsing: Array(result.utf8)).objectMembers)
        #expect(ClientText.languages(try LanguagesAnswer(AnswerFields(members))) == "de  Red\\u{1B}[31m 1 key\n")
    }

    /// A `status` answer as a daemon writes it, with `release` and `pull` as given.
    static func status(release: String, pull: String) throws -> StatusAnswer {
        let text = #"{"root":"/srv/b","rootPresent":true,"watchedDirectories":3,"files":2,"tables":2,"subscribers":1,"#
            + #""connections":1,"lastErrors":[],"uptime":1.5,"epoch":5,"seq":9,"release":\#(release),"#
            + #""releaseInfo":null,"readOnly":null,"pull":\#(pull),"missing":{"missing":0,"fallback":0,"dropped":0,"#
            + #""droppedByClients":0},"web":null}"#
        return try StatusAnswer(AnswerFields(try #require(try JSONValue(parsing: Array(text.utf8)).objectMembers)))
    }

    @Test func statusShowsTheReleaseAndThePullWithTheErrorEscaped() throws {
        let pull = #"{"url":"http://o/manifest.json","interval":0.5,"state":"waiting","#
            + #""lastPull":"2026-12-03T14:06:02.114Z","result":"failed","error":{"file":"fr.lproj/Evil\nX.strings","#
            + #""line":2,"column":7,"message":"release not installed: \u001b[2J"},"failures":3,"#
            + #""lastSuccess":"2026-12-03T14:04:14.833Z","nextPull":"2026-12-03T14:06:05.001Z"}"#
        let text = ClientText.status(try Self.status(release: #""20261203T140411Z-bcb152c3e54a""#, pull: pull))
        #expect(text == """
            root                 /srv/b
            watched directories  3
            files                2
            tables               2
            subscribers          1
            connections          1
            uptime               1.5 s
            epoch                5
            seq                  9
            release              20261203T140411Z-bcb152c3e54a
            pull                 http://o/manifest.json every 0.5 s
            last pull            2026-12-03T14:06:02.114Z failed (3 in a row): fr.lproj/Evil\\nX.strings:2:7: release \
            not installed: \\u{1B}[2J
            last success         2026-12-03T14:04:14.833Z
            next pull            2026-12-03T14:06:05.001Z
            missing keys         0 missing, 0 fallback
            last errors          none

            """, "\(text)")
        let pulling = #"{"url":"http://o/manifest.json","interval":30,"state":"pulling","lastPull":null,"#
            + #""result":null,"error":null,"failures":0,"lastSuccess":null,"nextPull":null}"#
        let first = ClientText.status(try Self.status(release: "null", pull: pulling))
        #expect(first.contains("last pull            none yet\n"), "\(first)")
        #expect(first.contains("next pull            pulling now\n"), "\(first)")
        #expect(first.contains("every 30 s") && !first.contains("release"), "\(first)")
    }
}
