import HotStringsProtocol
import LinuxSystem

/// One connection to the daemon, used only by the transport's thread: the `LiveStrings` protocol conversation
/// (hello, subscriptions, requests with deadlines) over a `LineConnection` driven by the thread's loop.
final class SocketSession {
    /// What a request in flight was for.
    private enum Pending {
        case hello
        case subscribe
        case serverInfo
        case user(deadline: ContinuousClock.Instant, SocketTransport.Reply)
    }

    /// The connection; its `interrupter` wakes the loop from other threads.
    let connection: LineConnection
    /// Whether the daemon answered anything on this connection.
    private(set) var hasAnswered = false
    private let clientName: String?
    private var pending: [Int64: Pending] = [:]
    private var isClosed = false

    /// Connects to `options.path` and checks the server with `options.trust`.
    /// - Throws: `ConnectionError` when no daemon accepts there or its server is not trusted.
    init(options: SocketTransport.Options) throws(ConnectionError) {
        connection = try LineConnection(path: options.path, trust: options.trust)
        clientName = options.clientName
    }

    deinit {
        close(failing: [])
    }

    /// Serves the connection until it ends or `isStopped()`; returns why it ended.
    ///
    /// `takeOutgoing` hands over what other threads queued since the last call; `handler` gets every event
    /// and `languages` answer in the order they arrived.
    func run(handler: (TransportEvent) -> Void, takeOutgoing: () -> [SocketTransport.Outgoing],
             isStopped: () -> Bool) -> String {
        queue(.hello(client: clientName), as: .hello)
        while true {
            if isStopped() { return "stopped" }
            for item in takeOutgoing() {
                switch item {
                case .command(.subscribe(let subscription)): queue(.subscribe(subscription), as: .subscribe)
                case .command(.refreshServerInfo): queue(.languages, as: .serverInfo)
                case .request(let request, let deadline, let reply):
                    queue(request, as: .user(deadline: deadline, reply))
                }
            }
            do {
                try connection.flush()
                try connection.readAvailable()
                while let line = try connection.nextLine() { dispatch(line, handler: handler) }
                if connection.isClosedByPeer { return "the daemon closed the connection" }
                expireRequests()
                try connection.wait(timeout: waitTimeout())
            } catch {
                return "\(error)"
            }
        }
    }

    /// Closes the connection; requests still waiting, here or in `abandoned`, fail.
    func close(failing abandoned: [SocketTransport.Outgoing]) {
        for item in abandoned {
            if case .request(_, _, let reply) = item { reply.resume(returning: .failure(.connectionLost)) }
        }
        guard !isClosed else { return }
        isClosed = true
        for case .user(_, let reply) in pending.values { reply.resume(returning: .failure(.connectionLost)) }
        pending = [:]
        connection.close()
    }

    private func queue(_ request: Request, as kind: Pending) {
        pending[connection.queue(request)] = kind
    }

    private func dispatch(_ line: [UInt8], handler: (TransportEvent) -> Void) {
        // A line that cannot be read is skipped: if it was an event, the next one shows a gap and the engine
        // asks for a snapshot.
        guard let message = try? ServerMessage.decode(line) else { return }
        hasAnswered = true
        switch message {
        case .event(let name, let epoch, let seq, let body):
            guard let event = try? ServerEvent(name: name, body: body) else { return }
            handler(.event(epoch: epoch, seq: seq, event))
        case .response(.number(let id)?, let result):
            guard let kind = pending.removeValue(forKey: id) else { return }
            switch kind {
            case .hello, .subscribe:
                break
            case .serverInfo:
                if case .success(let fields) = result, let info = ServerInfo(languagesResponse: fields) {
                    handler(.serverInfo(info))
                }
            case .user(_, let reply):
                reply.resume(returning: result.mapError { error in
                    .rejected(code: error.code.rawValue, message: error.message, available: error.available)
                })
            }
        case .response:
            break
        }
    }

    private func expireRequests() {
        let now = ContinuousClock.now
        for (id, kind) in pending {
            if case .user(let deadline, let reply) = kind, deadline <= now {
                pending[id] = nil
                reply.resume(returning: .failure(.timedOut))
            }
        }
    }

    /// Until the next request deadline; forever otherwise (the poller also wakes for room to write).
    private func waitTimeout() -> Duration? {
        var earliest: ContinuousClock.Instant?
        for case .user(let deadline, _) in pending.values where earliest.map({ deadline < $0 }) ?? true {
            earliest = deadline
        }
        return earliest.map { max($0 - .now, .zero) }
    }
}
