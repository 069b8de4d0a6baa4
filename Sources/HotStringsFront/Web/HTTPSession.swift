import HotStringsProtocol
import HotStringsService
import StringsFormat

/// The page's HTTP on a connection: one request at a time (keep-alive; a pipelined request waits in the input until
/// the one before it is answered), so a connection has at most one request in the core, and the cap on connections
/// bounds what HTTP adds to the core's work (its requests are not counted in the core's backlog). Answers are
/// queued whole; an event stream's events go through the outbox, whose overflow rule closes a stream that stopped
/// reading (`WebServer.Limits.eventBytes`).
struct HTTPSession {
    /// Where the connection is.
    enum Stage {
        /// Between requests, since `since` (closed `WebServer.Limits.idleTimeout` after).
        case idle(since: StoredInstant)
        /// Reading a request that began at `since` (408 after `requestTimeout`).
        case reading(since: StoredInstant)
        /// Its request is with the core; what the client sent after it waits in the input.
        case awaitingCore(WebCall, keepsAlive: Bool)
        /// An event stream: waiting for the subscription's answer (`isOpen` false), then relaying events.
        case events(isOpen: Bool)
        /// Its last answer is being written (from `since`, for at most `lingerTimeout`); then its writing side is shut
        /// and it lingers.
        case closing(since: StoredInstant)
        /// Reading and dropping what the client still sends, until it closes or `lingerTimeout` after `since`, so
        /// that the answer is not lost to a reset.
        case lingering(since: StoredInstant)
    }

    private(set) var stage: Stage
    /// Bytes received and not taken as a request yet.
    private var input: [UInt8] = []

    init(stage: Stage) {
        self.stage = stage
    }

    /// Whether it is read (not while its request is with the core, nor while its last answer is written).
    var isReading: Bool {
        switch stage {
        case .awaitingCore, .closing: false
        case .idle, .reading, .events, .lingering: true
        }
    }

    /// Whether it is an event stream (open, or waiting for its subscription's answer).
    var isEventStream: Bool { if case .events = stage { true } else { false } }

    /// When its stage times out; nil while the core or an event stream holds it.
    func deadline(_ limits: WebServer.Limits) -> ContinuousClock.Instant? {
        switch stage {
        case .idle(let since): since.instant + limits.idleTimeout
        case .reading(let since): since.instant + limits.requestTimeout
        case .closing(let since), .lingering(let since): since.instant + limits.lingerTimeout
        case .awaitingCore, .events: nil
        }
    }

    /// Since when it may be closed to make room (waiting for a request, reading one, or finishing).
    var evictableSince: ContinuousClock.Instant? {
        switch stage {
        case .idle(let since), .reading(let since), .closing(let since), .lingering(let since): since.instant
        case .awaitingCore, .events: nil
        }
    }

    /// Bytes read: a request's, taken and answered or handed on once whole; dropped while lingering or from an event
    /// stream's client.
    mutating func received(_ bytes: UnsafeRawBufferPointer, _ id: ClientID, _ outbox: inout Outbox,
                           _ context: Connection.Context) -> Connection.Actions {
        switch stage {
        case .lingering, .events:
            // Dropped: a lingering client's rest, and an event stream's client has nothing to say.
            return .none
        case .idle:
            stage = .reading(since: StoredInstant(context.now))
        case .reading, .awaitingCore, .closing:
            break
        }
        input += bytes
        return process(id, &outbox, context)
    }

    /// Takes the next request out of the input when it is whole, and answers it or hands it on; again for the one
    /// after it, as long as each is answered here.
    private mutating func process(_ id: ClientID, _ outbox: inout Outbox, _ context: Connection.Context)
        -> Connection.Actions {
        guard let page = context.page else { return .close }
        var actions = Connection.Actions()
        while true {
            switch stage {
            case .idle, .reading: break
            case .awaitingCore, .events, .closing, .lingering: return actions
            }
            guard !input.isEmpty else {
                stage = .idle(since: StoredInstant(context.now))
                return actions
            }
            if case .idle = stage { stage = .reading(since: StoredInstant(context.now)) }
            switch HTTPRequestHead.parse(input, limit: page.limits.headBytes) {
            case .incomplete:
                return actions
            case .refused(let status, let reason):
                actions.warning = "web: refused a request (\(status.code)): \(reason)"
                finish(.text(status, reason), keepsAlive: false, &outbox, context.now, &actions)
                return actions
            case .head(let head, let length):
                guard head.contentLength <= page.limits.bodyBytes else {
                    actions.warning = "web: refused a body of \(head.contentLength) bytes (413)"
                    finish(.text(.contentTooLarge, "bodies are limited to \(page.limits.bodyBytes) bytes"),
                           keepsAlive: false, &outbox, context.now, &actions)
                    return actions
                }
                guard input.count >= length + head.contentLength else { return actions }
                let body = Array(input[length..<(length + head.contentLength)])
                input.removeFirst(length + head.contentLength)
                route(head, body, page, id, &outbox, context, &actions)
            }
        }
    }

    /// Checks access, then answers the request or hands it to the core.
    private mutating func route(_ head: HTTPRequestHead, _ body: [UInt8], _ page: WebServer, _ id: ClientID,
                                _ outbox: inout Outbox, _ context: Connection.Context,
                                _ actions: inout Connection.Actions) {
        switch page.access.check(head) {
        case .refused(let reason):
            actions.warning = "web: refused \(DisplayText.escaped(head.method, limit: 16)) "
                + "\(DisplayText.escaped(head.path, limit: 200)) (403): \(DisplayText.escaped(reason, limit: 200))"
            finish(.text(.forbidden, "forbidden"), keepsAlive: head.keepsAlive, &outbox, context.now, &actions)
        case .redirect(let location, let cookie):
            var response = HTTPResponse.text(.seeOther, "see \(location)")
            response.extraHeaders = [("Location", location), ("Set-Cookie", cookie)]
            finish(response, keepsAlive: head.keepsAlive, &outbox, context.now, &actions)
        case .allowed:
            switch WebRoutes.route(head, body) {
            case .respond(let response):
                finish(response, keepsAlive: head.keepsAlive, &outbox, context.now, &actions)
            case .call(let call, let input):
                stage = .awaitingCore(call, keepsAlive: head.keepsAlive)
                actions.input = input(id)
            case .events:
                guard context.eventStreams < page.limits.eventStreams else {
                    finish(.text(.unavailable, "too many event streams"), keepsAlive: false, &outbox, context.now,
                           &actions)
                    return
                }
                stage = .events(isOpen: false)
                actions.input = .request(id, nil, .subscribe(Subscription(snapshot: false)))
                actions.opensEventStream = true
            }
        }
    }

    /// Queues an answer; the connection then takes its next request, or is closed once it is written.
    private mutating func finish(_ response: HTTPResponse, keepsAlive: Bool, _ outbox: inout Outbox,
                                 _ now: ContinuousClock.Instant, _ actions: inout Connection.Actions) {
        outbox.enqueueRegardless(response.serialized(keepsAlive: keepsAlive))
        actions.flushes = true
        if keepsAlive {
            stage = .idle(since: StoredInstant(now))
        } else {
            stage = .closing(since: StoredInstant(now))
            input = []
        }
    }

    /// The core's answer: the call's HTTP answer, then the next request the client sent meanwhile; or, for an event
    /// stream, its subscription: the stream's head.
    mutating func answered(_ line: [UInt8], _ id: ClientID, _ outbox: inout Outbox, _ context: Connection.Context)
        -> Connection.Actions {
        switch stage {
        case .awaitingCore(let call, let keepsAlive):
            var actions = Connection.Actions()
            finish(WebRoutes.response(to: call, answer: line), keepsAlive: keepsAlive, &outbox, context.now, &actions)
            let next = process(id, &outbox, context)
            actions.input = next.input
            actions.opensEventStream = next.opensEventStream
            return actions
        case .events(isOpen: false):
            stage = .events(isOpen: true)
            outbox.enqueueRegardless(HTTPResponse.eventStreamHead())
            return .flush
        case .idle, .reading, .events, .closing, .lingering:
            return .none
        }
    }

    /// Everything queued was written: after the last answer, the writing side is shut and the connection lingers.
    mutating func written(at now: ContinuousClock.Instant) -> Connection.Actions {
        guard case .closing = stage else { return .none }
        stage = .lingering(since: StoredInstant(now))
        return Connection.Actions(shutsDownWrite: true)
    }

    /// Past its deadline: a slow request gets 408 (then closes); an idle, finishing or lingering connection is closed.
    mutating func expire(_ outbox: inout Outbox, _ context: Connection.Context) -> Connection.Actions {
        guard case .reading = stage, let page = context.page else { return .close }
        var actions = Connection.Actions(warning: "web: a request took longer than \(page.limits.requestTimeout) (408)")
        finish(.text(.requestTimeout, "request timeout"), keepsAlive: false, &outbox, context.now, &actions)
        return actions
    }

    /// The SSE form of an event line: `data: ` and the line without its newline, then a blank line.
    static func serverSentEvent(_ line: [UInt8]) -> [UInt8] {
        let data = line.last == UInt8(ascii: "\n") ? line.dropLast() : line[...]
        return Array("data: ".utf8) + data + Array("\n\n".utf8)
    }
}

/// An instant of the loop's clock as a connection stores it: a `Duration` from a fixed instant. `ContinuousClock.Instant`
/// has no fixed layout outside the standard library, so a connection holding one would be copied, moved and matched
/// through runtime calls, for each of thousands of subscribers of each event.
struct StoredInstant: Comparable, Sendable {
    private static let origin = ContinuousClock.now
    private let offset: Duration

    /// `instant`, stored.
    init(_ instant: ContinuousClock.Instant) {
        offset = instant - Self.origin
    }

    /// The instant it stands for.
    var instant: ContinuousClock.Instant { Self.origin + offset }

    static func < (lhs: StoredInstant, rhs: StoredInstant) -> Bool { lhs.offset < rhs.offset }
}
