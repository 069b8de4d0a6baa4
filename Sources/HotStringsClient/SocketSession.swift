import HotStringsProtocol
import LinuxSystem

/// One connection to the daemon, used only by the transport's thread: the `LiveStrings` protocol conversation
/// (hello, subscriptions, requests with deadlines) over a `LineConnection` driven by the thread's loop.
final class SocketSession {
    /// The connection; its `interrupter` wakes the loop from other threads.
    let connection: LineConnection
    /// Whether the daemon answered anything on this connection.
    private(set) var hasAnswered = false
    private let clientName: String?
    private var pending: [Int64: PendingRequest] = [:]
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
        queue(PendingRequest(.hello(client: clientName), .handshake))
        while true {
            if isStopped() { return "stopped" }
            for item in takeOutgoing() {
                switch item {
                case .command(.subscribe(let subscription)):
                    queue(PendingRequest(.subscribe(subscription), .handshake))
                case .command(.refreshServerInfo): queue(PendingRequest(.languages, .serverInfo))
                case .request(let request, let deadline, let reply):
                    queue(PendingRequest(request, .reply(reply), deadline: deadline))
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
        for case .reply(let reply) in pending.values.map(\.purpose) {
            reply.resume(returning: .failure(.connectionLost))
        }
        pending = [:]
        connection.close()
    }

    private func queue(_ request: PendingRequest) {
        pending[connection.queue(request.request)] = request
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
            guard let request = pending[id] else { return }
            guard let outcome = request.outcome(reading: result) else {
                // Unreadable, as a line that is no JSON: a caller's request waits for its deadline, the transport's
                // own are done with.
                if case .reply = request.purpose {} else { pending[id] = nil }
                return
            }
            pending[id] = nil
            switch outcome {
            case .none: break
            case .serverInfo(let info): handler(.serverInfo(info))
            case .reply(let reply, let answer): reply.resume(returning: answer)
            }
        case .response:
            break
        }
    }

    private func expireRequests() {
        let now = ContinuousClock.now
        for (id, request) in pending {
            if case .reply(let reply) = request.purpose, let deadline = request.deadline, deadline <= now {
                pending[id] = nil
                reply.resume(returning: .failure(.timedOut))
            }
        }
    }

    /// Until the next request deadline; forever otherwise (the poller also wakes for room to write).
    private func waitTimeout() -> Duration? {
        var earliest: ContinuousClock.Instant?
        for case let deadline? in pending.values.map(\.deadline) where earliest.map({ deadline < $0 }) ?? true {
            earliest = deadline
        }
        return earliest.map { max($0 - .now, .zero) }
    }
}
