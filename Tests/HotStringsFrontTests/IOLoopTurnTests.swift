@testable import HotStringsFront
import Testing

/// The I/O loop over fake sockets, requests and answers: fair turns, the answer caps, half-close, close. The test
/// plays the core through `LoopHarness`, with room for 16 requests in the core (the daemon's default is smaller, which
/// changes how many requests the figures below name, not what happens).
struct IOLoopTurnTests {
    /// The limits of these tests: the defaults with a backlog of 16 in the core.
    static var limits: IOLoop.Limits {
        var limits = IOLoop.Limits()
        limits.coreBacklog = 16
        return limits
    }

    /// One client pipelining 100 requests fills the core's backlog (16); another's request gets the next turn but one
    /// (the flooder was in the queue first), not the 101st; the flooder's are then handed on whole and in order.
    @Test func aClientPipeliningManyRequestsDoesNotStarveAnother() throws {
        let harness = try LoopHarness(limits: Self.limits)
        let flooder = try #require(harness.connect())
        let other = try #require(harness.connect())
        let count = 100
        harness.send(flooder, bytes: (0..<count).flatMap { line("a\($0)") })
        harness.settle()
        #expect(harness.requests(from: flooder.id).count == 16, "the core's backlog is full")
        harness.send(other, "b0")
        harness.settle()
        #expect(harness.requests(from: other.id).isEmpty, "no room in the core")

        harness.answer(flooder.id, line("answer a0"))
        harness.settle()
        #expect(harness.requests(from: flooder.id).count == 17, "the flooder's turn: it was queued first")
        #expect(harness.requests(from: other.id).isEmpty)
        harness.answer(flooder.id, line("answer a1"))
        harness.settle()
        #expect(harness.requests(from: other.id) == ["b0"], "the other's turn")
        #expect(harness.requests(from: flooder.id).count == 17)
        harness.answer(other.id, line("answer b0"))
        harness.settle()
        #expect(harness.lines(other) == ["answer b0"])

        var answered = 2
        while answered < count {
            let reported = harness.requests(from: flooder.id).count
            try #require(reported > answered, "the flooder's request \(answered) was never handed on")
            harness.answer(flooder.id, (answered..<reported).map { line("answer a\($0)") })
            answered = reported
            harness.settle()
        }
        #expect(harness.requests(from: flooder.id) == (0..<count).map { "a\($0)" })
        #expect(harness.lines(flooder) == (0..<count).map { "answer a\($0)" })
    }

    /// A client that pipelines requests and does not read is no longer read once 1 MiB of its answers waits unsent
    /// (beyond what its socket took); once it reads them, the rest of its requests are handed on, in order.
    @Test func aClientsRequestsWaitWhileAMebibyteOfItsAnswersIsUnread() throws {
        let harness = try LoopHarness(limits: Self.limits)
        let client = try #require(harness.connect())
        let count = 100
        // Small answers: the 16 requests the core takes at once leave the unread answers under the cap.
        let answerBytes = 32 << 10
        harness.send(client, bytes: (0..<count).flatMap { line("r\($0)") })
        harness.settle()
        var answered = 0
        while harness.requests(from: client.id).count > answered {
            let reported = harness.requests(from: client.id).count
            harness.answer(client.id, (answered..<reported).map { paddedLine("r\($0)", size: answerBytes) })
            answered = reported
            harness.settle()
        }
        let unsent = answered * answerBytes - EmbeddedLoopIO.defaultCapacity
        #expect(answered < count, "every request was handed on although none of the answers was read")
        #expect(unsent >= 1 << 20, "paused after \(answered) answers, below the 1 MiB cap")
        #expect(unsent < (1 << 20) + 16 * answerBytes, "paused only after \(answered) answers")
        #expect(harness.io.interest(of: client.fd)?.contains(.readable) == false, "not read meanwhile")

        var received: [String] = []
        while received.count < count {
            let lines = harness.lines(client)
            try #require(!lines.isEmpty || harness.requests(from: client.id).count > answered, "stalled")
            received += lines
            let reported = harness.requests(from: client.id).count
            harness.answer(client.id, (answered..<reported).map { paddedLine("r\($0)", size: answerBytes) })
            answered = reported
            harness.settle()
        }
        #expect(received.map { String($0.prefix { $0 != " " }) } == (0..<count).map { "r\($0)" })
        #expect(received.allSatisfy { $0.utf8.count == answerBytes - 1 })
        #expect(harness.requests(from: client.id) == (0..<count).map { "r\($0)" })
    }

    /// Answers the core already owes still queue past 1 MiB; the one that would take the unread answers past 16 MiB
    /// closes the client instead. Another client is served meanwhile, and a single answer larger than 16 MiB still
    /// reaches a client that has nothing unread.
    @Test func aClientWhoseUnreadAnswersWouldPassSixteenMebibytesIsClosed() throws {
        let harness = try LoopHarness(limits: Self.limits)
        let client = try #require(harness.connect())
        let other = try #require(harness.connect())
        harness.send(client, bytes: (0..<16).flatMap { line("r\($0)") })
        harness.settle()
        #expect(harness.requests(from: client.id).count == 16)

        let answerBytes = 3 << 20
        var queued = 0
        while !harness.hasReported(.closed(client.id)), queued < 16 {
            harness.answer(client.id, paddedLine("r\(queued)", size: answerBytes))
            harness.settle()
            queued += 1
        }
        // The socket took 256 KiB of the first: 5 answers leave 14.75 MiB unsent, the 6th would pass 16 MiB.
        #expect(queued == 6, "closed after \(queued) answers")
        #expect(harness.isClosed(client))

        harness.send(other, "ping")
        harness.settle()
        #expect(harness.requests(from: other.id) == ["ping"])
        harness.io.setCapacity(32 << 20, of: other.fd)
        let large = paddedLine("large", size: 17 << 20)
        harness.answer(other.id, large)
        harness.settle()
        #expect(harness.io.read(other.fd) == large)
        #expect(!harness.hasReported(.closed(other.id)))
    }

    /// A client back under the answer cap by a write that empties its outbox has its waiting requests handed on in
    /// the same pass: nothing else wakes the loop for it (its socket is not read while its framer holds lines).
    @Test func requestsHeldByTheAnswerCapAreHandedOnOnceTheAnswersAreWritten() throws {
        var limits = Self.limits
        limits.answerBytesSoftCap = 8 << 10
        let harness = try LoopHarness(limits: limits)
        let client = try #require(harness.connect())
        harness.send(client, bytes: (0..<20).flatMap { line("r\($0)") })
        harness.settle()
        #expect(harness.requests(from: client.id).count == 16)
        // 16 KiB of answers at once: over the cap until the flush at the end of that pass writes them all.
        harness.answer(client.id, (0..<16).map { paddedLine("r\($0)", size: 1 << 10) })
        harness.turn()
        #expect(harness.requests(from: client.id).count == 20, "in the pass that wrote the answers")
    }

    /// A client that shuts down its writing side after its requests gets every answer, then the connection ends.
    @Test func aHalfClosedClientGetsItsAnswersThenTheConnectionEnds() throws {
        let harness = try LoopHarness(limits: Self.limits)
        let client = try #require(harness.connect())
        harness.send(client, bytes: line("r1") + line("r2"))
        harness.io.shutdownClientWrite(client.fd)
        harness.settle()
        #expect(harness.requests(from: client.id) == ["r1", "r2"])
        #expect(!harness.hasReported(.closed(client.id)), "closed with two requests unanswered")
        harness.answer(client.id, line("answer 1"))
        harness.settle()
        #expect(!harness.hasReported(.closed(client.id)), "closed with a request unanswered")
        harness.answer(client.id, line("answer 2"))
        harness.settle()
        #expect(harness.lines(client) == ["answer 1", "answer 2"])
        #expect(harness.hasReported(.closed(client.id)) && harness.isClosed(client))
    }

    /// A client that goes away with requests in the core releases its share of the core's backlog: another client's
    /// request is handed on although no answer for the first ever comes back.
    @Test func aClientThatClosesReleasesItsShareOfTheCoresBacklog() throws {
        let harness = try LoopHarness(limits: Self.limits)
        let leaver = try #require(harness.connect())
        let other = try #require(harness.connect())
        harness.send(leaver, bytes: (0..<20).flatMap { line("a\($0)") })
        harness.settle()
        #expect(harness.requests(from: leaver.id).count == 16)
        harness.io.closeClient(leaver.fd)
        harness.settle()
        #expect(harness.hasReported(.closed(leaver.id)))
        harness.send(other, "b0")
        harness.settle()
        #expect(harness.requests(from: other.id) == ["b0"])
        // A late answer for the client that left is dropped and does not count against the backlog twice.
        harness.answer(leaver.id, line("late"))
        harness.answer(other.id, line("answer b0"))
        harness.settle()
        #expect(harness.lines(other) == ["answer b0"])
        #expect(harness.requests(from: leaver.id).count == 16, "nothing of the closed client is handed on")
        #expect(harness.loop.connectionCount.load(ordering: .relaxed) == 1)
        #expect(harness.state.coreInFlight == 0)
    }

    /// Empty lines count against a turn: a client sending thousands of them hands on its request behind them, and
    /// another client's request is handed on meanwhile.
    @Test func emptyLinesCountAgainstATurn() throws {
        let harness = try LoopHarness(limits: Self.limits)
        let blank = try #require(harness.connect())
        let other = try #require(harness.connect())
        harness.send(blank, bytes: [UInt8](repeating: 0x0A, count: 10_000) + line("after the blanks"))
        harness.send(other, "b0")
        harness.turn()
        #expect(harness.requests(from: other.id) == ["b0"], "in the first pass")
        harness.settle()
        #expect(harness.requests(from: blank.id) == ["after the blanks"])
        let order = harness.reports.compactMap { if case .request(_, let line) = $0 { line } else { nil } }
        #expect(order == ["b0", "after the blanks"])
    }

    /// A line over the framer's cap is answered `too_large`, and the connection closed once that is written.
    @Test func aLineOverTheCapIsAnsweredAndTheConnectionClosed() throws {
        let harness = try LoopHarness(limits: Self.limits)
        let client = try #require(harness.connect())
        harness.send(client, bytes: [UInt8](repeating: 0x61, count: 70_000))
        harness.settle()
        let answer = try #require(harness.lines(client).first)
        #expect(answer.contains("too_large"))
        #expect(harness.isClosed(client) && harness.hasReported(.closed(client.id)))
        #expect(harness.requests(from: client.id).isEmpty)
    }
}
