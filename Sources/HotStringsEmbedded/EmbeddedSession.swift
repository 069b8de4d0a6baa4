import BundleChanges
import BundleWatcher
import HotStringsClient
import HotStringsProtocol
import HotStringsService
import StringsFormat

/// What the embedded session handles, one at a time, in arrival order.
enum EmbeddedInput: Sendable {
    /// A settled batch from the watcher.
    case batch(ChangeBatch)
    /// A command of the client's engine.
    case command(TransportCommand)
    /// A request of the client (`setLanguage`), with where its answer goes.
    case request(Request, Reply)
    /// A pull installed nothing: an `error` event, kept for `status`.
    case problems([FileProblem])
}

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

/// The embedded transport's one connection to the protocol service: the engine's commands and the client's
/// requests become service requests, the service's outputs become deliveries, in order.
///
/// The connection is made (`.connected`) once the first scan is served. Requests of the client wait until
/// the engine's handshake is complete (its `languages` answer delivered), so that a `setLanguage` made
/// before finds the client switched when it returns, as over the daemon's socket.
final class EmbeddedSession {
    /// The only client of an embedded service.
    static let client: ClientID = 1

    private enum Pending {
        case subscription
        case serverInfo
        case reply(Reply)
    }

    private let service: ProtocolService<TransportEvents>
    private let deliver: @Sendable (Delivery) -> Void
    private var pending: [Int64: Pending] = [:]
    private var nextRequestID: Int64 = 1
    private var isHandshakeComplete = false
    private var heldRequests: [(Request, Reply)] = []

    init(service: ProtocolService<TransportEvents>, deliver: @escaping @Sendable (Delivery) -> Void) {
        self.service = service
        self.deliver = deliver
    }

    /// Handles inputs until the stream ends; requests still held then fail with `.connectionLost`.
    func run(_ inputs: AsyncStream<EmbeddedInput>) async {
        for await input in inputs {
            await handle(input)
        }
        for (_, reply) in heldRequests { reply.resume(returning: .failure(.connectionLost)) }
        heldRequests = []
    }

    private func handle(_ input: EmbeddedInput) async {
        switch input {
        case .batch(let batch):
            await perform(.batch(batch))
        case .problems(let problems):
            await perform(.problems(problems))
        case .command(.subscribe(let options)):
            await send(.subscribe(options), as: .subscription)
        case .command(.refreshServerInfo):
            await send(.languages, as: .serverInfo)
            guard !isHandshakeComplete else { return }
            isHandshakeComplete = true
            let held = heldRequests
            heldRequests = []
            for (request, reply) in held { await send(request, as: .reply(reply)) }
        case .request(let request, let reply):
            guard isHandshakeComplete else {
                heldRequests.append((request, reply))
                return
            }
            await send(request, as: .reply(reply))
        }
    }

    private func send(_ request: Request, as purpose: Pending) async {
        let id = nextRequestID
        nextRequestID += 1
        pending[id] = purpose
        await perform(.request(Self.client, .number(id), request))
    }

    private func perform(_ input: ServiceInput) async {
        for output in await service.handle(input) {
            switch output {
            case .firstScanServed:
                deliver(.event(.connected))
            case .event(let event, _), .snapshot(_, let event), .slowClientResync(_, let event),
                 .slowClientSnapshot(_, let event):
                deliver(.event(event))
            case .response(_, let requestID, let result):
                guard case .number(let id)? = requestID, let purpose = pending.removeValue(forKey: id) else { continue }
                answer(purpose, with: result)
            }
        }
    }

    private func answer(_ purpose: Pending, with result: Result<[(String, JSONValue)], ProtocolError>) {
        let fields = result.map { Dictionary($0, uniquingKeysWith: { _, last in last }) }
        switch purpose {
        case .subscription:
            break
        case .serverInfo:
            guard case .success(let fields) = fields, let info = ServerInfo(languagesResponse: fields) else { return }
            deliver(.event(.serverInfo(info)))
        case .reply(let reply):
            // Through the delivery queue, behind the events the request caused.
            deliver(.reply(reply, fields.mapError { error in
                .rejected(code: error.code.rawValue, message: error.message, available: error.available)
            }))
        }
    }
}
