import Foundation
import HotStringsTestSupport
import HotStringsTestTraits
import Testing

/// README's "A ten-line tour", run as written: its lines are read from README.md, `/tmp/tour` is a folder of the
/// test's own and `swift run hotstrings` the built binary; the daemon and the subscriber run as the tour's
/// terminals 1 and 2, and each `get` prints what the tour's comment says it prints.
@Suite struct ReadmeTourTests {
    /// The commands of the tour's code block, each with its comment.
    static func tour() throws -> [(command: String, comment: String)] {
        let readme = try String(contentsOf: repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false)
        let heading = try #require(lines.firstIndex { $0 == "## A ten-line tour" })
        let start = try #require(lines[heading...].firstIndex { $0.hasPrefix("```") })
        return lines[(start + 1)...].prefix { !$0.hasPrefix("```") }.map { line in
            let parts = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
            return (parts[0].trimmingCharacters(in: .whitespaces),
                    parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : "")
        }
    }

    /// What each `get` of the tour prints, which its comment must say too.
    static let printed = [
        "get greeting --language de-CH": "Hallo!",
        "get items.count 0 --language fr": "0 élément",
        "get greeting -l en-XA": "[Ĥéļļö¡ one two]",
    ]

    @Test(.needsHotstringsBinary) func theTourPrintsWhatItSays() throws {
        let sandbox = try Sandbox()
        let tour = sandbox.root + "/tour"
        let environment: [String: String?] = [
            "HOTSTRINGS_SOCKET": sandbox.root + "/tour.sock", "XDG_STATE_HOME": sandbox.root + "/state",
        ]
        var daemon: HotstringsProcess?
        var subscriber: HotstringsProcess?
        defer {
            _ = subscriber?.terminate()
            _ = daemon?.terminate()
        }
        var ran: [String] = []
        for (line, comment) in try Self.tour() {
            let command = line.replacingOccurrences(of: "/tmp/tour", with: tour)
            guard command.hasPrefix("swift run hotstrings ") else {
                // `cp -r sample-bundle …` and the `sed -i` of a translation, from the repository's root.
                let run = try ProcessRun.tool("/bin/sh", ["-c", command], in: repositoryRoot.path)
                #expect(run.code == 0, "\(line): \(run.stderr)")
                if command.hasPrefix("sed ") {
                    try waitUntil("terminal 2's reload of \(line)") {
                        subscriber?.stdout.text.contains("reload fr/Localizable") == true
                    }
                }
                ran.append(line)
                continue
            }
            let arguments = command.dropFirst("swift run hotstrings ".count).split(separator: " ").map(String.init)
            #expect(!command.contains("'") && !command.contains("\""), "\(line): quoting is not read here")
            switch arguments[0] {
            case "serve":
                let started = try HotstringsProcess(arguments, environment: environment)
                daemon = started
                try waitUntil("terminal 1's daemon to serve") { started.errorText.contains("serving ") }
            case "subscribe":
                let started = try HotstringsProcess(arguments, environment: environment)
                subscriber = started
                try started.stdout.wait(untilContains: "snapshot")
            case "demo":
                // A full-screen app that runs until Ctrl-C: its one frame, as `--once` draws it.
                let run = try HotstringsProcess.run(arguments + ["--once"], environment: environment)
                #expect(run.code == 0 && run.stdout.contains("Salut"), "\(line): \(run.stdout) \(run.stderr)")
            default:
                let run = try HotstringsProcess.run(arguments, environment: environment)
                #expect(run.code == 0, "\(line): \(run.stderr)")
                if let expected = Self.printed[arguments.joined(separator: " ")] {
                    #expect(run.stdout == expected + "\n", "\(line)")
                    #expect(comment.contains(expected), "README's comment on '\(line)' does not say \(expected)")
                }
            }
            ran.append(line)
        }
        #expect(ran.count == 11, "\(ran)")
        #expect(Set(Self.printed.keys).isSubset(of: ran.map {
            $0.replacingOccurrences(of: "swift run hotstrings ", with: "") }), "\(ran)")
    }
}
