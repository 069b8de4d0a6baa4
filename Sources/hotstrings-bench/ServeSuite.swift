import Foundation
import HotStringsClient
import HotStringsTestSupport
import LinuxSystem

/// `hotstrings-bench serve`: the daemon end to end, across processes, against a bare relay.
struct ServeSuite: BenchmarkSuite {
    static let name = "serve"
    static let abstract = "daemon: save-to-subscriber latency vs a bare inotify + socket relay, fan-out, memory, get/s"
    static let help = """
        USAGE: swift run -c release hotstrings-bench serve [--saves N] [--fan-out N,N] [--gets N] [--bulk-saves N]

        Starts a real `hotstrings serve` (built next to this benchmark) on a temporary bundle with default
        settings. Latency: an atomic save until a subscriber in this process has read the reload line, N
        times, next to the floor measured in the same run, interleaved: the same rename seen by a bare
        inotify read in a relay thread that writes one line to a Unix socket this process reads. Fan-out:
        one save until the last of N subscribers has read it (median of 11 saves), against a bare relay that starts
        from the same kind of save (an inotify watch on a table in a folder the daemon does not watch, then the same
        line written to as many sockets with the daemon's calls), its saves interleaved with the daemon's (in blocks of
        three, each side connecting anew, when this process cannot hold both sides' sockets at once), and each side's
        processor time per save, which the machine's load does not change. Memory: the daemon's resident growth per
        idle subscriber. Fairness: a `get` round trip while two other clients pipeline `table` requests for a
        2,000-key table, against the idle `get`. get: sequential round trips per second on one connection.
        Bulk saves: five tables saved one after the other as a tool does (rsync's receiver: a hidden temporary file
        written, then renamed over the table, no fsync; the time between renames is shown); the subscriber counts the
        reloads naming them (a marker table saved once the first reload is read ends the count): each must be one. The
        saves that split are named by number: the first is a tool's first bulk save, before the watcher has seen it
        write several files (a single save's read ahead cannot know a second file is coming).

        OPTIONS:
          --saves N        atomic saves to time (default 500)
          --fan-out LIST   subscriber counts (default 1000,10000)
          --gets N         get requests to time (default 20000)
          --bulk-saves N   bulk saves (5 files in a row, each written beside and renamed over) whose reloads are
                           counted, each must be one (default 50)
        """

    static func run(arguments: [String]) throws -> Int32 {
        var options = OptionReader(arguments)
        let saves = try options.positiveInteger("--saves") ?? 500
        let fanOuts = try (options.value("--fan-out") ?? "1000,10000").split(separator: ",").compactMap { Int($0) }
        let gets = try options.positiveInteger("--gets") ?? 20_000
        let bulkSaves = try options.positiveInteger("--bulk-saves") ?? 50
        try options.finish()
        Signals.ignore(.pipe)
        ResourceLimits.raiseOpenFiles()

        let daemon = try Daemon.start()
        defer { daemon.stop() }
        var passes = true

        let latency = try ServeLatency.measure(daemon: daemon, saves: saves)
        print("atomic save -> subscriber has read the reload, \(saves) saves, across processes (ms)")
        print("  " + ["", "p50", "p90", "p99"].map { Format.cell($0, 10, right: true) }.joined())
        for (label, samples) in [("floor", latency.floor), ("daemon", latency.daemon)] {
            let row = [0.5, 0.9, 0.99].map {
                Format.cell(String(format: "%.3f", WatchSuite.percentile(samples, $0) * 1e3), 10, right: true)
            }
            print("  " + Format.cell(label, 10) + row.joined())
        }
        let p50 = (WatchSuite.percentile(latency.daemon, 0.5) - WatchSuite.percentile(latency.floor, 0.5)) * 1e3
        let p99 = (WatchSuite.percentile(latency.daemon, 0.99) - WatchSuite.percentile(latency.floor, 0.99)) * 1e3
        print(String(format: "  above the floor: p50 +%.3f ms, p99 +%.3f ms", p50, p99))
        let bulk = try BulkSaves.measure(daemon: daemon, rounds: bulkSaves)
        print("  bulk saves of \(Daemon.bulkTables.count) files each: \(bulk.rounds) saves, \(bulk.reloads) reloads "
              + "naming their files (\(bulk.split.count) saves split into more than one"
              + (bulk.split.isEmpty ? "" : ": save " + bulk.split.map(String.init).joined(separator: ", "))
              + "); the writer's time from one file's rename "
              + String(format: "to the next: p50 %.3f ms, max %.3f ms", WatchSuite.percentile(bulk.gaps, 0.5) * 1e3,
                       (bulk.gaps.max() ?? 0) * 1e3))
        let isAtFloor = p50 <= 0.3 && p99 <= 1 && bulk.split.isEmpty
        print("  bar p50 <= 0.3 ms and p99 <= 1 ms above the floor, each bulk save one reload: "
              + (isAtFloor ? "PASS" : "FAIL"))
        passes = passes && isAtFloor

        for count in fanOuts {
            passes = try FanOut.run(daemon: daemon, subscribers: count) && passes
        }
        passes = try FairnessBenchmark.run(daemon: daemon) && passes

        let rate = try GetRate.measure(daemon: daemon, requests: gets)
        print(String(format: "get: %.0f round trips per second on one connection", rate))
        return passes ? 0 : 1
    }
}

/// A `hotstrings serve` child process on a temporary bundle, started by the launcher the tests use.
final class Daemon {
    let bundle: TemporaryBundle
    let socket: String
    private let launched: DaemonProcess

    static func table(_ round: Int) -> String {
        (0..<100).map { "\"key.\($0)\" = \"Value \($0) in round \(round)\";" }.joined(separator: "\n")
    }

    /// The table the fairness figure's floods ask for (never saved, so it is in no event).
    static let largeTable = "Large"
    static let largeTableKeys = 2_000
    /// The tables a bulk save writes together, and the marker saved after it (`BulkSaves`).
    static let bulkTables = (1...5).map { "en.lproj/Bulk\($0).strings" }
    static let markerTable = "en.lproj/Marker.strings"

    private init(bundle: TemporaryBundle, launched: DaemonProcess) {
        self.bundle = bundle
        self.launched = launched
        socket = launched.socket
    }

    static func start() throws -> Daemon {
        let bundle = try TemporaryBundle(tables: [
            "en.lproj/Localizable.strings": table(0), "de.lproj/Localizable.strings": table(0),
            "de.lproj/\(largeTable).strings": ClientFixture.large(round: 0, keys: largeTableKeys),
        ].merging((bulkTables + [markerTable]).map { ($0, table(0)) }) { $1 })
        let launched = try launch(bundle: bundle.root)
        return Daemon(bundle: bundle, launched: launched)
    }

    /// Starts `hotstrings serve` (built next to this benchmark) on `bundle`, with its socket and state inside
    /// it and only warnings logged (and `arguments`), and waits until it listens.
    static func launch(bundle: String, arguments: [String] = []) throws -> DaemonProcess {
        guard hotstringsExecutable != nil else {
            throw UsageError(
                "no hotstrings binary next to \(CommandLine.arguments[0]): run swift build -c release first")
        }
        let launched = try DaemonProcess(
            bundle: bundle, socket: bundle + "/.hotstrings.sock", stateDirectory: bundle + "/.state",
            arguments: ["--log-level", "warning"] + arguments
        )
        do {
            try launched.waitUntilListening()
        } catch {
            throw UsageError("\(error)")
        }
        return launched
    }

    func stop() {
        _ = try? launched.terminate()
        bundle.remove()
    }

    var residentBytes: Int { launched.residentBytes }

    /// The daemon's process ID.
    var pid: Int32 { launched.pid }
}

extension LineConnection {
    /// Sends `line` and a newline, waiting as long as the daemon takes to read it.
    func send(_ line: String) throws {
        queue(bytes: Array((line + "\n").utf8))
        try send(timeout: .seconds(3600))
    }

    /// The next line, waiting as long as it takes.
    func readLine() throws -> [UInt8] {
        guard case .line(let line) = try nextLine(timeout: nil) else {
            throw UsageError("the daemon closed the connection")
        }
        return line
    }
}

extension UsageError: CustomStringConvertible {
    var description: String { message }
}

enum ServeLatency {
    static func measure(daemon: Daemon, saves: Int) throws -> (floor: [Double], daemon: [Double]) {
        let subscriber = try LineConnection(path: daemon.socket)
        try subscriber.send(#"{"id":1,"op":"subscribe","snapshot":false,"languages":["en"]}"#)
        _ = try subscriber.readLine()
        let relay = try Relay()
        defer { relay.stop() }
        var floor: [Double] = []
        var measured: [Double] = []
        for round in 1...saves {
            let text = Daemon.table(round)
            let floorStart = ContinuousClock.now
            try relay.folder.atomicallyReplace("x/Localizable.strings", with: text)
            _ = try relay.reader.readLine()
            floor.append((ContinuousClock.now - floorStart).seconds)

            let start = ContinuousClock.now
            try daemon.bundle.atomicallyReplace("en.lproj/Localizable.strings", with: text)
            while true {
                let line = try subscriber.readLine()
                if line.starts(with: Array(#"{"event":"reload""#.utf8)) { break }
            }
            measured.append((ContinuousClock.now - start).seconds)
        }
        return (floor, measured)
    }
}

/// Bulk saves against one subscriber: how many reloads name the bulk's tables, per save.
enum BulkSaves {
    static func measure(daemon: Daemon, rounds: Int)
        throws -> (rounds: Int, reloads: Int, split: [Int], gaps: [Double])
    {
        let subscriber = try LineConnection(path: daemon.socket)
        try subscriber.send(#"{"id":1,"op":"subscribe","snapshot":false,"languages":["en"]}"#)
        _ = try subscriber.readLine()
        let reload = Array(#"{"event":"reload""#.utf8)
        func names(_ line: [UInt8], _ table: String) -> Bool {
            String(decoding: line, as: UTF8.self).contains(#""file":"\#(table)""#)
        }
        var reloads = 0
        var split: [Int] = []
        var gaps: [Double] = []
        // Each file's path and its temporary file's, made once before the saves, as a tool has its list of files
        // ready: the first use of the string functions that make them would otherwise stall the first save's writer
        // between its files.
        let files = Daemon.bulkTables.map { table in
            let path = daemon.bundle.root + "/" + table
            return (path: path, temporary: path.replacingOccurrences(of: "/Bulk", with: "/.Bulk") + ".tmp")
        }
        for round in 1...rounds {
            var last: ContinuousClock.Instant?
            let text = Array(Daemon.table(round).utf8)
            for (path, temporary) in files {
                // As a tool writes (rsync's receiver: a hidden temporary file, then a rename), one file after another.
                try FileSystem.writeFile(text, toPath: temporary)
                try FileSystem.rename(temporary, to: path)
                let now = ContinuousClock.now
                if let last { gaps.append((now - last).seconds) }
                last = now
            }
            var counted = 0
            var isMarkerSaved = false
            while true {
                let line = try subscriber.readLine()
                guard line.starts(with: reload) else { continue }
                if Daemon.bulkTables.contains(where: { names(line, $0) }) { counted += 1 }
                if names(line, Daemon.markerTable) { break }
                if !isMarkerSaved {
                    // After the first reload is read: the marker cannot join the bulk save's first batch.
                    try daemon.bundle.atomicallyReplace(Daemon.markerTable, with: Daemon.table(round))
                    isMarkerSaved = true
                }
            }
            reloads += counted
            if counted != 1 { split.append(round) }
        }
        return (rounds, reloads, split, gaps)
    }
}

/// The floor: a thread that reads inotify and writes one line to a Unix socket per rename.
final class Relay {
    let folder: TemporaryBundle
    let reader: LineConnection
    private let thread: Thread
    private let stopping = Poller.StopFlag()

    init() throws {
        folder = try TemporaryBundle(tables: ["x/Localizable.strings": Daemon.table(0)])
        let path = folder.root + "/relay.sock"
        let listener = try UnixSocket.listen(atPath: path)
        let inotify = try Inotify()
        _ = try inotify.addWatch(folder.root + "/x", mask: [.movedTo])
        let poller = try Poller()
        try poller.add(inotify.fileDescriptor)
        try poller.add(listener)
        let flag = stopping
        thread = Thread {
            var client: Int32 = -1
            while !flag.isSet {
                guard let ready = try? poller.wait(timeout: .milliseconds(100)) else { break }
                if ready.contains(listener), client < 0, let accepted = try? UnixSocket.accept(listener) {
                    client = accepted
                }
                if ready.contains(inotify.fileDescriptor) {
                    let events = (try? inotify.readEvents()) ?? []
                    for _ in events where client >= 0 {
                        _ = Array("x\n".utf8).withUnsafeBytes { try? SocketIO.write(client, $0) }
                    }
                }
            }
            SocketIO.close(client)
            SocketIO.close(listener)
            inotify.close()
            poller.close()
        }
        thread.start()
        reader = try LineConnection(path: path)
    }

    func stop() {
        stopping.set()
        folder.remove()
    }
}

extension Poller {
    /// A flag a benchmark thread checks between waits.
    final class StopFlag: @unchecked Sendable {
        // @unchecked: a Bool read and written only through the lock below.
        private let lock = NSLock()
        private var value = false
        var isSet: Bool { lock.withLock { value } }
        func set() { lock.withLock { value = true } }
    }
}

enum GetRate {
    static func measure(daemon: Daemon, requests: Int) throws -> Double {
        let connection = try LineConnection(path: daemon.socket)
        let start = ContinuousClock.now
        for index in 0..<requests {
            try connection.send(#"{"id":\#(index),"op":"get","key":"key.7","language":"de-CH"}"#)
            _ = try connection.readLine()
        }
        return Double(requests) / (ContinuousClock.now - start).seconds
    }
}
