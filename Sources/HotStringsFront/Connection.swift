import HotStringsService
import LinuxSystem

/// One client of the I/O loop, as a state machine value: the loop tells it what happened (bytes read, the end of its
/// input, a turn with the core, an output of the core, a write, a deadline, the stop) and performs what it answers
/// (`Actions`: hand the core an input, write, shut down, close). It makes no system call and reads no clock, so it is
/// tested without sockets (`ConnectionTests`), and the loop's own tests run over fake sockets (`LoopHarness`).
///
/// The socket's line protocol and the page's HTTP are two framings on it (`LineSession`, `HTTPSession`), each with
/// its states as enum cases; what both have is the `Outbox` (each framing's overflow rule named there) and the
/// `Actions` vocabulary.
struct Connection {
    /// What the connection is serving.
    enum State {
        /// A Unix socket client: request lines in, answer and event lines out.
        case lines(LineSession)
        /// A client of the page: HTTP requests in, answers and Server-Sent Events out.
        case http(HTTPSession)
        /// Only while a method has the session out to change it in place: the state holds no reference to its
        /// buffers meanwhile, so changing them copies nothing.
        case modifying
    }

    /// What the loop does after an input, in this order: hand the core `input` (and count `backlogChange`), then
    /// close, or shut down the writing side and write what is queued in this pass.
    struct Actions {
        /// For the core: a request, or what happened to the client (overflowed, caught up).
        var input: ServiceInput?
        /// Requests added to the core's backlog (`IOLoop.Limits.coreBacklog`), or taken from it when negative.
        var backlogChange = 0
        /// Bytes are queued: write them in this pass.
        var flushes = false
        /// Everything is written and the last answer is out: shut down the writing side (HTTP, then lingering).
        var shutsDownWrite = false
        /// Close the connection now.
        var closes = false
        /// It became one of the page's event streams, which the loop counts against their cap.
        var opensEventStream = false
        /// A line for the loop's log, as a warning (a refused request, a client closed for not reading).
        var warning: String?

        static let none = Actions()
        static let flush = Actions(flushes: true)
        static let close = Actions(closes: true)
    }

    /// What an input may need besides itself: the caps, the page's rules and the time.
    struct Context {
        var limits: IOLoop.Limits
        /// The page's rules (nil: the loop serves no page).
        var page: WebServer?
        /// Now, as the loop read the clock for this pass.
        var now: ContinuousClock.Instant
        /// The page's event streams open now.
        var eventStreams = 0
    }

    /// The client ID the core knows it by.
    let id: ClientID
    /// What waits to be written.
    var outbox: Outbox
    private(set) var state: State

    /// A socket client, reading its first request.
    static func lines(_ id: ClientID, limits: IOLoop.Limits) -> Connection {
        Connection(id: id, outbox: Outbox(limit: limits.outboxBytes,
                                          rule: .resynchronize(closingAt: limits.overflowsBeforeClosing)),
                   state: .lines(LineSession()))
    }

    /// A client of the page, idle from `now`.
    static func http(_ id: ClientID, page: WebServer, at now: ContinuousClock.Instant) -> Connection {
        Connection(id: id, outbox: Outbox(limit: page.limits.eventBytes, rule: .close),
                   state: .http(HTTPSession(stage: .idle(since: StoredInstant(now)))))
    }

    /// Whether it is a client of the page.
    var isHTTP: Bool { if case .http = state { true } else { false } }

    // MARK: - What it wants

    /// Whether it reads now: what it reads can be handed on (or, for HTTP, dropped), and its unsent bytes are
    /// within their caps.
    func isReading(_ limits: IOLoop.Limits) -> Bool {
        switch state {
        case .lines(let session): session.isReading(outbox, limits)
        case .http(let session): session.isReading
        case .modifying: false
        }
    }

    /// What the poller should wait for.
    func interest(_ limits: IOLoop.Limits) -> EventPoller.Interest {
        // Built from raw values: the option set's generic `insert` is not specialized for it across modules.
        EventPoller.Interest(rawValue: (isReading(limits) ? EventPoller.Interest.readable.rawValue : 0)
            | (outbox.isEmpty ? 0 : EventPoller.Interest.writable.rawValue))
    }

    /// Whether it has a request to hand the core and may hand it now (a socket client's turn, `takeTurn`).
    func wantsTurn(_ limits: IOLoop.Limits) -> Bool {
        guard case .lines(let session) = state else { return false }
        return session.mayHoldLines && session.mayTakeRequests(outbox, limits)
    }

    /// Its requests counted in the core's backlog: released when it closes.
    var requestsInCore: Int {
        guard case .lines(let session) = state else { return 0 }
        return session.requests.inBacklog
    }

    /// When `expire` is due (the page's timeouts); nil: never.
    func deadline(_ page: WebServer.Limits) -> ContinuousClock.Instant? {
        guard case .http(let session) = state else { return nil }
        return session.deadline(page)
    }

    /// Since when a client of the page may be closed to make room for a new one (waiting for a request, reading
    /// one, or finishing); nil when it may not (its request is with the core, or it is an event stream).
    var evictableSince: ContinuousClock.Instant? {
        guard case .http(let session) = state else { return nil }
        return session.evictableSince
    }

    /// Whether it is one of the page's event streams.
    var isEventStream: Bool {
        guard case .http(let session) = state else { return false }
        return session.isEventStream
    }

    // MARK: - What happened

    /// `bytes` were read (only while `isReading`).
    mutating func received(_ bytes: UnsafeRawBufferPointer, _ context: Context) -> Actions {
        switch state {
        case .lines:
            return withLines { session, _ in session.received(bytes) }
        case .http:
            let id = id
            return withHTTP { session, outbox in session.received(bytes, id, &outbox, context) }
        case .modifying:
            return .none
        }
    }

    /// The client ended its input (end of file): a socket client's requests are answered first (a half-close, as
    /// `printf … | nc -N` does); a client of the page is closed.
    mutating func receivedEnd() -> Actions {
        guard case .lines = state else { return .close }
        return withLines { session, _ in session.receivedEnd() }
    }

    /// Its turn with the core: hands on its next request (skipping up to `linesPerTurn` empty lines).
    mutating func takeTurn(_ limits: IOLoop.Limits) -> Actions {
        guard case .lines = state else { return .none }
        let id = id
        return withLines { session, outbox in session.takeTurn(id, &outbox, limits) }
    }

    /// The core's answer to one of its requests.
    mutating func answered(_ line: [UInt8], _ context: Context) -> Actions {
        let id = id
        switch state {
        case .lines:
            return withLines { session, outbox in session.answered(line, id, &outbox, context.limits) }
        case .http:
            return withHTTP { session, outbox in session.answered(line, id, &outbox, context) }
        case .modifying:
            return .none
        }
    }

    /// The core handed one of its requests to a worker (`ServiceOutput.offCore`).
    mutating func movedOffCore() -> Actions {
        guard case .lines = state else { return .none }
        return withLines { session, _ in session.movedOffCore() }
    }

    /// Bytes it asked for besides an answer: a subscription's snapshot.
    mutating func requested(_ bytes: [UInt8], _ limits: IOLoop.Limits) -> Actions {
        guard case .lines = state else { return .none }
        let id = id
        return withLines { _, outbox in LineSession.queueAnswer(bytes, id, &outbox, limits) }
    }

    /// The bytes of a broadcast event the loop may write at once, before giving it to `event`: nothing waits in the
    /// outbox, and it takes events now (a socket client reading along, an open event stream of the page). Nil: the
    /// event is only queued. A broadcast to thousands is so one `send` each and one pass over them, not a queue and
    /// a flush.
    func eventToWriteAtOnce(_ line: [UInt8], serverSent: [UInt8]?) -> [UInt8]? {
        guard outbox.writesEventsAtOnce else { return nil }
        if case .lines = state { return line }
        guard case .http(let session) = state, case .events(isOpen: true) = session.stage else { return nil }
        return serverSent
    }

    /// A broadcast event: `line` for a socket client, `serverSent` (the same as a Server-Sent Event) for an event
    /// stream of the page; its first `written` bytes went out at once (`eventToWriteAtOnce`), the rest is queued,
    /// subject to the outbox's cap and its overflow rule.
    mutating func event(_ line: [UInt8], serverSent: [UInt8]?, written: Int = 0) -> Actions {
        // The state is only looked at, never bound, before the outbox changes: a payload bound across a change of
        // the connection would be copied (a retain and a release per subscriber of each event).
        if case .lines = state {
            switch outbox.enqueue(line, written: written) {
            case .written, .skipped: return .none
            case .queued: return .flush
            case .overflowed: return Actions(input: .overflowed(id), flushes: true)
            case .closes: return .close
            }
        }
        guard isEventStream, let serverSent else { return .none }
        switch outbox.enqueue(serverSent, written: written) {
        case .written, .skipped, .overflowed: return .none
        case .queued: return .flush
        case .closes:
            return Actions(closes: true, warning: "web: closing an event stream that stopped reading")
        }
    }

    /// The `resync` line of a socket client that overflowed.
    mutating func beginResync(_ line: [UInt8]) -> Actions {
        guard case .lines = state else { return .none }
        outbox.beginResync(line)
        return .flush
    }

    /// The fresh snapshot that ends a socket client's resync.
    mutating func endResync(with snapshot: [UInt8]) -> Actions {
        guard case .lines = state else { return .none }
        outbox.enqueueRegardless(snapshot)
        outbox.endResync()
        return .flush
    }

    /// The loop wrote what the socket took (`flush` is what the outbox said).
    mutating func flushed(_ flush: Outbox.Flush, at now: ContinuousClock.Instant) -> Actions {
        guard flush != .blocked else { return .none }
        if case .http = state { return withHTTP { session, _ in session.written(at: now) } }
        if isClosingLines { return .close }
        return flush == .caughtUp ? Actions(input: .caughtUp(id)) : .none
    }

    /// Whether it is a socket client written its last bytes before it is closed.
    private var isClosingLines: Bool {
        guard case .lines(let session) = state else { return false }
        return session.phase == .closing
    }

    /// Its deadline passed (`deadline`).
    mutating func expire(_ context: Context) -> Actions {
        guard case .http = state else { return .none }
        return withHTTP { session, outbox in session.expire(&outbox, context) }
    }

    /// The loop stops: a socket client is written what is queued, then closed; a client of the page is closed.
    mutating func stop() -> Actions {
        guard case .lines = state else { return .close }
        return withLines { session, _ in session.stop() }
    }

    // MARK: - Changing a session in place

    /// Runs `body` on the line session taken out of the state, and puts it back.
    private mutating func withLines(_ body: (inout LineSession, inout Outbox) -> Actions) -> Actions {
        guard case .lines(var session) = state else { return .none }
        state = .modifying
        defer { state = .lines(session) }
        return body(&session, &outbox)
    }

    /// Runs `body` on the HTTP session taken out of the state, and puts it back.
    private mutating func withHTTP(_ body: (inout HTTPSession, inout Outbox) -> Actions) -> Actions {
        guard case .http(var session) = state else { return .none }
        state = .modifying
        defer { state = .http(session) }
        return body(&session, &outbox)
    }
}
