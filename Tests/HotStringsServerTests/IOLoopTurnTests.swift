@testable import HotStringsFront
import HotStringsTestSupport
import Testing

/// A line of `size` bytes (newline included) that starts with `label`, as a big answer or event.
func paddedLine(_ label: String, size: Int) -> [UInt8] {
    let head = Array((label + " ").utf8)
    return head + [UInt8](repeating: 0x78, count: max(0, size - head.count - 1)) + [0x0A]
}

/// The I/O loop in process, requests and answers: fair turns, the answer caps, half-close, close. The test plays
/// the core through `LoopHarness`, with room for 16 requests in the core (the daemon's default is smaller, which
/// changes how many requests the figures below name, not what happens).
struct IOLoopTurnTests {
    /// The limits of these tests: the defaults with a backlog of 16 in the core.
    static var limits: IOLoop.Limits {
        var limits = IOLoop.Limits()
        limits.coreBacklog = 16
        return limits
    }

    /// One client pipelining 100 requests fills the core's backlog (16); another's request gets the next turn
    /// but one, not the 101st.
    @Test func aClientPipeliningManyRequestsDoesNotStarveAnother() throws {
        let harness = try LoopHarness(limits: Self.limits)
        let (flooder, a) = try harness.connect()
        let (other, b) = try harness.connect()
        let count = 100
        try flooder.send(bytes: (0..<count).flatMap { line("a\($0)") })
        try harness.waitFor("the core's backlog to fill") { LoopHarness.requests(from: a, in: $0).count == 16 }
        try other.send("b0")

        // The core answers one request at a time, as they come, until b's is reported.
        var answered = 0
        while harness.requests(from: b).isEmpty {
            try harness.waitFor("a request of either client") {
                LoopHarness.requests(from: a, in: $0).count > answered || !LoopHarness.requests(from: b, in: $0).isEmpty
            }
            if harness.requests(from: a).count > answered {
                harness.answer(a, line("answer a\(answered)"))
                answered += 1
            }
        }
        let before = harness.requests(from: a).count
        #expect(before < count / 2, "b's request waited for \(before) of a's \(count)")
        #expect(harness.requests(from: b) == ["b0"])
        harness.answer(b, line("answer b0"))
        #expect(try other.nextLine() == Array("answer b0".utf8))

        // a's backlog is handed on whole and in order.
        for index in 0..<count {
            if answered == index {
                try harness.waitFor("a\(index)") { LoopHarness.requests(from: a, in: $0).count > index }
            }
            while answered < harness.requests(from: a).count {
                harness.answer(a, line("answer a\(answered)"))
                answered += 1
            }
            #expect(try flooder.nextLine() == Array("answer a\(index)".utf8))
        }
        #expect(harness.requests(from: a) == (0..<count).map { "a\($0)" })
    }

    /// A client that pipelines requests and does not read is no longer read once 1 MiB of its answers waits
    /// unsent; once it reads them, the rest of its requests are handed on, in order.
    @Test func aClientsRequestsWaitWhileAMebibyteOfItsAnswersIsUnread() throws {
        let harness = try LoopHarness(limits: Self.limits)
        let (client, id) = try harness.connect()
        let count = 100
        // Small answers: the 16 requests the core takes at once leave the unread answers under the cap.
        let answerBytes = 32 << 10
        try client.send(bytes: (0..<count).flatMap { line("r\($0)") })
        try harness.waitFor("the first request") { !LoopHarness.requests(from: id, in: $0).isEmpty }

        // The core answers all it is handed; two settled passes in a row without a new request: the loop stopped.
        var answered = 0
        var quietPasses = 0
        while quietPasses < 2 {
            let reported = harness.requests(from: id).count
            quietPasses = reported == answered ? quietPasses + 1 : 0
            harness.answer(id, (answered..<reported).map { paddedLine("r\($0)", size: answerBytes) })
            answered = reported
            try harness.settle()
        }
        #expect(answered < count, "every request was handed on although none of the answers was read")
        #expect(answered * answerBytes >= 1 << 20, "paused after \(answered) answers, below the 1 MiB cap")
        // What the socket buffer takes comes on top of the cap: a few hundred kilobytes.
        #expect(answered * answerBytes < 2 << 20, "paused only after \(answered) answers")

        var received = 0
        while received < count {
            if answered == received {
                try harness.waitFor("request \(answered)") { LoopHarness.requests(from: id, in: $0).count > answered }
            }
            let reported = harness.requests(from: id).count
            harness.answer(id, (answered..<reported).map { paddedLine("r\($0)", size: answerBytes) })
            answered = reported
            let answer = try client.nextLine(timeout: .seconds(20))
            #expect(answer.starts(with: Array("r\(received) ".utf8)) && answer.count == answerBytes - 1)
            received += 1
        }
        #expect(harness.requests(from: id) == (0..<count).map { "r\($0)" })
    }

    /// Answers the core already owes still queue past 1 MiB; the one that would take the unread answers past
    /// 16 MiB closes the client instead. Another client is served meanwhile, and a single answer larger than
    /// 16 MiB still reaches a client that has nothing unread.
    @Test func aClientWhoseUnreadAnswersWouldPassSixteenMebibytesIsClosed() throws {
        let harness = try LoopHarness(limits: Self.limits)
        let (client, id) = try harness.connect()
        let (other, otherID) = try harness.connect()
        try client.send(bytes: (0..<16).flatMap { line("r\($0)") })
        try harness.waitFor("16 requests in the core") { LoopHarness.requests(from: id, in: $0).count == 16 }

        let answerBytes = 3 << 20
        var queued = 0
        while !harness.hasReported(.closed(id)), queued < 16 {
            harness.answer(id, paddedLine("r\(queued)", size: answerBytes))
            try harness.settle()
            queued += 1
        }
        #expect(harness.hasReported(.closed(id)), "16 answers of 3 MiB queued for a client that reads none")
        #expect(queued >= 6, "closed after \(queued) answers: before its unread answers neared 16 MiB")
        #expect(try client.readUntilClosed(timeout: .seconds(20)) != nil, "the client sees the connection end")

        try other.send("ping")
        try harness.waitFor(.request(otherID, "ping"))
        let large = paddedLine("large", size: 17 << 20)
        harness.answer(otherID, large)
        #expect(try other.nextLine(timeout: .seconds(20)) == Array(large.dropLast()))
        #expect(!harness.hasReported(.closed(otherID)))
    }

    /// A client back under the answer cap by a write that empties its outbox has its waiting requests handed on
    /// without anything else waking the loop.
    @Test func requestsHeldByTheAnswerCapAreHandedOnOnceTheAnswersAreWritten() throws {
        var limits = Self.limits
        limits.answerBytesSoftCap = 8 << 10
        let harness = try LoopHarness(limits: limits)
        let (client, id) = try harness.connect()
        try client.send(bytes: (0..<20).flatMap { line("r\($0)") })
        try harness.waitFor("16 requests in the core") { LoopHarness.requests(from: id, in: $0).count == 16 }
        // 16 KiB of answers at once: over the cap until the flush at the end of that pass writes them all.
        harness.answer(id, (0..<16).map { paddedLine("r\($0)", size: 1 << 10) })
        try harness.waitFor("the other 4 requests") { LoopHarness.requests(from: id, in: $0).count == 20 }
    }

    /// A client that shuts down its writing side after its requests gets every answer, then the connection ends.
    @Test func aHalfClosedClientGetsItsAnswersThenTheConnectionEnds() throws {
        let harness = try LoopHarness(limits: Self.limits)
        let (client, id) = try harness.connect()
        try client.send(bytes: line("r1") + line("r2"))
        client.shutdownWrite()
        try harness.waitFor("both requests") { LoopHarness.requests(from: id, in: $0) == ["r1", "r2"] }
        try harness.settle()
        #expect(!harness.hasReported(.closed(id)), "closed with two requests unanswered")
        harness.answer(id, line("answer 1"))
        try harness.settle()
        #expect(!harness.hasReported(.closed(id)), "closed with a request unanswered")
        harness.answer(id, line("answer 2"))
        let lines = try #require(try client.readUntilClosed(timeout: .seconds(10)), "the connection never ended")
        #expect(lines == [Array("answer 1".utf8), Array("answer 2".utf8)])
        try harness.waitFor(.closed(id))
    }

    /// A client that goes away with requests in the core releases its share of the core's backlog: another
    /// client's request is handed on although no answer for the first ever comes back.
    @Test func aClientThatClosesReleasesItsShareOfTheCoresBacklog() throws {
        let harness = try LoopHarness(limits: Self.limits)
        let (leaver, a) = try harness.connect()
        let (other, b) = try harness.connect()
        try leaver.send(bytes: (0..<20).flatMap { line("a\($0)") })
        try harness.waitFor("the core's backlog to fill") { LoopHarness.requests(from: a, in: $0).count == 16 }
        leaver.close()
        try harness.waitFor(.closed(a))
        try other.send("b0")
        try harness.waitFor(.request(b, "b0"))
        // A late answer for the client that left is dropped and does not count against the backlog twice.
        harness.answer(a, line("late"))
        harness.answer(b, line("answer b0"))
        #expect(try other.nextLine() == Array("answer b0".utf8))
        #expect(harness.requests(from: a).count == 16, "nothing of the closed client is handed on")
        #expect(harness.loop.connectionCount.load(ordering: .relaxed) == 2, "the probe and the other client")
    }
}
