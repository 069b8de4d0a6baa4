@testable import HotStringsFront
import HotStringsService
import Testing

/// The connection state machine alone: inputs in, actions out, no loop, socket or clock.
struct ConnectionTests {
    let limits = IOLoop.Limits()
    let now = ContinuousClock.now
    let page = WebServer(listener: 3, access: WebAccess(token: LoopHarness.token, port: LoopHarness.port))

    func context(at instant: ContinuousClock.Instant? = nil) -> Connection.Context {
        Connection.Context(limits: limits, page: page, now: instant ?? now)
    }

    /// The request line an action hands the core, if any.
    func requestLine(_ actions: Connection.Actions) -> String? {
        guard case .requestLine(_, let bytes)? = actions.input else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A socket client's lines are handed on one per turn and counted in the core's backlog; a request a worker
    /// takes moves them all out of it until its answer; a half-close is answered, then closed once written.
    @Test func aSocketClientsRequestsAndTheCoresBacklog() {
        var connection = Connection.lines(7, limits: limits)
        #expect(connection.interest(limits) == .readable)
        _ = Array("a\n\nb\n".utf8).withUnsafeBytes { connection.received($0, context()) }
        #expect(!connection.isReading(limits) && connection.wantsTurn(limits), "its lines first")
        var actions = connection.takeTurn(limits)
        #expect(requestLine(actions) == "a" && actions.backlogChange == 1)
        actions = connection.takeTurn(limits)
        #expect(requestLine(actions) == "b", "the empty line skipped")
        actions = connection.takeTurn(limits)
        #expect(actions.input == nil && !connection.wantsTurn(limits) && connection.isReading(limits))
        #expect(connection.requestsInCore == 2)

        #expect(connection.movedOffCore().backlogChange == -2)
        #expect(connection.requestsInCore == 0 && !connection.isReading(limits), "nothing more while a worker has one")
        actions = connection.answered(line("answer a"), context())
        #expect(actions.backlogChange == 1 && actions.flushes, "the one held behind it is the core's again")
        #expect(connection.requestsInCore == 1 && connection.interest(limits) == [.readable, .writable])
        #expect(connection.flushed(.empty, at: now).input == nil)

        #expect(connection.receivedEnd().flushes == false, "a request is still unanswered")
        actions = connection.answered(line("answer b"), context())
        #expect(actions.backlogChange == -1 && actions.flushes)
        #expect(!connection.isReading(limits), "closing")
        #expect(connection.flushed(.empty, at: now).closes, "closed once its answers are written")
    }

    /// Events for a socket client: queued under the cap, then its overflow is the core's to resolve (`resync`), the
    /// flush that writes the `resync` line says it caught up, and the snapshot ends it.
    @Test func aSocketClientsEventsAndItsResync() {
        var limits = limits
        limits.outboxBytes = 8
        var connection = Connection.lines(7, limits: limits)
        #expect(connection.event(line("12345"), serverSent: nil).flushes)
        let overflow = connection.event(line("12345"), serverSent: nil)
        guard case .overflowed(7)? = overflow.input else {
            Issue.record("no overflow: \(overflow)")
            return
        }
        #expect(connection.event(line("skipped"), serverSent: nil).flushes == false)
        #expect(connection.beginResync(line("resync")).flushes)
        guard case .caughtUp(7)? = connection.flushed(.caughtUp, at: now).input else {
            Issue.record("not caught up")
            return
        }
        #expect(connection.endResync(with: line("snapshot")).flushes)
        #expect(connection.outbox.phase == .current)
    }

    /// A client of the page: idle, reading a request (with its deadline), its request with the core (no deadline, not
    /// read, not to be evicted), answered and idle again; past a deadline while idle it is closed.
    @Test func aPageClientsStagesAndDeadlines() {
        var connection = Connection.http(9, page: page, at: now)
        #expect(connection.deadline(page.limits) == now + page.limits.idleTimeout)
        #expect(connection.evictableSince == now && connection.isReading(limits))

        let started = now + .seconds(1)
        let head = "GET /api/status HTTP/1.1\r\nHost: 127.0.0.1:\(LoopHarness.port)\r\n"
        _ = Array(head.utf8).withUnsafeBytes { connection.received($0, context(at: started)) }
        #expect(connection.deadline(page.limits) == started + page.limits.requestTimeout)
        let rest = "Authorization: Bearer \(LoopHarness.token)\r\n\r\n"
        let actions = Array(rest.utf8).withUnsafeBytes { connection.received($0, context(at: started + .seconds(2))) }
        guard case .request(9, nil, .status)? = actions.input else {
            Issue.record("no status request: \(actions)")
            return
        }
        #expect(actions.backlogChange == 0, "a page's requests are not counted in the core's backlog")
        #expect(connection.deadline(page.limits) == nil && connection.evictableSince == nil)
        #expect(!connection.isReading(limits))

        let answered = started + .seconds(3)
        #expect(connection.answered(line(#"{"ok":true}"#), context(at: answered)).flushes)
        #expect(connection.deadline(page.limits) == answered + page.limits.idleTimeout)
        #expect(connection.flushed(.empty, at: answered).shutsDownWrite == false, "kept alive")
        #expect(connection.expire(context(at: answered + page.limits.idleTimeout)).closes)
    }

    /// The loop's stop: a socket client is written what is queued, then closed; a client of the page is closed.
    @Test func theStop() {
        var client = Connection.lines(1, limits: limits)
        #expect(client.stop().flushes && !client.isReading(limits))
        #expect(client.flushed(.empty, at: now).closes)
        var pageClient = Connection.http(2, page: page, at: now)
        #expect(pageClient.stop().closes)
    }
}
