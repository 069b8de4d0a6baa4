@testable import HotStringsFront
import Testing

/// Flushes `outbox` through a fake socket that takes at most `piece` bytes per write and `budget` in all;
/// returns what was "written" and whether the outbox emptied.
func drain(_ outbox: inout Outbox, piece: Int = .max, budget: Int = .max) -> (bytes: [UInt8], isEmpty: Bool) {
    var written: [UInt8] = []
    let flush = outbox.flush { buffer in
        let count = min(buffer.count, piece, budget - written.count)
        written += buffer.prefix(count)
        return count
    }
    return (written, flush != .blocked)
}

/// The socket clients' rule, as the loop's defaults set it.
let resynchronizing = Outbox.OverflowRule.resynchronize(closingAt: 3)

struct OutboxTests {
    @Test(arguments: [1, 3, 7, 64, 1 << 20])
    func flushWritesEverythingInOrderWhateverTheWriteSize(piece: Int) {
        var outbox = Outbox(limit: 1 << 20, rule: resynchronizing)
        let lines = (0..<200).map { line("event \($0) " + String(repeating: "x", count: $0 % 17)) }
        for bytes in lines { #expect(outbox.enqueue(bytes) == .queued) }
        #expect(outbox.pendingBytes == lines.joined().count)
        var written: [UInt8] = []
        // Interleave partial flushes with new lines, which exercises the compaction of written chunks.
        for extra in 0..<3 {
            written += drain(&outbox, piece: piece, budget: 997).bytes
            #expect(outbox.enqueue(line("more \(extra)")) == .queued)
        }
        let rest = drain(&outbox, piece: piece)
        #expect(rest.isEmpty)
        #expect(written + rest.bytes == Array(lines.joined()) + line("more 0") + line("more 1") + line("more 2"))
        #expect(outbox.isEmpty && outbox.pendingBytes == 0)
    }

    @Test func theCapCountsUnsentBytesButAnEmptyOutboxTakesAnyLine() {
        var outbox = Outbox(limit: 10, rule: resynchronizing)
        #expect(outbox.enqueue(line(String(repeating: "a", count: 50))) == .queued, "one line always fits")
        #expect(outbox.enqueue(line("b")) == .overflowed)
        #expect(outbox.isEmpty, "the backlog is dropped")
        #expect(outbox.phase == .overflowed)

        var fresh = Outbox(limit: 10, rule: resynchronizing)
        #expect(fresh.enqueue(line("1234")) == .queued)
        #expect(fresh.enqueue(line("1234")) == .queued)
        #expect(fresh.pendingBytes == 10)
        #expect(fresh.enqueue([0x0A]) == .overflowed)
        fresh.enqueueRegardless(line("response"))  // Answers ignore the cap; the client asked for them.
        #expect(fresh.pendingBytes == 9)
    }

    @Test func anOverflowKeepsTheRestOfALinePartlyWritten() {
        var outbox = Outbox(limit: 100, rule: resynchronizing)
        #expect(outbox.enqueue(line("first line")) == .queued)
        #expect(outbox.enqueue(line("second line")) == .queued)
        #expect(drain(&outbox, budget: 4).bytes == Array("firs".utf8))
        #expect(outbox.enqueue(line(String(repeating: "z", count: 120))) == .overflowed)
        #expect(drain(&outbox).bytes == Array("t line\n".utf8), "no torn line reaches the client")
    }

    @Test func theSlowClientCycle() {
        var outbox = Outbox(limit: 8, rule: resynchronizing)
        #expect(outbox.enqueue(line("aaaa")) == .queued)
        #expect(outbox.enqueue(line("bbbb")) == .overflowed)
        #expect(outbox.enqueue(line("c")) == .skipped, "nothing is queued until the resync line")
        outbox.beginResync(line("resync"))
        #expect(outbox.phase == .resyncing)
        #expect(outbox.enqueue(line("d")) == .skipped, "events wait for the snapshot")
        #expect(drain(&outbox, budget: 3) == (Array("res".utf8), false), "part of the resync line")
        #expect(outbox.phase == .resyncing)
        #expect(outbox.flush { $0.count } == .caughtUp, "the rest: caught up, said once")
        #expect(outbox.phase == .caughtUp)
        #expect(outbox.enqueue(line("d")) == .skipped, "events still wait for the snapshot")
        #expect(outbox.flush { $0.count } == .empty)
        outbox.enqueueRegardless(line("snap"))
        outbox.endResync()
        #expect(outbox.phase == .current)
        #expect(outbox.enqueue(line("e")) == .queued)
        #expect(drain(&outbox).bytes == line("snap") + line("e"))
    }

    /// The socket clients' rule closes at the third overflow; the page's event streams' rule at the first, without
    /// dropping anything (the connection goes).
    @Test func theOverflowRules() {
        var outbox = Outbox(limit: 8, rule: resynchronizing)
        for round in 1...2 {
            #expect(outbox.enqueue(line("aaaa")) == .queued)
            #expect(outbox.enqueue(line("bbbb")) == .overflowed, "overflow \(round)")
            outbox.beginResync(line("resync"))
            _ = drain(&outbox)
            outbox.endResync()
        }
        #expect(outbox.enqueue(line("aaaa")) == .queued)
        #expect(outbox.enqueue(line("bbbb")) == .closes)
        #expect(outbox.overflows == 3)

        var stream = Outbox(limit: 8, rule: .close)
        stream.enqueueRegardless(line("head of the stream, asked for"))
        #expect(stream.enqueue(line("aaaa")) == .queued)
        #expect(stream.enqueue(line("bbbb")) == .closes)
        #expect(stream.phase == .current)
    }

    @Test func emptyLinesAndAFullSocketLeaveTheOutboxAsItWas() {
        var outbox = Outbox(limit: 8, rule: resynchronizing)
        outbox.enqueueRegardless([])
        #expect(outbox.isEmpty)
        #expect(outbox.enqueue(line("abc")) == .queued)
        let stalled = drain(&outbox, budget: 0)
        #expect(stalled.bytes.isEmpty && !stalled.isEmpty)
        #expect(outbox.pendingBytes == 4)
    }

    @Test func answersNeitherCountAgainstTheCapNorAreDropped() {
        var outbox = Outbox(limit: 10, rule: resynchronizing)
        outbox.enqueueRegardless(line(String(repeating: "s", count: 40)))  // a snapshot bigger than the cap
        #expect(outbox.enqueue(line("event1")) == .queued, "only event bytes count")
        outbox.enqueueRegardless(line("answer"))
        #expect(outbox.enqueue(line("event2")) == .overflowed)
        #expect(outbox.phase == .overflowed)
        let kept = drain(&outbox).bytes
        #expect(kept == line(String(repeating: "s", count: 40)) + line("answer"), "events go, answers stay")
    }

    /// An event written at once while nothing waits: whole, nothing is queued; in part, the rest is queued first and
    /// counts against the cap; once anything waits, events are only queued.
    @Test func anEventWrittenAtOnceQueuesOnlyItsRest() {
        var outbox = Outbox(limit: 10, rule: resynchronizing)
        #expect(outbox.writesEventsAtOnce)
        #expect(outbox.enqueue(line("whole"), written: 6) == .written)
        #expect(outbox.isEmpty)
        #expect(outbox.enqueue(line("partly"), written: 2) == .queued)
        #expect(outbox.pendingBytes == 5 && !outbox.writesEventsAtOnce)
        #expect(outbox.enqueue(line("next")) == .queued)
        #expect(outbox.enqueue(line("x")) == .overflowed, "the rest counts: 5 + 5 + 2 bytes")
        #expect(drain(&outbox).bytes == Array("rtly\n".utf8), "the line partly written is kept whole")
    }

    @Test func anOverflowKeepsAPartlyWrittenEventAndTheAnswersAfterIt() {
        var outbox = Outbox(limit: 14, rule: resynchronizing)
        #expect(outbox.enqueue(line("event1")) == .queued)
        outbox.enqueueRegardless(line("answer"))
        #expect(outbox.enqueue(line("event2")) == .queued)
        #expect(drain(&outbox, budget: 3).bytes == Array("eve".utf8))
        #expect(outbox.enqueue(line("event3")) == .overflowed)
        #expect(drain(&outbox).bytes == Array("nt1\n".utf8) + line("answer"))
    }
}
