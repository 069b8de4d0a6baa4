import Foundation
import HotStringsClient
import HotStringsTestSupport
import LinuxSystem

/// `hotstrings-bench edit`: a `set` through the daemon until a subscriber has read its reload, against an editor's
/// atomic save of the same file in the same run.
struct EditSuite: BenchmarkSuite {
    static let name = "edit"
    static let abstract = "set -> subscriber latency vs an editor's atomic save of the same file"
    static let help = """
        USAGE: swift run -c release hotstrings-bench edit [--rounds N]

        Starts a real `hotstrings serve` on a temporary bundle (a 100-key English table). Each round, interleaved:
        an editor's atomic save of en.lproj/Localizable.strings with one value changed (the text made before the
        clock starts), until a subscriber in this process has read the reload; then a `set` of one key on another
        connection (the daemon reads the file, edits the value's bytes, writes a temporary file, fsyncs and renames
        it, and the watcher serves the rename), until the subscriber has read that reload. Prints both and the
        ratio of their medians: what the write-back adds to a save is its read, its fsync and its request.

        OPTIONS:
          --rounds N       saves and sets to time (default 300)
        """

    static func run(arguments: [String]) throws -> Int32 {
        var options = OptionReader(arguments)
        let rounds = try options.positiveInteger("--rounds") ?? 300
        try options.finish()
        Signals.ignore(.pipe)
        let daemon = try Daemon.start()
        defer { daemon.stop() }
        let subscriber = try LineConnection(path: daemon.socket)
        try subscriber.send(#"{"id":1,"op":"subscribe","snapshot":false,"languages":["en"]}"#)
        _ = try subscriber.readLine()
        let setter = try LineConnection(path: daemon.socket)
        var saves: [Double] = []
        var sets: [Double] = []
        for round in 1...rounds {
            let text = Daemon.table(round)
            let saveStart = ContinuousClock.now
            try daemon.bundle.atomicallyReplace("en.lproj/Localizable.strings", with: text)
            try readReload(subscriber)
            saves.append((ContinuousClock.now - saveStart).seconds)

            let request = #"{"id":\#(round),"op":"set","key":"key.7","value":"set in round \#(round)","language":"en"}"#
            let setStart = ContinuousClock.now
            try setter.send(request)
            try readReload(subscriber)
            sets.append((ContinuousClock.now - setStart).seconds)
            try setter.readSuccess("the set")
        }
        print("until a subscriber has read the reload, \(rounds) rounds, across processes (ms)")
        print("  " + ["", "p50", "p90", "p99"].map { Format.cell($0, 10, right: true) }.joined())
        for (label, samples) in [("save", saves), ("set", sets)] {
            let row = [0.5, 0.9, 0.99].map {
                Format.cell(String(format: "%.3f", WatchSuite.percentile(samples, $0) * 1e3), 10, right: true)
            }
            print("  " + Format.cell(label, 10) + row.joined())
        }
        let ratio = WatchSuite.percentile(sets, 0.5) / WatchSuite.percentile(saves, 0.5)
        print(String(format: "  set / save, p50: %.2fx", ratio))
        return 0
    }

    /// Reads lines until a `reload` event.
    private static func readReload(_ connection: LineConnection) throws {
        while true {
            let line = try connection.readLine()
            if line.starts(with: Array(#"{"event":"reload""#.utf8)) { return }
        }
    }
}
