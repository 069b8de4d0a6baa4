import Foundation
import HotStringsTestTraits
import Testing

/// The client commands' command lines, help and behaviour without a daemon.
struct ClientUsageTests {
    static let commands: [[String]] = [
        ["subscribe"], ["get", "greeting"], ["table", "de"], ["languages"], ["select-language", "fr"], ["status"],
    ]

    @Test(arguments: [
        (["get"], "missing argument <key>"),
        (["get", "a", "--width", "wide"], "--width takes a whole number at least 0, not 'wide'"),
        (["get", "a", "--language", ","], "--language takes a comma-separated list of languages, not ','"),
        (["get", "a", "--table", ""], "--table takes a name, not an empty value"),
        (["get", "a", "--timeout", "0"], "--timeout takes a duration more than 0 and at most 24h, not '0'"),
        (["get", "a", "--timeout", "soon"],
         "--timeout takes a duration such as 50ms, 1.5s or 2m (a plain number is seconds), not 'soon'"),
        (["get", "a", "--timeout", "2 fortnights"],
         "--timeout: unknown unit 'fortnights' in '2 fortnights': use ns, us, ms, s, m or h (a plain number is "
            + "seconds)"),
        (["get", "a", "--socket="], "--socket takes a path, not an empty value"),
        (["table"], "missing argument <language>"),
        (["languages", "de"], "languages takes LANGUAGE arguments only with --resolve"),
        (["languages", "--resolve", "fr!"], "'fr!' is not a language tag"),
        (["languages", "--accept", "de;q=2"],
         "invalid Accept-Language: 'de;q=2': the weight must be q= and a number from 0 to 1 with at most three decimals"),
        (["languages", "--accept", "de", "--resolve"], "--accept and --resolve cannot be used together"),
        (["status", "--verbose"], "unknown option '--verbose'"),
        (["select-language"], "missing argument <language> (or --clear)"),
        (["select-language", "fr", "--clear"], "give a language or --clear, not both"),
        (["subscribe", "--format", "xml"], "--format takes json or text, not 'xml'"),
        (["subscribe", "--tables", ""], "--tables takes a comma-separated list of tables, not ''"),
        (["subscribe", "--languages", "de", "--languages", " , "],
         "--languages takes a comma-separated list of languages, not ' , '"),
        (["subscribe", "--no-snapshot=yes"], "option '--no-snapshot' does not take a value"),
    ])
    func usageErrorsExit64WithTheUsage(arguments: [String], message: String) {
        let result = run(arguments)
        #expect(result.code == 64)
        #expect(result.stdout.isEmpty)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.first == "hotstrings \(arguments[0]): error: \(message)")
        #expect(lines.dropFirst().first?.hasPrefix("USAGE: hotstrings \(arguments[0]) ") == true)
        #expect(lines.last == "See 'hotstrings help \(arguments[0])' for more.")
    }

    @Test(arguments: commands)
    func helpNamesTheSocketOptionAndEveryExitCode(arguments: [String]) {
        let result = run([arguments[0], "--help"])
        #expect(result.code == 0)
        #expect(result.stdout.contains("--socket <path>"))
        for code in ["0", "1", "2", "3", "64"] {
            #expect(result.stdout.contains("\n  \(code) "), "exit code \(code) in \(arguments[0]) --help")
        }
        #expect(run(["--help"]).stdout.contains("\n  \(arguments[0]) "))
    }

    @Test(.needsHotstringsBinary, arguments: commands)
    func withoutADaemonEveryCommandExitsTwoWithAHint(arguments: [String]) throws {
        let socket = FileManager.default.temporaryDirectory.appendingPathComponent("hs-none-\(UUID()).sock").path
        let explicit = try runToEnd(arguments + ["--socket", socket])
        #expect(explicit.code == 2)
        #expect(explicit.stdout.isEmpty)
        #expect(explicit.stderr == """
            hotstrings \(arguments[0]): error: cannot connect to \(socket): No such file or directory (ENOENT)
            hint: start the daemon with: hotstrings serve --socket \(socket) <bundle>

            """)
        // From the environment the daemon finds the same path by itself: the hint leaves --socket out.
        let fromEnvironment = try runToEnd(arguments, environment: ["HOTSTRINGS_SOCKET": socket])
        #expect(fromEnvironment.code == 2)
        #expect(fromEnvironment.stderr.hasSuffix("\nhint: start the daemon with: hotstrings serve <bundle>\n"))
        #expect(fromEnvironment.stderr.contains("cannot connect to \(socket): "))
    }
}
