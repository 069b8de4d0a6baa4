import BundleChanges
import BundleWatcher
import HotStringsLog
import HotStringsProtocol
import StringsFormat

/// A client of the service for as long as it is connected: a daemon connection, or the embedded client.
///
/// Never reused while the service runs (file descriptors are; these are not).
package typealias ClientID = UInt64

/// What a transport hands the protocol service, one at a time, in arrival order.
package enum ServiceInput: Sendable {
    /// One request line as it came off the wire (without its newline); the service decodes it.
    case requestLine(ClientID, [UInt8])
    /// A request already in typed form (the embedded transport), with the id its answer carries.
    case request(ClientID, RequestID?, Request)
    /// The client is gone: it is no longer subscribed.
    case closed(ClientID)
    /// The client fell too far behind and its backlog was dropped: it needs a `resync`.
    case overflowed(ClientID)
    /// The client has read its `resync`: it needs a fresh snapshot.
    case caughtUp(ClientID)
    /// The watcher settled a change.
    case batch(ChangeBatch)
    /// Problems outside the bundle's files (a pull that installed nothing): sent as `error` events, kept for
    /// `status`; nothing is served differently.
    case problems([FileProblem])
    /// A subscription the host's own front makes without a request (`watch`): no answer. Made before the first
    /// scan, it is in place at once, so the first scan's events reach it, its snapshot standing for the scan's
    /// reload (as after a `resync`).
    case subscribe(ClientID, Subscription)
    /// The work of the client's request `RequestID` is done off the core (`OffCoreWork`): the core answers it, then
    /// takes the client's requests it held meanwhile. Only the host's workers send it.
    case workDone(ClientID, RequestID?, WorkResult)
}

extension ServiceInput {
    /// The client whose request this is; nil for what is no request.
    var requester: ClientID? {
        switch self {
        case .requestLine(let client, _), .request(let client, _, _): client
        default: nil
        }
    }
}

/// The part of a request's answer that may block (a lock, a write and its `fsync`s, reading many files), which the
/// core hands to a worker thread of the host instead of doing it: the core answers every client, and must never
/// wait. Its result comes back to the core as `ServiceInput.workDone`.
package struct OffCoreWork: Sendable {
    /// Which worker runs it: writes wait for locks and flush to disk, reads read the bundle; neither waits for the
    /// other, and each runs its jobs in the order given.
    package enum Lane: Sendable, Hashable, CaseIterable {
        /// `set`, `remove`, the selection's save: `hotstrings-edit`.
        case writes
        /// `lint`, `states`, `status`'s release: `hotstrings-read`.
        case reads
    }

    /// Which worker runs it.
    package var lane: Lane
    /// The work; the closure it is given turns true when the host is stopping (a lock is waited for no longer).
    package var run: @Sendable (_ shouldGiveUp: () -> Bool) -> WorkResult

    /// Work for `lane`.
    package init(_ lane: Lane, _ run: @escaping @Sendable (_ shouldGiveUp: () -> Bool) -> WorkResult) {
        self.lane = lane
        self.run = run
    }
}

/// What a request's work off the core found, for the core to finish the request with.
package enum WorkResult: Sendable {
    /// The answer, whole.
    case answer(Result<Answer, ProtocolError>)
    /// `select-language`'s selection was saved (or not): the core then applies it (nil: cleared), or answers the
    /// failure with nothing changed.
    case selectionSaved(LanguageTag?, Result<Void, ProtocolError>)
}

/// What the protocol service asks its transport to deliver, in order; `Rendering` is how the transport carries
/// events and answers (encoded lines for the daemon and `watch`, typed values in process).
package enum ServiceOutput<Rendering: EventRendering>: Sendable {
    /// A rendered event.
    package typealias Event = Rendering.Rendered

    /// The first scan is in the store: from now on requests are answered (those that came earlier were held
    /// and are answered right after this).
    case firstScanServed
    /// The answer to a request of `ClientID`, rendered: the transport may take the client's next request.
    case response(ClientID, Rendering.RenderedAnswer)
    /// An event for these subscribers, rendered once for all of them.
    case event(Event, to: [ClientID])
    /// A snapshot for one subscriber: after its `subscribe` answer, or after a store-wide `resync`.
    case snapshot(ClientID, Event)
    /// The `resync` for a client that fell too far behind.
    case slowClientResync(ClientID, Event)
    /// The fresh snapshot that ends a slow client's resync.
    case slowClientSnapshot(ClientID, Event)
    /// A request of the client went off the core (`OffCoreWork`: an edit waiting for its folder's lock, a lint):
    /// until the client's next `response`, which answers it, the client's requests wait in the core, and a front
    /// that bounds the requests waiting for the core counts them no longer (they wait for a worker instead).
    case offCore(ClientID)
}

/// An answer as the service made it: the request's id, and the typed answer or the error.
package struct ServiceAnswer: Sendable {
    /// The id the request carried, repeated in its answer.
    package var requestID: RequestID?
    /// The answer, or the error.
    package var result: Result<Answer, ProtocolError>

    /// An answer to the request `requestID`.
    package init(requestID: RequestID?, result: Result<Answer, ProtocolError>) {
        self.requestID = requestID
        self.result = result
    }
}

/// How a transport carries events and answers: the service renders each event once per distinct audience, and
/// each answer, through this, on its own task (so the I/O thread only moves bytes). Its metatype crosses to the
/// core's thread, hence `SendableMetatype`.
package protocol EventRendering: SendableMetatype {
    /// A rendered event, shared by every subscriber it goes to.
    associatedtype Rendered: Sendable
    /// A rendered answer (typed, `ServiceAnswer`, unless the transport says otherwise).
    associatedtype RenderedAnswer: Sendable = ServiceAnswer

    /// Renders the answer to a request; what the operator should see of it (an `internal` error answered on a
    /// line) goes to `log`.
    static func render(_ answer: ServiceAnswer, log: LogSink) -> RenderedAnswer

    /// `rendered`, an answer rendered with no request id, as the answer to `requestID` (for answers kept and
    /// served again, such as a large `table`'s).
    static func answer(_ rendered: RenderedAnswer, to requestID: RequestID?) -> RenderedAnswer

    /// How many bytes `answer` holds, for the kept answers' byte cap.
    static func size(ofAnswer answer: RenderedAnswer) -> Int

    /// Renders `event` at position `epoch`/`seq`.
    static func render(_ event: ServerEvent, epoch: UInt64, seq: UInt64) -> Rendered

    /// How many bytes `rendered` holds, for the snapshot cache's byte cap.
    static func size(of rendered: Rendered) -> Int
}

extension EventRendering where RenderedAnswer == ServiceAnswer {
    /// The answer as it is (its client has it, typed: nothing is logged).
    package static func render(_ answer: ServiceAnswer, log: LogSink) -> ServiceAnswer { answer }

    /// The answer with `requestID`.
    package static func answer(_ rendered: ServiceAnswer, to requestID: RequestID?) -> ServiceAnswer {
        var answer = rendered
        answer.requestID = requestID
        return answer
    }

    /// Not counted: a typed answer shares its strings with the store's tables.
    package static func size(ofAnswer answer: ServiceAnswer) -> Int { 0 }
}

/// Events and answers as protocol lines (`EventEncoder`, `ResponseEncoder`), for the daemon's sockets and `watch`.
package enum WireLines: EventRendering {
    /// Encodes `answer` as one line, ending in `"\n"`; an `internal` error is logged to `log`, as the operator's to
    /// see.
    package static func render(_ answer: ServiceAnswer, log: LogSink) -> [UInt8] {
        switch answer.result {
        case .success(let typed):
            return ResponseEncoder.success(id: answer.requestID, typed)
        case .failure(let error):
            if error.code == .internal { log.warning("answered an error: \(error.message)") }
            return ResponseEncoder.failure(id: answer.requestID, error)
        }
    }

    /// The line with `requestID` in place of its `null` id.
    package static func answer(_ rendered: [UInt8], to requestID: RequestID?) -> [UInt8] {
        ResponseEncoder.line(rendered, answering: requestID)
    }

    /// The line's length.
    package static func size(ofAnswer answer: [UInt8]) -> Int { answer.count }

    /// Encodes `event` as one line, ending in `"\n"`.
    package static func render(_ event: ServerEvent, epoch: UInt64, seq: UInt64) -> [UInt8] {
        EventEncoder.encode(event, epoch: epoch, seq: seq)
    }

    /// The line's length.
    package static func size(of rendered: [UInt8]) -> Int { rendered.count }
}
