import Foundation
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
    }

    static let rounds = 11
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
            served.append(try time(subscribers, poller, &buffer) {
                try daemon.bundle.atomicallyReplace(table, with: text)
            })
        }
        func relay(_ text: String, through relay: FanOutRelay, lineBytes: Int) throws {
            try relay.prepare(lineBytes: lineBytes)
            relayed.append(try time(relay.connections, poller, &buffer) { try relay.save(text) })
        }
        // Both sides' connections open at once, when this process may hold them (raising its hard limit where it is
        // allowed to): a save of each in turn. Otherwise the daemon's saves, then the relay's.
        let isInterleaved = ResourceLimits.raiseOpenFilesBeyondTheHardLimit(to: 2 * count + 256) >= 2 * count + 256
        if isInterleaved {
            let relayProcess = try FanOutRelay(connections: count)
            defer { relayProcess.stop() }
            for text in texts {
                try serve(text)
                try relay(text, through: relayProcess, lineBytes: served.last!.lineBytes)
            }
        } else {
            for text in texts { try serve(text) }
            for fd in subscribers { SocketIO.close(fd) }
            subscribers = []
            let relayProcess = try FanOutRelay(connections: count)
            defer { relayProcess.stop() }
            for (text, round) in zip(texts, served) { try relay(text, through: relayProcess, lineBytes: round.lineBytes) }
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
                     isInterleaved ? "saves interleaved with the daemon's" : "after the daemon's saves (too few files)"))
        let ratio = daemonTiming.lastSeconds / relayTiming.lastSeconds
        let daemonSpread = daemonTiming.lastSeconds - daemonTiming.firstSeconds
        let relaySpread = relayTiming.lastSeconds - relayTiming.firstSeconds
        print(String(format: "  daemon / relay from the save to the last subscriber: %.2fx; first to last subscriber: "
                     + "daemon %.2f ms, relay %.2f ms (%.2fx)", ratio, daemonSpread * 1e3, relaySpread * 1e3,
                     daemonSpread / relaySpread))
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
                             save: () throws -> Void) throws -> Round {
        for fd in descriptors { try poller.add(fd, interest: .readable) }
        var remaining = descriptors.count
        var first: Double?
        var lineBytes = 0
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
        return Round(firstSeconds: first ?? last, lastSeconds: last, lineBytes: lineBytes)
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
