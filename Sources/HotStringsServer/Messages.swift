import BundleChanges
import BundleWatcher
import LinuxSystem
import StringsFormat

/// A client connection's identity for the server's lifetime (file descriptors are reused; these are not).
package typealias ConnectionID = UInt64

/// What the I/O thread tells the server core.
enum CoreInput: Sendable {
    /// A client connected and passed the peer check.
    case opened(ConnectionID)
    /// One request line (without its newline).
    case request(ConnectionID, [UInt8])
    /// The client is gone.
    case closed(ConnectionID)
    /// The client fell more than its buffer behind: its backlog was dropped; queue `resync` for it.
    case overflowed(ConnectionID)
    /// The client has read its `resync` line: queue a fresh snapshot for it.
    case caughtUp(ConnectionID)
    /// The watcher settled a change.
    case batch(ChangeBatch)
    /// A pull installed nothing: an `error` event for every subscriber.
    case problems([FileProblem])
}

/// What the server core asks the I/O thread to do.
enum IOCommand: Sendable {
    /// A response: queued whatever the client's buffer holds (the client asked for it).
    case send(ConnectionID, [UInt8])
    /// An event for these subscribers: subject to each one's buffer cap. One buffer, shared.
    case broadcast([UInt8], [ConnectionID])
    /// The `resync` line for a client that overflowed.
    case resync(ConnectionID, [UInt8])
    /// The fresh snapshot that ends a client's resync.
    case snapshot(ConnectionID, [UInt8])
    /// A request of this client has been answered (it may send more).
    case requestDone(ConnectionID)
}
