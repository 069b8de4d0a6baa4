import HotStringsProtocol
import StringsFormat
import Synchronization
@testable import HotStringsClient

/// The real socket transport, watched: every event pokes a probe after the client has handled it, snapshot
/// epochs are recorded, and chosen reload events can be dropped to make a gap.
final class ObservedTransport: HotStringsTransport {
    private struct State {
        var snapshotEpochs: [UInt64] = []
        var reloadsToDrop = 0
        var dropped: [UInt64] = []
    }

    let base: SocketTransport
    let probe: ClientProbe
    private let state = Mutex(State())

    /// Watches a socket transport to `path` that retries quickly.
    init(path: String, probe: ClientProbe) {
        base = SocketTransport(options: SocketTransport.Options(
            path: path, clientName: "tests", backoff: Backoff(initial: .milliseconds(10), maximum: .milliseconds(200)),
            requestTimeout: .seconds(10)))
        self.probe = probe
    }

    func start(_ handler: @escaping @Sendable (TransportEvent) -> Void) {
        base.start { [self] event in
            let isDropped = state.withLock { state in
                if case .event(let epoch, _, .snapshot) = event { state.snapshotEpochs.append(epoch) }
                guard case .event(_, let seq, .reload) = event, state.reloadsToDrop > 0 else { return false }
                state.reloadsToDrop -= 1
                state.dropped.append(seq)
                return true
            }
            if !isDropped { handler(event) }
            probe.poke()
        }
    }

    func send(_ command: TransportCommand) { base.send(command) }

    func request(_ request: Request) async throws(LiveStringsError) -> Answer {
        try await base.request(request)
    }

    func stop() { base.stop() }

    /// The epoch of every snapshot received, in order.
    var snapshotEpochs: [UInt64] { state.withLock { $0.snapshotEpochs } }

    /// The seqs of the reload events dropped so far.
    var dropped: [UInt64] { state.withLock { $0.dropped } }

    /// Drops the next `count` reload events before the client sees them.
    func dropReloads(_ count: Int) {
        state.withLock { $0.reloadsToDrop += count }
    }
}
