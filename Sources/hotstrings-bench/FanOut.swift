import Foundation
import HotStringsClient
import LinuxSystem

/// Fan-out: from one save until the last of N subscribers has read its reload, the daemon next to a bare relay that
/// starts from the same kind of save (`FanOutRelay`), their saves interleaved so that a change in the machine's load
/// falls on both alike.
enum FanOut {
    /// The medians of one side's rounds, from the save.
    struct Timing {
        var firstSeconds: Double
        var lastSeconds: Double
        var maximumLastSeconds: Double

        init(_ rounds: [Round]) {
            firstSeconds = Measure.median(rounds.map(\.firstSeconds))
            lastSeconds = Measure.median(rounds.map(\.lastSeconds))
            maximumLastSeconds = rounds.map(\.lastSeconds).max() ?? 0
        }
    }

    /// One save, timed until the first and the last connection read the line.
    struct Round {
        var firstSeconds: Double
        var lastSeconds: Double
        /// The size of the line the connections read.
        var lineBytes: Int
        /// The processor time the serving process spent meanwhile (all its threads), and its busiest thread's.
        var cpu: ProcessorTime.Spent
    }

    static let rounds = 11
    /// Saves in a row for one side when both cannot be connected at once.
    static let blockRounds = 3
    /// The table both sides save, each in its own folder.
    static let table = "de.lproj/Localizable.strings"

    /// Measures the daemon and the relay with `count` subscribers each, prints the figures and returns whether the
    /// bars pass: the last subscriber within 1.5x the relay from the save (DESIGN.md), 1,000 within 10 ms, 10,000
    /// held in 200 MB.
    static func run(daemon: Daemon, subscribers count: Int) throws -> Bool {
        let before = daemon.residentBytes
        var subscribers = try subscribe(count, to: daemon.socket)
        defer { for fd in subscribers { SocketIO.close(fd) } }
        let growth = daemon.residentBytes - before
        let poller = try EventPoller()
        defer { poller.close() }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var served: [Round] = []
        var relayed: [Round] = []
        let texts = (0..<rounds).map { _ in Daemon.table(Int.random(in: 1...1_000_000)) }
        func serve(_ text: String) throws {
            served.append(try time(subscribers, poller, &buffer, process: daemon.pid) {
                try daemon.bundle.atomicallyReplace(table, with: text)
            })
        }
        func relay(_ text: String, through relay: FanOutRelay, lineBytes: Int) throws {
            try relay.prepare(lineBytes: lineBytes)
            relayed.append(try time(relay.connections, poller, &buffer, process: relay.pid) { try relay.save(text) })
        }
        // Both sides' connections open at once, when this process may hold them (raising its hard limit where it is
        // allowed to): a save of each in turn. Otherwise blocks of a few saves, each side connecting anew for its own
        // (10,000 subscribers under a limit of 20,000 files), so that a change in the machine's load still falls on
        // both alike.
        let isInterleaved = ResourceLimits.raiseOpenFilesBeyondTheHardLimit(to: 2 * count + 256) >= 2 * count + 256
        if isInterleaved {
            let relayProcess = try FanOutRelay(connections: count)
            defer { relayProcess.stop() }
            for text in texts {
                try serve(text)
                try relay(text, through: relayProcess, lineBytes: served.last!.lineBytes)
            }
        } else {
            for start in stride(from: 0, to: texts.count, by: blockRounds) {
                let block = texts[start..<min(start + blockRounds, texts.count)]
                if subscribers.isEmpty { subscribers = try subscribe(count, to: daemon.socket) }
                for text in block { try serve(text) }
                for fd in subscribers { SocketIO.close(fd) }
                subscribers = []
                try waitUntilIdle(daemon)
                let relayProcess = try FanOutRelay(connections: count)
                defer { relayProcess.stop() }
                for (text, round) in zip(block, served.suffix(block.count)) {
                    try relay(text, through: relayProcess, lineBytes: round.lineBytes)
                }
            }
        }
        let daemonTiming = Timing(served)
        let relayTiming = Timing(relayed)
        let lineBytes = Int(Measure.median(served.map { Double($0.lineBytes) }))
        print(String(format: "fan-out to %d subscribers, median of %d saves: the last read the reload %.2f ms after the "
                     + "save (max %.2f, first %.2f ms); daemon resident +%@ (%.1f KB per idle subscriber)",
                     count, rounds, daemonTiming.lastSeconds * 1e3, daemonTiming.maximumLastSeconds * 1e3,
                     daemonTiming.firstSeconds * 1e3, Format.megabytes(growth), Double(growth) / Double(count) / 1e3))
        print(String(format: "  relay from the same kind of save (inotify, then the %d-byte line to %d sockets with the "
                     + "daemon's calls): the last read it %.2f ms after the save (max %.2f, first %.2f ms); %@",
                     lineBytes, count, relayTiming.lastSeconds * 1e3, relayTiming.maximumLastSeconds * 1e3,
                     relayTiming.firstSeconds * 1e3,
                     isInterleaved ? "saves interleaved with the daemon's"
                        : "blocks of \(blockRounds) saves alternating with the daemon's (too few files for both at once)"))
        let ratio = daemonTiming.lastSeconds / relayTiming.lastSeconds
        let daemonSpread = daemonTiming.lastSeconds - daemonTiming.firstSeconds
        let relaySpread = relayTiming.lastSeconds - relayTiming.firstSeconds
        print(String(format: "  daemon / relay from the save to the last subscriber: %.2fx; first to last subscriber: "
                     + "daemon %.2f ms, relay %.2f ms (%.2fx)", ratio, daemonSpread * 1e3, relaySpread * 1e3,
                     daemonSpread / relaySpread))
        let daemonCPU = Measure.median(served.map(\.cpu.total)), daemonBusiest = Measure.median(served.map(\.cpu.busiest))
        let relayCPU = Measure.median(relayed.map(\.cpu.total))
        print(String(format: "  processor time per save, median (not slowed by the machine's load, unlike the times above): "
                     + "daemon %.2f ms (its busiest thread %.2f ms), relay %.2f ms: %.2fx, busiest thread %.2fx",
                     daemonCPU * 1e3, daemonBusiest * 1e3, relayCPU * 1e3, daemonCPU / relayCPU, daemonBusiest / relayCPU))
        var passes = ratio <= 1.5
        print("  bar from the save to the last subscriber <= 1.5x the relay: \(passes ? "PASS" : "FAIL")")
        if count == 1000 {
            let isServed = daemonTiming.lastSeconds <= 0.010
            print("  bar 1,000 served within 10 ms: \(isServed ? "PASS" : "FAIL")")
            passes = passes && isServed
        }
        if count == 10_000 {
            let isHeld = growth <= 200_000_000
            print("  bar 10,000 held in <= 200 MB: \(isHeld ? "PASS" : "FAIL")")
            passes = passes && isHeld
        }
        return passes
    }

    /// Waits until the daemon has taken in its subscribers' closes: `status` names no subscriber (the benchmark's
    /// other connections do not subscribe), so the relay's saves do not share the machine with that work.
    private static func waitUntilIdle(_ daemon: Daemon) throws {
        let connection = try LineConnection(path: daemon.socket)
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            try connection.send(#"{"id":1,"op":"status"}"#)
            let answer = String(decoding: try connection.readLine(), as: UTF8.self)
            if answer.contains(#""subscribers":0"#) { return }
        }
        throw UsageError("the daemon still counts subscribers 30 s after they closed")
    }

    /// `count` connections to the daemon, each subscribed (without a snapshot) and past its answer.
    private static func subscribe(_ count: Int, to socket: String) throws -> [Int32] {
        var descriptors: [Int32] = []
        do {
            let request = Array(#"{"id":1,"op":"subscribe","snapshot":false}"#.utf8) + [0x0A]
            for _ in 0..<count {
                let fd = try UnixSocket.connect(toPath: socket)
                descriptors.append(fd)
                _ = try request.withUnsafeBytes { try SocketIO.write(fd, $0) }
            }
            for fd in descriptors { try readUntilNewline(fd) }
            return descriptors
        } catch {
            for fd in descriptors { SocketIO.close(fd) }
            throw error
        }
    }

    /// Times `save` until every one of `descriptors` has read a line, each read once (the whole line, a few KB, so
    /// the next round starts from empty sockets).
    private static func time(_ descriptors: [Int32], _ poller: EventPoller, _ buffer: inout [UInt8],
                             process: Int32, save: () throws -> Void) throws -> Round {
        for fd in descriptors { try poller.add(fd, interest: .readable) }
        var remaining = descriptors.count
        var first: Double?
        var lineBytes = 0
        let cpuBefore = ProcessorTime.threads(of: process)
        let start = ContinuousClock.now
        try save()
        while remaining > 0 {
            let ready = try poller.wait(timeout: .seconds(10))
            guard !ready.isEmpty else { throw UsageError("\(remaining) connections never got the line") }
            for event in ready {
                if case .bytes(let count) = SocketIO.receive(event.fd, into: &buffer) { lineBytes = count }
                poller.remove(event.fd)
                remaining -= 1
                if first == nil { first = (ContinuousClock.now - start).seconds }
            }
        }
        let last = (ContinuousClock.now - start).seconds
        return Round(firstSeconds: first ?? last, lastSeconds: last, lineBytes: lineBytes,
                     cpu: ProcessorTime.spent(from: cpuBefore, to: ProcessorTime.threads(of: process)))
    }

    private static func readUntilNewline(_ fd: Int32) throws {
        var buffer = [UInt8](repeating: 0, count: 512)
        while true {
            let result = try buffer.withUnsafeMutableBytes { try SocketIO.read(fd, into: $0) }
            guard case .data(let count) = result else { throw UsageError("subscriber closed before its response") }
            if buffer[..<count].contains(0x0A) { return }
        }
    }
}

/// Processor time of a process's threads, from `/proc/PID/task/*/schedstat` (the time each ran, in nanoseconds).
enum ProcessorTime {
    /// What a process spent between two readings: in all, and on its busiest thread.
    struct Spent {
        var total: Double
        var busiest: Double
    }

    /// Each thread's time run so far, by thread ID.
    static func threads(of pid: Int32) -> [String: Double] {
        let folder = "/proc/\(pid)/task"
        var times: [String: Double] = [:]
        for task in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
            guard let text = try? String(contentsOfFile: "\(folder)/\(task)/schedstat", encoding: .utf8),
                  let nanoseconds = text.split(separator: " ").first.flatMap({ Double($0) }) else { continue }
            times[task] = nanoseconds / 1e9
        }
        return times
    }

    /// What was spent from `before` to `after`.
    static func spent(from before: [String: Double], to after: [String: Double]) -> Spent {
        let each = after.map { $0.value - (before[$0.key] ?? 0) }
        return Spent(total: each.reduce(0, +), busiest: each.max() ?? 0)
    }
}
