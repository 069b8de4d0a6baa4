@testable import HotStringsFront
import Testing

/// The I/O loop over fake sockets, events: a subscriber's backlog, its overflow, `resync` and `caughtUp`, a client
/// that never reads, and a stop that flushes. The test plays the core through `LoopHarness`.
struct IOLoopEventTests {
    static let eventBytes = 32 << 10

    /// Limits with a 64 KiB event cap, so a subscriber overflows after a few events.
    static var limits: IOLoop.Limits {
        var limits = IOLoop.Limits()
        limits.outboxBytes = 64 << 10
        return limits
    }

    /// Broadcasts events to `fast` (which reads each one) and `slow` (which does not) until the loop reports `slow`
    /// overflowed or closed; returns the labels of the events sent.
    static func broadcastUntilCut(_ harness: LoopHarness, fast: LoopHarness.Client, slow: LoopHarness.Client,
                                  first: Int = 0) throws -> [String] {
        let cuts = { (reports: [LoopReport]) in
            reports.count(where: { $0 == .overflowed(slow.id) || $0 == .closed(slow.id) })
        }
        let cutsBefore = cuts(harness.reports)
        var labels: [String] = []
        for index in first..<(first + 20) {
            let label = "e\(index)"
            harness.broadcast(paddedLine(label, size: eventBytes), to: [fast.id, slow.id])
            labels.append(label)
            harness.settle()
            #expect(Self.labels(harness.lines(fast)) == [label], "the fast one reads \(label)")
            if cuts(harness.reports) > cutsBefore { return labels }
        }
        throw CutError()
    }

    struct CutError: Error {}

    /// The first words of `lines`, for comparing with event labels.
    static func labels(_ lines: [String]) -> [String] {
        lines.map { String($0.prefix { $0 != " " }) }
    }

    /// A subscriber that does not read loses its backlog once it passes the cap (a line partly written is kept
    /// whole); the loop reports it overflowed once, skips events until the core's snapshot, reports `caughtUp` once
    /// the `resync` line is read, and the subscriber goes on from the snapshot. A reading subscriber gets every event
    /// meanwhile.
    @Test func aSubscriberThatFallsBehindIsResynchronized() throws {
        let harness = try LoopHarness(limits: Self.limits)
        let fast = try #require(harness.connect())
        let slow = try #require(harness.connect())
        // Its socket takes one event and a quarter: e1 is torn there, e2 waits whole, e3 passes the cap.
        harness.io.setCapacity(40 << 10, of: slow.fd)
        let sent = try Self.broadcastUntilCut(harness, fast: fast, slow: slow)
        #expect(sent == ["e0", "e1", "e2", "e3"])
        #expect(harness.hasReported(.overflowed(slow.id)))

        // Events until the core queues `resync` are skipped for it, and reported no second time.
        harness.broadcast(paddedLine("during", size: Self.eventBytes), to: [fast.id, slow.id])
        harness.resync(slow.id, line("resync"))
        harness.broadcast(paddedLine("skipped", size: Self.eventBytes), to: [fast.id, slow.id])
        harness.settle()
        #expect(Self.labels(harness.lines(fast)) == ["during", "skipped"])
        #expect(harness.reports.count(where: { $0 == .overflowed(slow.id) }) == 1)
        #expect(!harness.hasReported(.caughtUp(slow.id)), "caught up before reading the resync line")

        // It reads: whole events it was sent before falling behind, in order, from the first, then `resync`.
        harness.io.setCapacity(1 << 20, of: slow.fd)
        harness.settle()
        let lines = harness.lines(slow)
        #expect(Self.labels(lines) == ["e0", "e1", "resync"])
        #expect(lines.dropLast().allSatisfy { $0.utf8.count == Self.eventBytes - 1 }, "no torn line")
        #expect(harness.reports.count(where: { $0 == .caughtUp(slow.id) }) == 1)

        harness.snapshot(slow.id, line("snapshot"))
        harness.broadcast(line("after"), to: [fast.id, slow.id])
        harness.settle()
        #expect(harness.lines(slow) == ["snapshot", "after"], "events during the resync are replaced by the snapshot")
        #expect(harness.lines(fast) == ["after"])
        #expect(!harness.hasReported(.closed(slow.id)))
    }

    /// A subscriber that falls behind again after each snapshot is closed at its third overflow.
    @Test func aSubscriberThatKeepsFallingBehindIsClosedAtItsThirdOverflow() throws {
        let harness = try LoopHarness(limits: Self.limits)
        let fast = try #require(harness.connect())
        let slow = try #require(harness.connect())
        harness.io.setCapacity(0, of: slow.fd)
        var first = 0
        for round in 1...2 {
            first += try Self.broadcastUntilCut(harness, fast: fast, slow: slow, first: first).count
            #expect(harness.reports.count(where: { $0 == .overflowed(slow.id) }) == round)
            harness.resync(slow.id, line("resync"))
            harness.io.setCapacity(1 << 20, of: slow.fd)
            harness.settle()
            #expect(harness.lines(slow).last == "resync")
            #expect(harness.reports.count(where: { $0 == .caughtUp(slow.id) }) == round)
            harness.snapshot(slow.id, line("snapshot"))
            harness.settle()
            #expect(harness.lines(slow) == ["snapshot"])
            harness.io.setCapacity(0, of: slow.fd)
        }
        _ = try Self.broadcastUntilCut(harness, fast: fast, slow: slow, first: first)
        #expect(harness.hasReported(.closed(slow.id)) && harness.isClosed(slow))
        #expect(harness.reports.count(where: { $0 == .overflowed(slow.id) }) == 2, "the third overflow closes")
    }

    /// A client that subscribes and then never reads holds one overflow's worth: later events are skipped for it,
    /// others' requests are answered, and a stop does not wait for it past its grace.
    @Test func aClientThatNeverReadsHoldsNothingMoreAndDoesNotDelayTheOthers() throws {
        let harness = try LoopHarness(limits: Self.limits)
        let fast = try #require(harness.connect())
        let stuck = try #require(harness.connect())
        harness.io.setCapacity(0, of: stuck.fd)
        var first = try Self.broadcastUntilCut(harness, fast: fast, slow: stuck).count
        harness.resync(stuck.id, line("resync"))
        for _ in 0..<3 {
            first += 1
            harness.broadcast(paddedLine("e\(first)", size: Self.eventBytes), to: [fast.id, stuck.id])
            harness.send(fast, "ping \(first)")
            harness.settle()
            #expect(harness.requests(from: fast.id).last == "ping \(first)")
            harness.answer(fast.id, line("pong \(first)"))
            harness.settle()
            #expect(Self.labels(harness.lines(fast)) == ["e\(first)", "pong"])
        }
        #expect(harness.state.table[stuck.fd]?.connection.outbox.pendingBytes == "resync\n".utf8.count,
                "it holds its resync line, nothing more")
        #expect(harness.reports.count(where: { $0 == .overflowed(stuck.id) }) == 1)
        #expect(!harness.hasReported(.caughtUp(stuck.id)) && !harness.hasReported(.closed(stuck.id)))
        harness.stop(grace: .milliseconds(200))
        harness.settle()
        #expect(!harness.hasFinished, "its grace is not over")
        harness.advance(by: .seconds(10))
        harness.turn()
        #expect(harness.hasFinished)
    }

    /// A stop writes what is queued to clients that read it, then ends each connection, and the loop finishes.
    @Test func aStopFlushesQueuedBytesThenEndsTheConnections() throws {
        let harness = try LoopHarness()
        let reader = try #require(harness.connect())
        let answer = paddedLine("answer", size: 4 << 20)
        harness.send(reader.id, answer)
        harness.stop(grace: .seconds(20))
        var received: [UInt8] = []
        for _ in 0..<100 where !harness.isClosed(reader) {
            harness.settle()
            received += harness.io.read(reader.fd)
        }
        #expect(received == answer)
        #expect(harness.hasReported(.closed(reader.id)))
        harness.turn()
        #expect(harness.hasFinished)
    }
}
