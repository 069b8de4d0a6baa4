import Foundation
import HotStringsClient
import HotStringsProtocol
import HotStringsTestSupport
import LinuxSystem

/// `hotstrings-bench specifiers`: what reading and judging format specifiers costs where it runs: lookups with
/// arguments and plural formatting through `LiveStrings`, `set` through the daemon, and `lint` of the shared corpus.
///
/// Built from public and long-standing API only (`LiveStrings`, the daemon launcher, `set`, the `hotstrings`
/// binary), so that `scripts/bench-specifiers.py` builds the same suite against an earlier revision of the
/// library and runs both interleaved: each figure as a ratio to the build before, in one run.
struct SpecifierSuite: BenchmarkSuite {
    static let name = "specifiers"
    static let abstract = "specifiers: lookups with arguments, plural formatting, set, lint of the corpus"
    static let help = """
        USAGE: swift run -c release hotstrings-bench specifiers [--formats N] [--sets N] [--lints N]
                                                               [--corpus PATH] [--tsv]

        Starts a real `hotstrings serve` (built next to this benchmark) on a temporary bundle (English and German
        Localizable.strings and .stringsdict) and a LiveStrings client in English connected to it, and times:
        - lookups with arguments: `localizedString(key, arguments:)` of plain values `%d items`,
          `%1$@ sent you %2$d messages` and `%.1f km`;
        - plural formatting: `%#@items@` and `%1$@ sent you %2$#@messages@` (.stringsdict rules);
        each N times per round (n cycling through 0..1023), the cases interleaved, median of 5 rounds;
        - set: a German value (`%d Einträge`) and a German plural form, through the daemon's socket, from the
          request to its answer (the daemon reads the file, checks the specifiers, writes, fsyncs, renames),
          alternating two values, N each, median;
        - lint: `hotstrings lint -q` of the shared corpus (every value, form and variation of every language
          judged against English), as a process, median of --lints runs.
        Prints seconds per operation; with --tsv, one `name<TAB>seconds` line each (what
        scripts/bench-specifiers.py reads to compare two builds).

        OPTIONS:
          --formats N   lookups per case and round (default 200000)
          --sets N      sets of each kind (default 100)
          --lints N     lints of the corpus (default 3; 0 skips them)
          --corpus PATH the shared corpus (default ../shared/corpus beside the repository)
          --tsv         machine-readable output
        """

    static let english = """
        "items.plain" = "%d items";
        "pair" = "%1$@ sent you %2$d messages";
        "distance" = "%.1f km";

        """

    static let german = """
        "items.plain" = "%d Einträge";
        "pair" = "%2$d Nachrichten von %1$@";
        "distance" = "%.1f km";

        """

    static func run(arguments: [String]) throws -> Int32 {
        var options = OptionReader(arguments)
        let formats = try options.positiveInteger("--formats") ?? 200_000
        let sets = try options.positiveInteger("--sets") ?? 100
        let lintsText = try options.value("--lints") ?? "3"
        guard let lints = Int(lintsText), lints >= 0 else {
            throw UsageError("--lints needs a number, not '\(lintsText)'")
        }
        let corpus = try options.value("--corpus")
            ?? repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus").path
        let isTSV = options.flag("--tsv")
        try options.finish()
        Signals.ignore(.pipe)

        let bundle = try TemporaryBundle(tables: [
            "en.lproj/Localizable.strings": english,
            "en.lproj/Localizable.stringsdict": PluralSuite.stringsdict(round: 0),
            "de.lproj/Localizable.strings": german,
            "de.lproj/Localizable.stringsdict": PluralSuite.stringsdict(round: 0)
                .replacingOccurrences(of: "sent you", with: "hat dir"),
        ])
        defer { bundle.remove() }
        let daemon = try Daemon.launch(bundle: bundle.root)
        defer { _ = try? daemon.terminate() }
        let client = LiveStrings(configuration: LiveStrings.Configuration(
            socketPath: daemon.socket, clientName: "hotstrings-bench specifiers",
            environment: ["LANG": "en_US.UTF-8"]))
        defer { client.stop() }
        guard client.blockUntilSynchronized(timeout: .seconds(20)) else {
            throw UsageError("the client did not synchronize with the daemon at \(daemon.socket)")
        }
        let cases: [(name: String, expected: String, lookup: (Int) -> String)] = [
            ("lookup %d", "2 items", { client.localizedString("items.plain", arguments: [$0]) }),
            ("lookup %1$@ %2$d", "Ana sent you 2 messages",
             { client.localizedString("pair", arguments: ["Ana", $0]) }),
            ("lookup %.1f", "2.0 km", { client.localizedString("distance", arguments: [Double($0)]) }),
            ("plural %#@items@", "2 items", { client.localizedString("items.count", arguments: [$0]) }),
            ("plural %1$@ %2$#@m@", "Ana sent you 2 messages",
             { client.localizedString("messages.received", arguments: ["Ana", $0]) }),
        ]
        for (name, expected, lookup) in cases where lookup(2) != expected {
            throw UsageError("\(name) formats '\(lookup(2))', not '\(expected)'")
        }
        var rounds = [[Double]](repeating: [], count: cases.count)
        for _ in 0..<5 {
            for (index, lookup) in cases.map(\.lookup).enumerated() {
                rounds[index].append(secondsPerCall(formats, lookup))
            }
        }
        var results = zip(cases, rounds).map { ($0.name, Measure.median($1)) }
        results += try setTimes(socket: daemon.socket, count: sets)
        if lints > 0 {
            guard FileManager.default.fileExists(atPath: corpus) else {
                throw UsageError("no corpus at \(corpus) (--corpus PATH, or --lints 0)")
            }
            results.append(("lint corpus", try lintTime(corpus: corpus, count: lints)))
        }
        for (name, seconds) in results {
            if isTSV {
                print("\(name)\t\(seconds)")
            } else {
                let shown = seconds < 1e-5 ? String(format: "%.1f ns", seconds * 1e9)
                    : String(format: "%.3f ms", seconds * 1e3)
                print("  " + Format.cell(name, 24) + Format.cell(shown, 14, right: true))
            }
        }
        return 0
    }

    /// Seconds per call of `body` over `count` calls, `n` cycling through 0..1023 (`PluralSuite` times so too).
    static func secondsPerCall(_ count: Int, _ body: (Int) -> String) -> Double {
        var sink = 0
        let start = ContinuousClock.now
        for index in 0..<count { sink &+= body(index & 1023).utf8.count }
        let elapsed = (ContinuousClock.now - start).seconds
        if sink == 42 { print("") }  // keeps the results alive
        return elapsed / Double(count)
    }

    /// The median seconds from a `set` request to its answer: a value, and a plural form.
    private static func setTimes(socket: String, count: Int) throws -> [(String, Double)] {
        let connection = try LineConnection(path: socket)
        let requests: [(name: String, line: (Int) -> String)] = [
            ("set value", { round in
                #"{"id":\#(round),"op":"set","key":"items.plain","language":"de","#
                    + #""value":"%d \#(round % 2 == 0 ? "Einträge" : "Sachen")"}"#
            }),
            ("set form", { round in
                #"{"id":\#(round),"op":"set","key":"messages.received","form":"other","#
                    + #""value":"%d \#(round % 2 == 0 ? "Nachrichten" : "neue Nachrichten")","language":"de"}"#
            }),
        ]
        var times = [[Double]](repeating: [], count: requests.count)
        for round in 0..<count {
            for (index, request) in requests.enumerated() {
                let start = ContinuousClock.now
                try connection.send(request.line(round))
                let line = try connection.readLine()
                times[index].append((ContinuousClock.now - start).seconds)
                guard case .response(_, .success) = try ServerMessage.decode(line) else {
                    throw UsageError("\(request.name) refused: \(String(decoding: line, as: UTF8.self))")
                }
            }
        }
        return zip(requests, times).map { ($0.name, Measure.median($1)) }
    }

    /// The median seconds of `hotstrings lint -q CORPUS`, as a process.
    private static func lintTime(corpus: String, count: Int) throws -> Double {
        guard let executable = hotstringsExecutable?.path else {
            throw UsageError("no hotstrings binary next to \(CommandLine.arguments[0]): run swift build -c release")
        }
        var times: [Double] = []
        for _ in 0..<count {
            let start = ContinuousClock.now
            let run = try ProcessRun.tool(executable, ["lint", "-q", corpus], timeout: .seconds(600))
            times.append((ContinuousClock.now - start).seconds)
            guard run.stdout.contains(" keys, ") else { throw UsageError("lint printed no summary: \(run.stderr)") }
        }
        return Measure.median(times)
    }
}
