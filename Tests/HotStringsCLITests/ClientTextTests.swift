import HotStringsProtocol
import StringsFormat
import Testing
@testable import HotStringsCLI

/// `subscribe --format text`: each event line as readable text.
struct ClientTextTests {
    @Test(arguments: [
        (#"{"event":"snapshot","epoch":1,"seq":0,"tables":[{"language":"de"},{"language":"fr"}]}"#,
         ["snapshot: 2 tables"]),
        (#"{"event":"snapshot","epoch":1,"seq":0,"tables":[{"language":"de"}]}"#, ["snapshot: 1 table"]),
        (#"{"event":"reload","epoch":1,"seq":3,"changes":[{"language":"de","table":"Localizable","#
            + #""file":"de.lproj/Localizable.strings","kind":"updated","added":{"new":"neu"},"#
            + #""changed":{"greeting":"Hallo"},"removed":["old"]}]}"#,
         ["reload de/Localizable: ~greeting +new -old"]),
        (#"{"event":"reload","epoch":1,"seq":3,"changes":[{"language":"fr","table":"Extra","kind":"created","#
            + #""added":{"a":"1","b c":"2"},"changed":{},"removed":[]},{"language":"Base","table":"Old","#
            + #""kind":"deleted","added":{},"changed":{},"removed":["x"]}]}"#,
         ["reload fr/Extra (created): +a +\"b c\"", "reload Base/Old (deleted): -x"]),
        (#"{"event":"reload","epoch":1,"seq":3,"changes":[{"language":"de","table":"T","kind":"updated","#
            + #""added":{},"changed":{},"removed":[]}]}"#,
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
        (#"{"event":"reload","epoch":1,"seq":3,"changes":[{"language":"de","table":"Red\u001b[31m","#
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
        let line = #"{"event":"reload","epoch":1,"seq":1,"changes":[{"language":"de","table":"T","kind":"updated","#
            + #""added":{},"changed":{},"removed":[\#(removed)]}]}"#
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
        let value = try JSONValue(parsing: Array(result.utf8))
        #expect(ClientText.languages(value) == "de  Red\\u{1B}[31m 1 key\n")
    }

    @Test func statusShowsTheReleaseAndThePullWithTheErrorEscaped() throws {
        let result = #"{"root":"/srv/b","release":"20261203T140411Z-bcb152c3e54a","pull":{"#
            + #""url":"http://o/manifest.json","interval":0.5,"state":"waiting","#
            + #""lastPull":"2026-12-03T14:06:02.114Z","result":"failed","error":{"file":"fr.lproj/Evil\nX.strings","#
            + #""line":2,"column":7,"message":"release not installed: \u001b[2J"},"failures":3,"#
            + #""lastSuccess":"2026-12-03T14:04:14.833Z","nextPull":"2026-12-03T14:06:05.001Z"},"lastErrors":[]}"#
        let text = ClientText.status(try JSONValue(parsing: Array(result.utf8)))
        #expect(text == """
            root          /srv/b
            release       20261203T140411Z-bcb152c3e54a
            pull          http://o/manifest.json every 0.5 s
            last pull     2026-12-03T14:06:02.114Z failed (3 in a row): fr.lproj/Evil\\nX.strings:2:7: release not \
            installed: \\u{1B}[2J
            last success  2026-12-03T14:04:14.833Z
            next pull     2026-12-03T14:06:05.001Z
            last errors   none

            """, "\(text)")
        let pulling = #"{"pull":{"url":"http://o/manifest.json","interval":30,"state":"pulling","lastPull":null,"#
            + #""result":null,"error":null,"failures":0,"lastSuccess":null,"nextPull":null},"release":null}"#
        let first = ClientText.status(try JSONValue(parsing: Array(pulling.utf8)))
        #expect(first.contains("last pull    none yet\n") && first.contains("next pull    pulling now\n"), "\(first)")
        #expect(first.contains("every 30 s") && !first.contains("release"), "\(first)")
    }
}
