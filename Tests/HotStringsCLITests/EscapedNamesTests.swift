import Foundation
import HotStringsTestSupport
import HotStringsTestTraits
import Testing

/// Names from the bundle reach the daemon's log and the commands' text output only escaped (issue 10, finding 7):
/// a file name holding a newline cannot forge a log line, a table name holding an escape sequence cannot drive
/// the terminal.
@Suite(.needsHotstringsBinary)
struct EscapedNamesTests {
    static let forged = "Evil\nhotstrings: info: FORGED"
    static let red = "Red\u{1B}[31m"

    @Test func theDaemonLogAndTheTextOutputShowNamesEscaped() throws {
        let served = try ServedBundle()
        try served.save("\"broken\" = ", to: "de.lproj/\(Self.forged).strings")
        try served.save("\"a\" = \"b\";\n", to: "de.lproj/\(Self.red).strings")
        try waitUntil("the daemon logs the broken file") { served.daemon.log.contains("FORGED") }
        try waitUntil("the red table is served") {
            try served.run(["languages", "--json"]).stdout.contains(#"Red\u001b[31m"#)
        }

        let log = served.daemon.log
        #expect(!log.split(separator: "\n").contains { $0.hasPrefix("hotstrings: info: FORGED") }, "log: \(log)")
        #expect(log.contains(#"hotstrings: warning: de.lproj/Evil\nhotstrings: info: FORGED.strings:1:"#), "\(log)")

        let languages = try served.run(["languages"])
        #expect(languages.code == 0)
        #expect(!languages.stdout.contains("\u{1B}"), "\(languages.stdout)")
        #expect(languages.stdout.contains(#"Red\u{1B}[31m 1 key"#), "\(languages.stdout)")

        let status = try served.run(["status"])
        #expect(status.code == 0)
        #expect(!status.stdout.split(separator: "\n").contains { $0.hasPrefix("hotstrings: info: FORGED") })
        #expect(status.stdout.contains(#"de.lproj/Evil\nhotstrings: info: FORGED.strings:1:"#), "\(status.stdout)")
        #expect(try served.stop() == 0)
    }
}
