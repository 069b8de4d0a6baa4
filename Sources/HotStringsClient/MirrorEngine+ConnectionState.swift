/// Where the mirror stands with its source: one state instead of Booleans that could contradict each other.
enum ConnectionState: Equatable {
    /// No connection: lookups answer from the tables as they are; the transport reconnects.
    case offline
    /// Between `.connected` and the first `.serverInfo`: changes are collected and reported once, when the
    /// handshake ends. `isAwaitingSnapshot`: a `resync` or a gap came meanwhile, so table events are skipped
    /// until the snapshot that follows.
    case handshaking(isAwaitingSnapshot: Bool)
    /// Connected, but the tables wait for a snapshot (none yet, or after a `resync`, a gap or a new language
    /// filter): table events other than the snapshot are skipped.
    case awaitingSnapshot
    /// Connected, with a snapshot of the current connection, following the stream event by event.
    case live

    /// Whether a connection is up.
    var isConnected: Bool { self != .offline }

    /// Whether the first `.serverInfo` of the connection is still to come.
    var isHandshaking: Bool {
        if case .handshaking = self { return true }
        return false
    }

    /// Whether table events wait for a snapshot.
    var isAwaitingSnapshot: Bool {
        self == .awaitingSnapshot || self == .handshaking(isAwaitingSnapshot: true)
    }

    /// The state once a snapshot is expected on this connection (offline: nothing to expect).
    var expectingSnapshot: ConnectionState {
        switch self {
        case .offline: .offline
        case .handshaking: .handshaking(isAwaitingSnapshot: true)
        case .awaitingSnapshot, .live: .awaitingSnapshot
        }
    }

    /// The state once a snapshot arrived.
    var withSnapshot: ConnectionState {
        switch self {
        case .offline: .offline
        case .handshaking: .handshaking(isAwaitingSnapshot: false)
        case .awaitingSnapshot, .live: .live
        }
    }

    /// The state once the handshake ended, `hasTables` telling whether a snapshot was ever applied.
    func afterHandshake(hasTables: Bool) -> ConnectionState {
        guard case .handshaking(let isAwaitingSnapshot) = self else { return self }
        return isAwaitingSnapshot || !hasTables ? .awaitingSnapshot : .live
    }
}
