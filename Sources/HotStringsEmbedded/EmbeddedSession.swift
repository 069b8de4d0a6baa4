import HotStringsClient
import HotStringsProtocol
import HotStringsService
import Synchronization

/// Events in process: the transport events the client's engine reads, without encoding them.
enum TransportEvents: EventRendering {
    static func render(_ event: ServerEvent, epoch: UInt64, seq: UInt64) -> TransportEvent {
        .event(epoch: epoch, seq: seq, event)
    }

    /// An estimate of the bytes a snapshot holds (its keys and values); other events count as small.
    static func size(of rendered: TransportEvent) -> Int {
        guard case .event(_, _, .snapshot(let tables)) = rendered else { return 64 }
        return tables.reduce(0) { total, table in
            table.entries.reduce(total + 64) { $0 + $1.0.utf8.count + $1.1.utf8.count + 16 }
        }
    }
}

/// The embedded transport's one connection to the service host: the engine's commands and the client's
/// requests become service requests (on the caller's thread, in order), the host's outputs become deliveries
/// (on the core's thread, in order).
///
/// The connection is made (`.connected`) once the first scan is served. Requests of the client wait until
/// the engine's handshake is complete (its `languages` request made), so that a `setLanguage` made before
/// finds the client switched when it returns, as over the daemon's socket.
final class EmbeddedSession: Sendable {
    /// The only client of an embedded service.
    static let client: ClientID = 1

    private struct State {
        var pending: [Int64: PendingRequest] = [:]
        var nextRequestID: Int64 = 1
        var isHandshakeComplete = false
        var heldRequests: [(Request, AnswerReply)] = []
        var isStopped = false
    }

    private let host: ServiceHost<TransportEvents>
    private let deliver: @Sendable (Delivery) -> Void
    private let state = Mutex(State())

    init(host: ServiceHost<TransportEvents>, deliver: @escaping @Sendable (Delivery) -> Void) {
        self.host = host
        self.deliver = deliver
    }

    /// Hands on a command of the client's engine.
    func send(_ command: TransportCommand) {
        state.withLock { state in
            switch command {
            case .subscribe(let options):
                submit(PendingRequest(.subscribe(options), .handshake), &state)
            case .refreshServerInfo:
                submit(PendingRequest(.languages, .serverInfo), &state)
                guard !state.isHandshakeComplete else { return }
                state.isHandshakeComplete = true
                let held = state.heldRequests
                state.heldRequests = []
                for (request, reply) in held { submit(PendingRequest(request, .reply(reply)), &state) }
            }
        }
    }

    /// Hands on a request of the client; its answer goes to `reply` (`.notConnected` once stopped).
    func request(_ request: Request, _ reply: AnswerReply) {
        let isRefused = state.withLock { state -> Bool in
            guard !state.isStopped else { return true }
            guard state.isHandshakeComplete else {
                state.heldRequests.append((request, reply))
                return false
            }
            return !submit(PendingRequest(request, .reply(reply)), &state)
        }
        if isRefused { reply.resume(returning: .failure(.notConnected)) }
    }

    /// Refuses new requests; those still held fail with `.connectionLost`.
    func stop() {
        let held = state.withLock { state in
            state.isStopped = true
            defer { state.heldRequests = [] }
            return state.heldRequests
        }
        for (_, reply) in held { reply.resume(returning: .failure(.connectionLost)) }
    }

    @discardableResult
    private func submit(_ request: PendingRequest, _ state: inout State) -> Bool {
        let id = state.nextRequestID
        state.nextRequestID += 1
        guard host.submit(.request(Self.client, .number(id), request.request)) else { return false }
        state.pending[id] = request
        return true
    }

    /// Delivers the outputs of one input, in order (on the core's thread).
    func handle(_ outputs: [ServiceOutput<TransportEvents>]) {
        for output in outputs {
            switch output {
            case .firstScanServed:
                deliver(.event(.connected))
            case .offCore:
                // Answers are matched by request id: a request waiting for a worker holds nothing here.
                continue
            case .event(let event, _), .snapshot(_, let event), .slowClientResync(_, let event),
                 .slowClientSnapshot(_, let event):
                deliver(.event(event))
            case .response(_, let answer):
                guard case .number(let id)? = answer.requestID,
                      let request = state.withLock({ $0.pending.removeValue(forKey: id) })
                else { continue }
                switch request.outcome(of: answer.result) {
                case .none: break
                case .serverInfo(let info): deliver(.event(.serverInfo(info)))
                // Through the delivery queue, behind the events the request caused.
                case .reply(let reply, let result): deliver(.reply(reply, result))
                }
            }
        }
    }
}
