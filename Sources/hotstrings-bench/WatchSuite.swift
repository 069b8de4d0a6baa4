import BundleChanges
import BundleWatcher
import Foundation
import HotStringsService
import HotStringsTestSupport
import LinuxSystem
import StringsFormat
import StringsStore
import Synchronization

/// `hotstrings-bench watch`: from an atomic save to a reload event in the process, against a bare inotify read.
struct WatchSuite: BenchmarkSuite {
    static let name = "watch"
    static let abstract = "watcher latency vs a bare inotify read, cold start vs parse, store memory, idle CPU"
    static let help = """
        USAGE: swift run -c release hotstrings-bench watch [--saves N] [--swaps N] [--catalog-saves N]
                   [--write-rate N] [--write-seconds S] [--idle-seconds S] [--corpus DIR]
               swift run -c release hotstrings-bench watch --languages N
               swift run -c release hotstrings-bench watch --cold-start [--corpus DIR]

        Latency: a file of the bundle is atomically replaced (written beside it, renamed over it) N times;
        each time, the time until the store has produced the reload event, with default watcher settings,
        next to the floor measured in the same run, interleaved: the same rename in another folder seen by
        a bare inotify read. Release swap: `..data` renamed to point at another release of 300 tables (the old
        one kept) until the reload, next to a single-file save in the same bundle. In-place writer: one table
        rewritten in place (open with O_TRUNC, write, close) 1,000 times a second for 5 s; every reload the store
        publishes is checked to be one complete version, and the time from the last write to the reload of the
        last version is shown next to the single save's p50. Catalog save: IceCubesApp's String Catalog (2 MB,
        19 languages) saved with one German value changed, until the reload, next to a single-file save in the
        same bundle, interleaved. Cold start: watcher scan + parse + store apply of
        element-ios against parsing the same files alone. Memory: the store's resident growth against the bytes on
        disk. Idle: the process's CPU time while nothing changes.

        OPTIONS:
          --saves N          atomic saves to time (default 500)
          --swaps N          release swaps to time (default 50)
          --catalog-saves N  catalog saves to time (default 50)
          --write-rate N     in-place writes per second (default 1000)
          --write-seconds S  how long the in-place writer writes (default 5)
          --idle-seconds S   how long to measure idle CPU (default 60)
          --corpus DIR       the corpus folder (default: as for the parse suite)
          --cold-start       only the cold start (to profile it)
          --languages N      only this: a release adding N languages installed into a watched bundle (the
                             release store's order: release folder renamed in, a link per language, `..data`
                             swapped) until the store serves all N, next to a cold start (scan + parse + store)
                             on the same bundle; bar: served at most 3x a cold start after the swap (the
                             install's own steps, the file system's time, are shown apart)
        """

    static func run(arguments: [String]) throws -> Int32 {
        var options = OptionReader(arguments)
        let saves = try options.positiveInteger("--saves") ?? 500
        let idleSeconds = try options.positiveInteger("--idle-seconds") ?? 60
        let swaps = try options.positiveInteger("--swaps") ?? 50
        let catalogSaves = try options.positiveInteger("--catalog-saves") ?? 50
        let writeRate = try options.positiveInteger("--write-rate") ?? 1000
        let writeSeconds = try options.positiveInteger("--write-seconds") ?? 5
        let corpus = ParseInputs.corpusDirectory(option: try options.value("--corpus"))
        let languages = try options.positiveInteger("--languages")
        let isColdStartOnly = options.flag("--cold-start")
        try options.finish()
        Signals.ignore(.pipe)
        if let languages { return try runManyLanguages(languages) }
        if isColdStartOnly { return try runColdStart(corpus: corpus) ? 0 : 1 }

        let latency = try WatchLatency.measure(saves: saves)
        print("atomic save -> reload event in process, \(saves) saves, default settings (ms)")
        print("  " + ["", "p50", "p90", "p99"].map { Format.cell($0, 10, right: true) }.joined())
        for (label, samples) in [("floor", latency.floor), ("watcher", latency.watcher)] {
            let row = [0.5, 0.9, 0.99].map { Format.cell(String(format: "%.3f", percentile(samples, $0) * 1e3), 10, right: true) }
            print("  " + Format.cell(label, 10) + row.joined())
        }
        let p99Gap = (percentile(latency.watcher, 0.99) - percentile(latency.floor, 0.99)) * 1e3
        let p50Gap = (percentile(latency.watcher, 0.5) - percentile(latency.floor, 0.5)) * 1e3
        print(String(format: "  above the floor: p50 +%.3f ms, p99 +%.3f ms", p50Gap, p99Gap))

        var passes = p99Gap <= 2
        let writer = try InPlaceWriter.measure(rate: writeRate, seconds: writeSeconds)
        print("in-place writer (open O_TRUNC, write, close) at \(writeRate) writes/s for \(writeSeconds) s, "
              + "\(InPlaceWriter.keys) keys per version")
        print("  \(writer.writes) writes, \(writer.reloads) reloads published, \(writer.incomplete) not one complete "
              + "version (must be 0)")
        if let delay = writer.finalDelay {
            print(String(format: "  last write -> reload of the last version %.3f ms: ", delay * 1e3)
                  + Format.ratio(delay / percentile(latency.watcher, 0.5)) + " the single save's p50")
        } else {
            print("  the last version was never published (waited 5 s)")
        }
        passes = passes && writer.incomplete == 0 && writer.finalDelay != nil
        let release = try ReleaseSwapLatency.measure(swaps: swaps)
        let files = ReleaseSwapLatency.languages.count * ReleaseSwapLatency.tablesPerLanguage
        print("release swap (..data renamed to a release of \(files) tables, old release kept) -> reload, "
              + "\(swaps) swaps, next to a single-file save in the same bundle (ms)")
        print("  " + ["", "p50", "p90", "p99"].map { Format.cell($0, 10, right: true) }.joined())
        for (label, samples) in [("save", release.save), ("swap", release.swap)] {
            let row = [0.5, 0.9, 0.99].map { Format.cell(String(format: "%.3f", percentile(samples, $0) * 1e3), 10, right: true) }
            print("  " + Format.cell(label, 10) + row.joined())
        }
        print("  swap / save at p50: " + Format.ratio(percentile(release.swap, 0.5) / percentile(release.save, 0.5))
              + String(format: " (%.1f us per table)", percentile(release.swap, 0.5) * 1e6 / Double(files)))
        if let catalog = try CatalogSaveLatency.measure(saves: catalogSaves, corpus: corpus) {
            print("save of IceCubesApp's catalog (\(Format.megabytes(catalog.bytes))) -> reload, \(catalogSaves) saves, "
                  + "next to a single-file .strings save in the same bundle (ms)")
            print("  " + ["", "p50", "p90", "p99"].map { Format.cell($0, 10, right: true) }.joined())
            for (label, samples) in [("strings", catalog.strings), ("catalog", catalog.catalog)] {
                let row = [0.5, 0.9, 0.99].map {
                    Format.cell(String(format: "%.3f", percentile(samples, $0) * 1e3), 10, right: true)
                }
                print("  " + Format.cell(label, 10) + row.joined())
            }
            print("  catalog / strings at p50: "
                  + Format.ratio(percentile(catalog.catalog, 0.5) / percentile(catalog.strings, 0.5))
                  + " with the writing, "
                  + Format.ratio(percentile(catalog.catalogFromRename, 0.5) / percentile(catalog.stringsFromRename, 0.5))
                  + " from the rename (`hotstrings-bench catalog` has the details)")
        } else {
            print("catalog save: skipped, no IceCubesApp catalog under \(corpus ?? "?")")
        }
        passes = try runColdStart(corpus: corpus) && passes

        if let idle = try IdleCPU.measure(seconds: idleSeconds) {
            print(String(format: "idle: `hotstrings watch` used %.0f ms of CPU time in %d s on a quiet bundle (10 ms ticks)",
                         idle * 1e3, idleSeconds))
        } else {
            print("idle: skipped, no hotstrings binary next to this benchmark (swift build -c release first)")
        }
        print("bar p99 within 2 ms of the floor: \(p99Gap <= 2 ? "PASS" : "FAIL")")
        return passes ? 0 : 1
    }

    /// The cold start of element-ios against parsing its files alone; whether it is within the bar (true when the
    /// corpus is missing: skipped).
    static func runColdStart(corpus: String?) throws -> Bool {
        guard let root = corpus.map({ $0 + "/element-ios/Riot/Assets" }), FileManager.default.fileExists(atPath: root)
        else {
            print("cold start: skipped, no corpus at \(corpus ?? "?")/element-ios")
            return true
        }
        let cold = try ColdStart.measure(root: root)
        print("cold start of element-ios (\(cold.files) files, \(Format.megabytes(cold.bytes)), \(cold.keys) keys)")
        print(String(format: "  parse alone %.1f ms, watcher scan + parse + store %.1f ms: %.2fx",
                     cold.parseSeconds * 1e3, cold.startSeconds * 1e3, cold.startSeconds / cold.parseSeconds))
        print(String(format: "  of which until the watcher hands on its scan (list, watch, read, parse) %.1f ms, the "
                     + "store's apply %.1f ms (medians)", cold.scanSeconds * 1e3, cold.applySeconds * 1e3))
        print("  store resident growth on first load (upper bound) \(Format.megabytes(cold.storeBytes)) for "
              + "\(Format.megabytes(cold.bytes)) on disk: " + Format.ratio(Double(cold.storeBytes) / Double(cold.bytes)))
        let passes = cold.startSeconds <= 1.3 * cold.parseSeconds
        print("  bar cold start <= 1.3x parse: \(passes ? "PASS" : "FAIL")")
        return passes
    }

    /// `watch --languages N`: the install of a release of N new languages against a cold start on it.
    static func runManyLanguages(_ count: Int) throws -> Int32 {
        let figures = try ManyLanguagesInstall.measure(languages: count)
        let ratio = figures.afterSwapSeconds / figures.coldStartSeconds
        print("release of \(count) new languages (a link each, then the ..data swap) -> all served, next to a cold "
              + "start (scan + parse + store) on the same bundle")
        print(String(format: "  the install's own steps (rename, links, swap) %.1f ms; served %.1f ms after them "
                     + "(%.1f ms in all)", figures.stepsSeconds * 1e3, figures.afterSwapSeconds * 1e3,
                     figures.installSeconds * 1e3))
        print(String(format: "  cold start %.1f ms (median of 3); served after the swap: ", figures.coldStartSeconds * 1e3)
              + Format.ratio(ratio) + " the cold start")
        print("  bar served after the swap <= 3x cold start: \(ratio <= 3 ? "PASS" : "FAIL")")
        return ratio <= 3 ? 0 : 1
    }

    static func percentile(_ samples: [Double], _ fraction: Double) -> Double {
        let sorted = samples.sorted()
        return sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
    }
}

/// A temporary bundle folder, removed when done.
struct TemporaryBundle {
    let root: String

    init(tables: [String: String]) throws {
        root = NSTemporaryDirectory() + "hotstrings-bench-\(UUID().uuidString)"
        for (relativePath, text) in tables {
            let path = root + "/" + relativePath
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true
            )
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        }
    }

    /// Writes `text` beside `relativePath` and renames it over, as editors save.
    func atomicallyReplace(_ relativePath: String, with text: String) throws {
        let path = root + "/" + relativePath
        let temporary = (path as NSString).deletingLastPathComponent + "/.save-\(UUID().uuidString)"
        try Data(text.utf8).write(to: URL(fileURLWithPath: temporary))
        guard rename(temporary, path) == 0 else { throw CocoaError(.fileWriteUnknown) }
    }

    func remove() { try? FileManager.default.removeItem(atPath: root) }
}

enum WatchLatency {
    static func measure(saves: Int) throws -> (floor: [Double], watcher: [Double]) {
        func table(_ round: Int) -> String {
            (0..<100).map { "\"key.\($0)\" = \"Value \($0) in round \(round)\";" }.joined(separator: "\n")
        }
        let bundle = try TemporaryBundle(tables: ["en.lproj/Localizable.strings": table(0)])
        let floorFolder = try TemporaryBundle(tables: ["x/Localizable.strings": table(0)])
        defer {
            bundle.remove()
            floorFolder.remove()
        }
        // The floor: a bare inotify read of the same kind of rename, in a folder the watcher does not see.
        let inotify = try Inotify()
        let poller = try Poller()
        try poller.add(inotify.fileDescriptor)
        _ = try inotify.addWatch(floorFolder.root + "/x", mask: [.movedTo, .closeWrite])

        let watched = try WatchedStore(root: bundle.root)
        var floor: [Double] = []
        var watchedTimes: [Double] = []
        for round in 1...saves {
            let text = table(round)
            let floorStart = ContinuousClock.now
            try floorFolder.atomicallyReplace("x/Localizable.strings", with: text)
            waitForMove: while true {
                _ = try poller.wait(timeout: .seconds(5))
                for event in try inotify.readEvents() where event.mask.contains(.movedTo) { break waitForMove }
            }
            floor.append((ContinuousClock.now - floorStart).seconds)

            watchedTimes.append(try watched.secondsUntilReload {
                try bundle.atomicallyReplace("en.lproj/Localizable.strings", with: text)
            })
        }
        watched.stop()
        inotify.close()
        poller.close()
        return (floor, watchedTimes)
    }
}

/// When reload events came out of the store, for the benchmark's thread to wait on.
final class ArrivalLog: Sendable {
    private let arrivals = Mutex<[ContinuousClock.Instant]>([])
    private let signal = DispatchSemaphore(value: 0)

    func record() {
        let now = ContinuousClock.now
        arrivals.withLock { $0.append(now) }
        signal.signal()
    }

    func wait(timeout: Duration) -> ContinuousClock.Instant? {
        guard signal.wait(timeout: .now() + timeout.seconds) == .success else { return nil }
        return arrivals.withLock { $0.removeFirst() }
    }
}

enum ColdStart {
    struct Figures {
        var files = 0, bytes = 0, keys = 0
        var parseSeconds = 0.0, startSeconds = 0.0
        /// Of `startSeconds`: until the watcher handed on its full scan (scan, read, parse), and the store's apply.
        var scanSeconds = 0.0, applySeconds = 0.0
        var storeBytes = 0
    }

    /// Parsing alone and the cold start are timed in turns (a parse, then a start, seven times, the first of each
    /// dropped), so that a machine whose load changes during the run weighs on both alike.
    static func measure(root: String) throws -> Figures {
        var figures = Figures()
        let paths = try FileManager.default.subpathsOfDirectory(atPath: root)
            .filter { $0.hasSuffix(".strings") && $0.split(separator: "/").count == 2 }.sorted()
        let contents = try paths.map { Array(try Data(contentsOf: URL(fileURLWithPath: root + "/" + $0))) }
        figures.files = paths.count
        figures.bytes = contents.reduce(0) { $0 + $1.count }

        var parses: [Double] = []
        var starts: [Double] = []
        var scans: [Double] = []
        var applies: [Double] = []
        for round in 0..<7 {
            let parseStart = ContinuousClock.now
            var keys = 0
            for bytes in contents { keys += (try? StringsFile.parse(bytes).count) ?? 0 }
            figures.keys = keys
            let parsed = (ContinuousClock.now - parseStart).seconds

            let before = try ProcessMemory.current().residentBytes
            let done = DispatchSemaphore(value: 0)
            let holder = StoreHolder()
            let scanned = Mutex<ContinuousClock.Instant?>(nil)
            let start = ContinuousClock.now
            let watcher = try BundleWatcher(root: root)
            watcher.start { batch in
                guard batch.isFullScan else { return }
                scanned.withLock { $0 = .now }
                Task {
                    _ = await holder.store.apply(batch)
                    done.signal()
                }
            }
            done.wait()
            let end = ContinuousClock.now
            watcher.stop()
            if round > 0 {  // the first round warms the page cache and the runtime
                parses.append(parsed)
                starts.append((end - start).seconds)
                let handedOn = scanned.withLock { $0 } ?? end
                scans.append((handedOn - start).seconds)
                applies.append((end - handedOn).seconds)
            }
            // The first load's growth is the store plus whatever the runtime set up on first use: an upper bound.
            if round == 0 { figures.storeBytes = try ProcessMemory.current().residentBytes - before }
            withExtendedLifetime(holder) {}
        }
        figures.parseSeconds = Measure.median(parses)
        figures.startSeconds = Measure.median(starts)
        figures.scanSeconds = Measure.median(scans)
        figures.applySeconds = Measure.median(applies)
        return figures
    }
}

final class StoreHolder: Sendable {
    let store = StringsStore()
}

enum IdleCPU {
    /// CPU seconds a real `hotstrings watch` process (built next to this benchmark) used over `seconds`
    /// of a quiet bundle, from its `/proc/<pid>/stat` (user + system ticks), measured after its first
    /// snapshot; `nil` when the binary is not there.
    static func measure(seconds: Int) throws -> Double? {
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("hotstrings")
        guard FileManager.default.isExecutableFile(atPath: executable.path) else { return nil }
        let bundle = try TemporaryBundle(tables: ["en.lproj/Localizable.strings": "\"a\" = \"b\";"])
        defer { bundle.remove() }
        var configuration = ChildProcess.Configuration(executable.path, ["watch", bundle.root])
        configuration.standardError = .null
        let process = try ChildProcess(configuration)
        defer {
            try? process.send(.terminate)
            _ = process.waitForExit()
        }
        // The first line is the snapshot: the scan is done and the watcher waits for the kernel.
        let output = PipeReader(process.standardOutput!)
        guard (try? output.wait(untilContains: "\n", timeout: .seconds(60))) != nil else { return nil }
        let before = try cpuTicks(of: process.pid)
        Thread.sleep(forTimeInterval: Double(seconds))  // the benchmark's subject is this idle period itself
        let after = try cpuTicks(of: process.pid)
        return Double(after - before) / 100  // USER_HZ is 100 on Linux
    }

    /// utime + stime of a process, in clock ticks (fields 14 and 15 of /proc/<pid>/stat).
    private static func cpuTicks(of pid: Int32) throws -> Int {
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        // The command name (field 2) may hold spaces; fields are counted after its closing parenthesis.
        guard let close = stat.lastIndex(of: ")") else { return 0 }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        return (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0)
    }
}
