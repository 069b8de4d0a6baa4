@testable import HotStringsFront
import HotStringsTestSupport
import Testing

/// The I/O loop in process, events: a subscriber's backlog, its overflow, `resync` and `caughtUp`, a client that
/// never reads, and a stop that flushes. The test plays the core through `LoopHarness`.
struct IOLoopEventTests {
    static let eventBytes = 32 << 10

    /// Limits with a 64 KiB event cap, so a subscriber overflows after a few hundred kilobytes.
    static var limits: IOLoop.Limits {
        var limits = IOLoop.Limits()
        limits.outboxBytes = 64 << 10
        return limits
    }

    /// Broadcasts events to `fast` (which reads each one) and `slow` (which does not) until the loop reports
    /// `slow` overflowed or closed; returns the labels of the events sent.
    static func broadcastUntilCut(
        _ harness: LoopHarness, fast: (client: LineClient, id: UInt64), slow: UInt64, first: Int = 0
    ) throws -> [String] {
        let cuts = { (reports: [LoopReport]) in
            reports.count(where: { $0 == .overflowed(slow) || $0 == .closed(slow) })
        }
        let cutsBefore = cuts(harness.reports)
        var labels: [String] = []
        for index in first..<(first + 200) {
            let label = "e\(index)"
            harness.broadcast(paddedLine(label, size: eventBytes), to: [fast.id, slow])
            labels.append(label)
            #expect(try fast.client.nextLine().starts(with: Array((label + " ").utf8)), "the fast one reads \(label)")
            try harness.settle()
            if cuts(harness.reports) > cutsBefore { return labels }
        }
        throw TimedOut(description: "200 events of 32 KiB did not overflow a 64 KiB outbox")
    }

    /// The first words of `lines`, for comparing with event labels.
    static func labels(_ lines: [[UInt8]]) -> [String] {
        lines.map { String(decoding: $0.prefix { $0 != 0x20 }, as: UTF8.self) }
    }

    /// A subscriber that does not read loses its backlog once it passes the cap; the loop reports it overflowed
    /// once, skips events until the core's snapshot, reports `caughtUp` when the `resync` line is read, and
    /// the subscriber goes on from the snapshot. A reading subscriber gets every event meanwhile.
    @Test func aSubscriberThatFallsBehindIsResynchronized() throws {
        let harness = try LoopHarness(limits: Self.limits)
        let fast = try harness.connect()
        let (slow, slowID) = try harness.connect()
        let sent = try Self.broadcastUntilCut(harness, fast: fast, slow: slowID)
        #expect(harness.hasReported(.overflowed(slowID)))

        // Events until the core queues `resync` are skipped for it, and reported no second time.
        harness.broadcast(paddedLine("during", size: Self.eventBytes), to: [fast.id, slowID])
        #expect(try fast.client.nextLine().starts(with: Array("during ".utf8)))
        harness.resync(slowID, line("resync"))
        harness.broadcast(paddedLine("skipped", size: Self.eventBytes), to: [fast.id, slowID])
        #expect(try fast.client.nextLine().starts(with: Array("skipped ".utf8)))
        try harness.settle()
        #expect(harness.reports.count(where: { $0 == .overflowed(slowID) }) == 1)
        #expect(!harness.hasReported(.caughtUp(slowID)), "caught up before reading the resync line")

        // It reads: whole events it was sent before falling behind, in order, then `resync`.
        var before: [[UInt8]] = []
        while true {
            let next = try slow.nextLine()
            if next == Array("resync".utf8) { break }
            before.append(next)
        }
        let received = Self.labels(before)
        #expect(received.count < sent.count, "no event was dropped")
        #expect(received == Array(sent.prefix(received.count)), "whole events, in order, from the first")
        #expect(before.allSatisfy { $0.count == Self.eventBytes - 1 }, "no torn line")
        try harness.waitFor(.caughtUp(slowID))

        harness.snapshot(slowID, line("snapshot"))
        harness.broadcast(line("after"), to: [fast.id, slowID])
        #expect(try slow.nextLine() == Array("snapshot".utf8))
        #expect(try slow.nextLine() == Array("after".utf8), "events during the resync are replaced by the snapshot")
        #expect(try fast.client.nextLine() == Array("after".utf8))
        #expect(!harness.hasReported(.closed(slowID)))
    }

    /// A subscriber that falls behind again after each snapshot is closed at its third overflow.
    @Test func aSubscriberThatKeepsFallingBehindIsClosedAtItsThirdOverflow() throws {
        let harness = try LoopHarness(limits: Self.limits)
        let fast = try harness.connect()
        let (slow, slowID) = try harness.connect()
        var first = 0
        for round in 1...2 {
            first += try Self.broadcastUntilCut(harness, fast: fast, slow: slowID, first: first).count
            #expect(harness.reports.count(where: { $0 == .overflowed(slowID) }) == round)
            harness.resync(slowID, line("resync"))
            while try slow.nextLine() != Array("resync".utf8) {}
            try harness.waitFor("caught up \(round) times") {
                $0.count(where: { $0 == .caughtUp(slowID) }) == round
            }
            harness.snapshot(slowID, line("snapshot"))
            #expect(try slow.nextLine() == Array("snapshot".utf8))
        }
        _ = try Self.broadcastUntilCut(harness, fast: fast, slow: slowID, first: first)
        #expect(harness.hasReported(.closed(slowID)))
        #expect(harness.reports.count(where: { $0 == .overflowed(slowID) }) == 2, "the third overflow closes")
        #expect(try slow.readUntilClosed() != nil)
    }

    /// A client that subscribes and then never reads holds one overflow's worth: later events are skipped for it,
    /// others' requests are answered, and a stop does not wait for it past its grace.
    @Test func aClientThatNeverReadsHoldsNothingMoreAndDoesNotDelayTheOthers() throws {
        let harness = try LoopHarness(limits: Self.limits)
        let fast = try harness.connect()
        let (stuck, stuckID) = try harness.connect()
        defer { withExtendedLifetime(stuck) {} }
        var first = try Self.broadcastUntilCut(harness, fast: fast, slow: stuckID).count
        harness.resync(stuckID, line("resync"))
        for _ in 0..<3 {
            first += 1
            harness.broadcast(paddedLine("e\(first)", size: Self.eventBytes), to: [fast.id, stuckID])
            #expect(try fast.client.nextLine().starts(with: Array("e\(first) ".utf8)))
            try fast.client.send("ping \(first)")
            try harness.waitFor(.request(fast.id, "ping \(first)"))
            harness.answer(fast.id, line("pong \(first)"))
            #expect(try fast.client.nextLine() == Array("pong \(first)".utf8))
        }
        try harness.settle()
        #expect(harness.reports.count(where: { $0 == .overflowed(stuckID) }) == 1)
        #expect(!harness.hasReported(.caughtUp(stuckID)) && !harness.hasReported(.closed(stuckID)))
        try harness.stop(grace: .milliseconds(200))
    }

    /// A stop writes what is queued to clients that read it, then ends each connection, and `run` returns.
    @Test func aStopFlushesQueuedBytesThenEndsTheConnections() throws {
        let harness = try LoopHarness()
        let (reader, id) = try harness.connect()
        let answer = paddedLine("answer", size: 4 << 20)
        harness.send(id, answer)
        harness.loop.stop(grace: .seconds(20))
        let lines = try #require(try reader.readUntilClosed(timeout: .seconds(20)), "the connection never ended")
        #expect(lines == [Array(answer.dropLast())])
        try harness.waitFor(.closed(id))
        try waitUntil("run to return") { harness.hasReturned }
    }
}
