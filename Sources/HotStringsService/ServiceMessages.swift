import BundleChanges
import BundleWatcher
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
}

/// What the protocol service asks its transport to deliver, in order; `Event` is how the transport carries
/// events (encoded lines for the daemon, typed events in process).
package enum ServiceOutput<Event: Sendable>: Sendable {
    /// The first scan is in the store: from now on requests are answered (those that came earlier were held
    /// and are answered right after this).
    case firstScanServed
    /// The answer to a request of `ClientID`: the members after `id` and `ok`, or the error.
    case response(ClientID, RequestID?, Result<[(String, JSONValue)], ProtocolError>)
    /// An event for these subscribers, rendered once for all of them.
    case event(Event, to: [ClientID])
    /// A snapshot for one subscriber: after its `subscribe` answer, or after a store-wide `resync`.
    case snapshot(ClientID, Event)
    /// The `resync` for a client that fell too far behind.
    case slowClientResync(ClientID, Event)
    /// The fresh snapshot that ends a slow client's resync.
    case slowClientSnapshot(ClientID, Event)
}

/// How a transport carries events: the service renders each event once per distinct audience through this.
package protocol EventRendering {
    /// A rendered event, shared by every subscriber it goes to.
    associatedtype Rendered: Sendable

    /// Renders `event` at position `epoch`/`seq`.
    static func render(_ event: ServerEvent, epoch: UInt64, seq: UInt64) -> Rendered

    /// How many bytes `rendered` holds, for the snapshot cache's byte cap.
    static func size(of rendered: Rendered) -> Int
}

/// Events as protocol lines (`EventEncoder`), for the daemon's sockets.
package enum WireLines: EventRendering {
    /// Encodes `event` as one line, ending in `"\n"`.
    package static func render(_ event: ServerEvent, epoch: UInt64, seq: UInt64) -> [UInt8] {
        switch event {
        case .snapshot(let tables):
            EventEncoder.snapshot(epoch: epoch, seq: seq, tables: tables)
        case .reload(let changes):
            EventEncoder.reload(epoch: epoch, seq: seq, changes: changes)
        case .error(let file, let line, let column, let message):
            EventEncoder.error(epoch: epoch, seq: seq, file: file, line: line, column: column, message: message)
        case .language(let language, let previous):
            EventEncoder.language(epoch: epoch, seq: seq, language: language, previous: previous)
        case .resync(let reason):
            EventEncoder.resync(epoch: epoch, seq: seq, reason: reason)
        case .unknown(let name, _):
            preconditionFailure("the service never sends an event it does not know ('\(name)')")
        }
    }

    /// The line's length.
    package static func size(of rendered: [UInt8]) -> Int { rendered.count }
}
