import Foundation
import HotStringsClient
import HotStringsTestSupport
import LinuxSystem
import StringsFormat
import Synchronization

/// `hotstrings-bench client`: `LiveStrings` lookups against Foundation's `Bundle`, and reader stalls during reloads.
struct ClientSuite: BenchmarkSuite {
    static let name = "client"
    static let abstract = "client: LiveStrings lookups/s and scaling on 1, 2, all threads vs Bundle; reader stalls"
    static let help = """
        USAGE: swift run -c release hotstrings-bench client [--lookups N] [--reloads N] [--large-keys N]
                                                           [--changed N] [--readers N] [--pin] [--corpus PATH]
                                                           [--memory-reloads N]

        Starts a real `hotstrings serve` (built next to this benchmark) on a temporary copy of sample-bundle,
        plus element-ios's de and en Vector.strings from the corpus when it is there (else a generated table of
        the same size), plus a generated de table `Large`, and a LiveStrings client in German connected to it.

        Lookups: the de keys of Localizable and Vector, looked up N times per thread through LiveStrings and
        through Foundation's Bundle(path: <bundle>/de.lproj).localizedString(forKey:value:table:) on the same
        files, on one thread, two and all processors, interleaved in the same run (median of 5), each thread on
        its own copies of the keys. Scaling: the total of n threads over one thread's, beside Bundle's. Bars:
        LiveStrings at least as fast per lookup; two threads at least 1.8x one.

        Stalls: reader threads loop over lookups (Vector and Large keys) and record the longest gap between
        two consecutive lookups (ContinuousClock), first while nothing changes (the floor), then from each
        atomic save of `Large` (every value changed, or --changed N) until the client's reload hook ran. The
        same loop over a private Dictionary (no lock, never reloaded) runs through the same kind of reloads
        first: the reference for what the machine's scheduler costs. Each gap is reported twice: on the wall
        clock, and less the time the reader sat runnable on a run queue meanwhile (/proc/thread-self/schedstat),
        which leaves what the lookup, a lock or the mirror cost the reader. Bar: the longest stall, less
        run-queue time, <= 1 ms; the wall-clock figures are printed beside it.

        Misses: the same lookups with every tenth key replaced by a key no table has (recorded for the daemon's
        `missing` list), against all hits, on one thread and all. Bar: the misses cost <= 1.10x per lookup.

        Memory: --memory-reloads more saves of Large (every value changed) while the reader threads keep looking
        keys up; the process's resident memory and live mirror snapshots after 10, half and all of them. Bar:
        flat memory, and no more snapshots alive than the current one plus one per reader thread.

        OPTIONS:
          --lookups N      lookups per thread per run (default 2000000)
          --reloads N      atomic saves of Large (default 40)
          --memory-reloads N  saves of Large while memory is watched (default 1000; 0 skips)
          --large-keys N   keys of Large (default 20000)
          --changed N      values each save of Large changes (default: all)
          --readers N      reader threads during reloads (default: cores - 1, at least 1)
          --pin            readers on the last processor; the daemon, the client's thread and the saving thread
                           on the others (a machine with a core to spare for the reader)
          --corpus PATH    the corpus folder (default $HOTSTRINGS_CORPUS, else ../shared/corpus)
        """

    static func run(arguments: [String]) throws -> Int32 {
        var options = OptionReader(arguments)
        let lookups = try options.positiveInteger("--lookups") ?? 2_000_000
        let reloads = try options.positiveInteger("--reloads") ?? 40
        let memoryText = try options.value("--memory-reloads") ?? "1000"
        guard let memoryReloads = Int(memoryText), memoryReloads >= 0 else {
            throw UsageError("--memory-reloads needs a non-negative integer, not '\(memoryText)'")
        }
        let largeKeys = try options.positiveInteger("--large-keys") ?? 20_000
        let changed = min(largeKeys, try options.positiveInteger("--changed") ?? largeKeys)
        let readers = try options.positiveInteger("--readers")
            ?? max(1, ProcessInfo.processInfo.activeProcessorCount - 1)
        let corpus = ParseInputs.corpusDirectory(option: try options.value("--corpus")) ?? "(none)"
        let processors = ProcessInfo.processInfo.activeProcessorCount
        let readerProcessor = options.flag("--pin") && processors > 1 ? processors - 1 : nil
        try options.finish()
        Signals.ignore(.pipe)

        let fixture = try ClientFixture(corpus: corpus, largeKeys: largeKeys)
        defer { fixture.bundle.remove() }
        // With --pin, the daemon (started from this thread) and the client's thread inherit the other processors.
        if readerProcessor != nil { try ThreadScheduling.pinCurrentThread(to: Array(0..<(processors - 1))) }
        let daemon = try Daemon.launch(bundle: fixture.bundle.root)
        defer { _ = try? daemon.terminate() }
        let strings = LiveStrings(configuration: LiveStrings.Configuration(
            socketPath: daemon.socket, clientName: "hotstrings-bench client",
            environment: ["LANGUAGE": "de", "LANG": "de_DE.UTF-8"]))
        defer { strings.stop() }
        if readerProcessor != nil { try ThreadScheduling.pinCurrentThread(to: Array(0..<processors)) }
        guard strings.blockUntilSynchronized(timeout: .seconds(20)) else {
            throw UsageError("the client did not synchronize with the daemon at \(daemon.socket)")
        }
        print("bundle: sample-bundle + Vector.strings (\(fixture.vectorSource)) + Large (\(largeKeys) keys); "
              + "client language \(strings.currentLanguage)")

        guard let bundle = Bundle(path: fixture.bundle.root + "/de.lproj") else {
            throw UsageError("Foundation cannot open \(fixture.bundle.root)/de.lproj as a bundle")
        }
        let keys = fixture.lookupKeys
        let same = keys.filter {
            strings.localizedString($0.key, table: $0.table)
                == bundle.localizedString(forKey: $0.key, value: nil, table: $0.table)
        }.count
        print("same value from LiveStrings and Bundle for \(same) of \(keys.count) de keys")
        guard same == keys.count else { throw UsageError("LiveStrings and Bundle disagree: not comparable") }

        func milliseconds(_ duration: Duration) -> String { String(format: "%.3f ms", duration.seconds * 1e3) }
        var passes = true
        let threadCounts = Array(Set([1, 2, processors])).sorted()
        print("lookups per second, all threads together (\(keys.count) keys, \(lookups) lookups per thread, "
              + "median of 5; each thread looks up its own copies of the keys, as literals in code would be)")
        print("  " + ["threads", "LiveStrings", "scaling", "Bundle", "scaling", "ratio"]
            .map { Format.cell($0, 14, right: true) }.joined())
        var single = (live: 0.0, reference: 0.0)
        var scalingPasses = true
        for threads in threadCounts {
            var live: [Double] = []
            var reference: [Double] = []
            for _ in 0..<5 {
                live.append(LookupRate.measure(threads: threads, lookups: lookups, keys: keys) {
                    strings.localizedString($0.key, table: $0.table)
                })
                reference.append(LookupRate.measure(threads: threads, lookups: lookups, keys: keys) {
                    bundle.localizedString(forKey: $0.key, value: nil, table: $0.table)
                })
            }
            let (liveRate, referenceRate) = (Measure.median(live), Measure.median(reference))
            if threads == 1 { single = (liveRate, referenceRate) }
            let cells = [String(threads), String(format: "%.0f", liveRate), Format.ratio(liveRate / single.live),
                         String(format: "%.0f", referenceRate), Format.ratio(referenceRate / single.reference),
                         Format.ratio(liveRate / referenceRate)]
            print("  " + cells.map { Format.cell($0, 14, right: true) }.joined())
            passes = passes && liveRate >= referenceRate
            if threads == 2 { scalingPasses = liveRate >= 1.8 * single.live }
        }
        print("  bar 2 threads >= 1.8x one thread (LiveStrings): \(scalingPasses ? "PASS" : "FAIL")")
        print("  bar at least as fast as Bundle per lookup: \(passes ? "PASS" : "FAIL")")
        var quiet = LiveStrings.Configuration(socketPath: daemon.socket, clientName: "hotstrings-bench unrecorded",
                                              environment: ["LANGUAGE": "de", "LANG": "de_DE.UTF-8"])
        quiet.reportsMissingKeys = false
        let unrecorded = LiveStrings(configuration: quiet)
        defer { unrecorded.stop() }
        guard unrecorded.blockUntilSynchronized(timeout: .seconds(20)) else {
            throw UsageError("the second client did not synchronize with the daemon at \(daemon.socket)")
        }
        let missPasses = MissingLookups.report(strings: strings, unrecorded: unrecorded, keys: keys, lookups: lookups,
                                               threadCounts: Array(Set([1, processors])).sorted())
        let snapshotPasses = SnapshotLookups.report(strings: strings, keys: keys, lookups: lookups)

        // With --pin, this thread (it saves the files and waits for the hooks) keeps off the readers' processor.
        if readerProcessor != nil { try ThreadScheduling.pinCurrentThread(to: Array(0..<(processors - 1))) }
        // The reference: the same reader loop over a private Dictionary (no lock, never reloaded) during the
        // same kind of reloads, so what the scheduler costs on this machine shows next to the mirror's figure.
        let allKeys = keys + fixture.largeLookupKeys
        var copy: [String: [String: String]] = [:]
        for key in allKeys {
            copy[key.table, default: [:]][key.key] = strings.localizedString(key.key, table: key.table)
        }
        let privateCopy = copy
        let reference = try ReaderStalls.measure(strings: strings, fixture: fixture, readers: readers,
                                                 reloads: reloads, firstRound: 1, changed: changed,
                                                 processor: readerProcessor) {
            privateCopy[$0.table]?[$0.key] ?? $0.key
        }
        let mirror = try ReaderStalls.measure(strings: strings, fixture: fixture, readers: readers,
                                              reloads: reloads, firstRound: reloads + 1, changed: changed,
                                              processor: readerProcessor) {
            strings.localizedString($0.key, table: $0.table)
        }
        print("reader stalls: the longest gap between two consecutive lookups of \(readers) reader thread(s), "
              + "per reload of Large (\(fixture.largeKeys) keys, \(changed) changed; median save-to-hook "
              + "\(milliseconds(mirror.medianReload)))"
              + (readerProcessor.map { "; readers on processor \($0), daemon and client on the others" } ?? ""))
        print("  " + Format.cell("", 24) + Format.cell("wall clock", 60, right: true)
              + Format.cell("less run-queue time", 40, right: true))
        print("  " + ["readers of", "quiet", "between", "max", "p99", "p50", "> 1 ms", "between", "max", "p50",
                      "> 1 ms", "blocked", "preempted"]
            .enumerated().map { Format.cell($1, $0 == 0 ? 24 : 10, right: $0 > 0) }.joined())
        for (label, result) in [("private Dictionary (ref)", reference), ("LiveStrings", mirror)] {
            let cells = [milliseconds(result.quiet.wall), milliseconds(result.between.wall),
                         milliseconds(result.percentile(1)), milliseconds(result.percentile(0.99)),
                         milliseconds(result.percentile(0.5)),
                         "\(result.count(over: .milliseconds(1)))/\(reloads)",
                         milliseconds(result.between.unscheduled),
                         milliseconds(result.percentile(1, \.unscheduled)),
                         milliseconds(result.percentile(0.5, \.unscheduled)),
                         "\(result.count(over: .milliseconds(1), \.unscheduled))/\(reloads)",
                         String(result.switches.voluntary), String(result.switches.involuntary)]
            print("  " + Format.cell(label, 24) + cells.map { Format.cell($0, 10, right: true) }.joined())
        }
        print("  (quiet: before the first save; between: from each hook to the next save, no reload in flight; "
              + "less run-queue time: each gap minus the time the reader sat runnable but not running, from "
              + "/proc/thread-self/schedstat, leaving what the lookup, a lock or the mirror cost, and what the "
              + "machine took unseen by the scheduler, as 'between' shows; blocked/preempted: the readers' "
              + "voluntary/involuntary context switches during the reloads)")
        let stallPasses = mirror.percentile(1, \.unscheduled) <= .milliseconds(1)
        let wallPasses = mirror.percentile(1) <= .milliseconds(1)
        print("  bar max stall <= 1 ms, less run-queue time: \(stallPasses ? "PASS" : "FAIL")")
        print("  max stall <= 1 ms on the wall clock: \(wallPasses ? "yes" : "no") (the reference, which never "
              + "waits for anything: \(reference.percentile(1) <= .milliseconds(1) ? "yes" : "no"))")
        var memoryPasses = true
        if memoryReloads > 0 {
            let samples = try ReloadMemory.measure(strings: strings, fixture: fixture, readers: readers,
                                                   reloads: memoryReloads, firstRound: 2 * reloads + 1)
            memoryPasses = ReloadMemory.report(samples, largeKeys: fixture.largeKeys, readers: readers)
        }
        return passes && scalingPasses && stallPasses && memoryPasses && missPasses && snapshotPasses ? 0 : 1
    }
}

/// One lookup: a key of a table.
struct LookupKey: Sendable {
    var table: String
    var key: String
}

/// The temporary bundle of the client suite and the keys it looks up.
struct ClientFixture {
    let bundle: TemporaryBundle
    let largeKeys: Int
    let lookupKeys: [LookupKey]
    let largeLookupKeys: [LookupKey]
    /// Where Vector.strings came from: the corpus, or generated.
    let vectorSource: String

    init(corpus: String, largeKeys: Int) throws {
        self.largeKeys = largeKeys
        bundle = try TemporaryBundle(tables: ["de.lproj/Large.strings": ClientFixture.large(round: 0, keys: largeKeys)])
        let manager = FileManager.default
        let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("sample-bundle").path
        for folder in try manager.contentsOfDirectory(atPath: sample) where folder.hasSuffix(".lproj") {
            try manager.createDirectory(atPath: bundle.root + "/" + folder, withIntermediateDirectories: true)
            // Plain `.strings` only: Foundation on Linux crashes in `Bundle.localizedString` on the sample's
            // `.stringsdict` (a bad pointer in its plural lookup), and this suite compares plain lookups.
            let files = try manager.contentsOfDirectory(atPath: sample + "/" + folder)
            for file in files where file.hasSuffix(".strings") {
                try manager.copyItem(atPath: "\(sample)/\(folder)/\(file)", toPath: "\(bundle.root)/\(folder)/\(file)")
            }
        }
        let assets = corpus + "/element-ios/Riot/Assets"
        if manager.fileExists(atPath: assets + "/de.lproj/Vector.strings") {
            for language in ["de", "en"] {
                try manager.copyItem(atPath: "\(assets)/\(language).lproj/Vector.strings",
                                     toPath: "\(bundle.root)/\(language).lproj/Vector.strings")
            }
            vectorSource = "element-ios from the corpus"
        } else {
            let text = (0..<2_500).map { "\"vector.key.\($0)\" = \"Ein Wert mit etwas Text, Nummer \($0)\";" }
            try Data(text.joined(separator: "\n").utf8).write(
                to: URL(fileURLWithPath: bundle.root + "/de.lproj/Vector.strings"))
            vectorSource = "generated, no corpus at \(corpus)"
        }
        var keys: [LookupKey] = []
        for table in ["Localizable", "Vector"] {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: "\(bundle.root)/de.lproj/\(table).strings")))
            keys += try StringsFile.parse(bytes).keys.map { LookupKey(table: table, key: $0) }
        }
        lookupKeys = keys
        largeLookupKeys = (0..<largeKeys).map { LookupKey(table: "Large", key: "large.key.\($0)") }
    }

    /// The text of `Large` for a round: the first `changed` values differ from the previous round's.
    static func large(round: Int, keys: Int, changed: Int = .max) -> String {
        (0..<keys).map { "\"large.key.\($0)\" = \"Wert \($0) in Runde \($0 < changed ? round : 0)\";" }
            .joined(separator: "\n")
    }
}

/// Lookups per second, summed over threads that start together.
enum LookupRate {
    static func measure(threads: Int, lookups: Int, keys: [LookupKey],
                        _ lookup: @escaping @Sendable (LookupKey) -> String) -> Double {
        let start = DispatchSemaphore(value: 0)
        let finished = DispatchGroup()
        let checksum = SharedCounter()
        for thread in 0..<threads {
            finished.enter()
            // Fresh strings per thread: keys shared between threads would have the threads contend on their
            // reference counts, which keys written as literals (immortal) never do.
            let keys = keys.map { LookupKey(table: String(decoding: Array($0.table.utf8), as: UTF8.self),
                                            key: String(decoding: Array($0.key.utf8), as: UTF8.self)) }
            Thread {
                start.wait()
                var sum = 0
                var index = (thread * keys.count) / threads
                for _ in 0..<lookups {
                    sum &+= lookup(keys[index]).utf8.count
                    index += 1
                    if index == keys.count { index = 0 }
                }
                checksum.value.add(sum, ordering: .relaxed)
                finished.leave()
            }.start()
        }
        let clock = ContinuousClock()
        let began = clock.now
        for _ in 0..<threads { start.signal() }
        finished.wait()
        let elapsed = clock.now - began
        precondition(checksum.value.load(ordering: .relaxed) > 0, "the lookups returned nothing")
        return Double(threads * lookups) / elapsed.seconds
    }
}

/// An atomic integer that threads share by reference.
final class SharedCounter: Sendable {
    let value = Atomic<Int>(0)
}

/// The longest gaps between consecutive lookups of reader threads, while quiet and per reload.
enum ReaderStalls {
    /// One reader's worst gap in a window: as the clock saw it, and without the time the reader sat runnable
    /// on a run queue (preempted by another thread, or waiting to be picked) during that gap.
    struct Gap: Sendable {
        var wall = Duration.zero
        var unscheduled = Duration.zero

        mutating func formMaximum(_ other: Gap) {
            wall = max(wall, other.wall)
            unscheduled = max(unscheduled, other.unscheduled)
        }
    }

    struct Result {
        /// The longest gap while nothing changed, before the first save.
        var quiet: Gap
        /// The longest gap between reloads (from a hook to the next save): the control for what the machine
        /// did to the readers while the reloads ran, with no reload in flight.
        var between: Gap
        /// Per reload, the longest gap of any reader from the save until the reload hook ran.
        var perReload: [Gap]
        /// The median time from a save to the reload hook.
        var medianReload: Duration
        /// The readers' context switches during the reloads: voluntary ones (the thread blocked, on a lock
        /// or otherwise) and involuntary ones (the scheduler preempted it).
        var switches: ContextSwitches

        /// The stall at `fraction` of the sorted per-reload stalls (1 is the longest).
        func percentile(_ fraction: Double, _ measure: (Gap) -> Duration = \.wall) -> Duration {
            let sorted = perReload.map(measure).sorted()
            return sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
        }

        /// How many reloads stalled some reader longer than `limit`.
        func count(over limit: Duration, _ measure: (Gap) -> Duration = \.wall) -> Int {
            perReload.filter { measure($0) > limit }.count
        }
    }

    /// What the readers share: the current window (0 quiet, then one per reload), a stop flag, each window's
    /// longest gap.
    private final class Windows: Sendable {
        let current = Atomic<Int>(0)
        let isStopping = Atomic<Bool>(false)
        let longest = Mutex<[Int: Gap]>([:])
        let switches = Mutex(ContextSwitches())

        func publish(_ gap: Gap, window: Int) {
            longest.withLock { $0[window, default: Gap()].formMaximum(gap) }
        }
    }

    /// Runs `readers` threads calling `lookup` for 1 s of quiet, then during `reloads` saves of Large
    /// numbered from `firstRound` (each waited for until the client's reload hook ran). With `processor`,
    /// the readers run on that processor only.
    static func measure(strings: LiveStrings, fixture: ClientFixture, readers: Int, reloads: Int, firstRound: Int,
                        changed: Int, processor: Int?,
                        lookup: @escaping @Sendable (LookupKey) -> String) throws -> Result {
        let windows = Windows()
        let applied = DispatchSemaphore(value: 0)
        let token = strings.onReload { change in
            if change.cause == .reload { applied.signal() }
        }
        defer { token.cancel() }
        let keys = fixture.lookupKeys + fixture.largeLookupKeys
        let finished = DispatchGroup()
        for reader in 0..<readers {
            finished.enter()
            Thread {
                if let processor { try? ThreadScheduling.pinCurrentThread(to: [processor]) }
                read(lookup, keys: keys, offset: reader * keys.count / readers, windows: windows)
                finished.leave()
            }.start()
        }
        let clock = ContinuousClock()
        _ = try? Poller().wait(timeout: .seconds(1))   // the quiet window: readers run, nothing changes
        var reloadTimes: [Duration] = []
        for round in 1...reloads {
            // The text is made before the window opens: only the save and its reload are measured.
            let text = ClientFixture.large(round: firstRound + round - 1, keys: fixture.largeKeys,
                                         changed: changed)
            windows.current.store(round, ordering: .releasing)
            let saved = clock.now
            try fixture.bundle.atomicallyReplace("de.lproj/Large.strings", with: text)
            guard applied.wait(timeout: .now() + .seconds(20)) == .success else {
                throw UsageError("reload \(round) did not reach the client within 20 s")
            }
            reloadTimes.append(clock.now - saved)
            windows.current.store(-1, ordering: .releasing)   // between reloads: not counted
        }
        windows.current.store(reloads + 1, ordering: .releasing)
        windows.isStopping.store(true, ordering: .releasing)
        finished.wait()
        let longest = windows.longest.withLock { $0 }
        return Result(quiet: longest[0] ?? Gap(), between: longest[-1] ?? Gap(),
                      perReload: (1...reloads).map { longest[$0] ?? Gap() },
                      medianReload: reloadTimes.sorted()[reloadTimes.count / 2],
                      switches: windows.switches.withLock { $0 })
    }

    /// Loops over lookups, recording the longest gap between two consecutive ones per window.
    ///
    /// The thread's run-queue time (`/proc/thread-self/schedstat`) is read every 50 µs and right after any
    /// gap over 100 µs; such a gap less the run-queue time since the reading before it is the part the
    /// scheduler does not explain: time spent in the lookup, spinning or blocked on a lock. (The reading
    /// before may be up to 50 µs older than the gap, so up to 50 µs of earlier queueing can be subtracted.)
    private static func read(_ lookup: (LookupKey) -> String, keys: [LookupKey], offset: Int, windows: Windows) {
        let clock = ContinuousClock()
        let statistics = try? SchedulerStatistics()
        var window = windows.current.load(ordering: .acquiring)
        var longest = Gap()
        var index = offset
        var sum = 0
        var waited = statistics?.read()?.waiting ?? .zero
        var sampled = clock.now
        var last = sampled
        var switches = ContextSwitches()
        var atWindowStart = ContextSwitches()
        while !windows.isStopping.load(ordering: .relaxed) {
            sum &+= lookup(keys[index]).utf8.count
            index += 1
            if index == keys.count { index = 0 }
            var now = clock.now
            let gap = now - last
            longest.wall = max(longest.wall, gap)
            if gap > .microseconds(100) || now - sampled > .microseconds(50) {
                let waitedNow = statistics?.read()?.waiting ?? waited
                let unscheduled = gap > .microseconds(100) ? gap - (waitedNow - waited) : gap
                longest.unscheduled = max(longest.unscheduled, unscheduled)
                waited = waitedNow
                now = clock.now   // the reading itself is not a gap
                sampled = now
            } else {
                longest.unscheduled = max(longest.unscheduled, gap)
            }
            last = now
            let current = windows.current.load(ordering: .relaxed)
            if current != window {
                windows.publish(longest, window: window)
                // Context switches are counted in reload windows only (reading them takes some microseconds).
                if window > 0 { switches.add(ContextSwitches.ofThisThread(), since: atWindowStart) }
                if current > 0 { atWindowStart = ContextSwitches.ofThisThread() }
                window = current
                longest = Gap()
                last = clock.now
                sampled = last
                waited = statistics?.read()?.waiting ?? waited
            }
        }
        windows.publish(longest, window: window)
        if window > 0 { switches.add(ContextSwitches.ofThisThread(), since: atWindowStart) }
        windows.switches.withLock { $0.add(switches, since: ContextSwitches()) }
        precondition(sum > 0, "the lookups returned nothing")
    }
}

/// Context switches of a thread, from `/proc/thread-self/status`.
struct ContextSwitches: Sendable {
    /// The thread gave up the processor: it blocked (a lock, a read, a sleep).
    var voluntary = 0
    /// The scheduler took the processor away.
    var involuntary = 0

    /// Adds the switches between `start` and `end`.
    mutating func add(_ end: ContextSwitches, since start: ContextSwitches) {
        voluntary += end.voluntary - start.voluntary
        involuntary += end.involuntary - start.involuntary
    }

    /// The calling thread's counts so far (zero where Linux does not say).
    static func ofThisThread() -> ContextSwitches {
        var counts = ContextSwitches()
        let path = "/proc/thread-self/status"
        guard let status = try? String(contentsOfFile: path, encoding: .utf8) else { return counts }
        for line in status.split(separator: "\n") {
            let fields = line.split(whereSeparator: { $0 == ":" || $0 == "\t" || $0 == " " })
            guard fields.count == 2, let value = Int(fields[1]) else { continue }
            if fields[0] == "voluntary_ctxt_switches" { counts.voluntary = value }
            if fields[0] == "nonvoluntary_ctxt_switches" { counts.involuntary = value }
        }
        return counts
    }
}
