import HotStringsProtocol
import LinuxSystem

/// One connection to the daemon, used only by the transport's thread: reads lines into events and answers,
/// writes requests, and times requests out.
final class SocketSession {
    /// Lines from the daemon have no length limit (a snapshot of a big bundle is one line of megabytes).
    static let maximumLineLength = 1 << 32

    /// What a request in flight was for.
    private enum Pending {
        case hello
        case subscribe
        case serverInfo
        case user(deadline: ContinuousClock.Instant, SocketTransport.Reply)
    }

    let poller: Poller
    /// Whether the daemon answered anything on this connection.
    private(set) var hasAnswered = false
    private let fd: Int32
    private let clientName: String?
    private var framer = LineFramer(maximumLineLength: SocketSession.maximumLineLength)
    private var readBuffer = [UInt8](repeating: 0, count: 64 * 1024)
    private var outbox: [UInt8] = []
    private var pending: [Int64: Pending] = [:]
    private var lastID: Int64 = 0
    private var isClosed = false

    /// Connects to `options.path`; nil when no daemon accepts there (or no poller could be made).
    init?(options: SocketTransport.Options) {
        guard let poller = try? Poller() else { return nil }
        guard let fd = try? UnixSocket.connect(toPath: options.path, nonBlocking: true) else {
            poller.close()
            return nil
        }
        do {
            try poller.add(fd)
        } catch {
            SocketIO.close(fd)
            poller.close()
            return nil
        }
        self.poller = poller
        self.fd = fd
        self.clientName = options.clientName
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
                try flush()
                if let ended = try readAvailable(handler: handler) { return ended }
            } catch {
                return "\(error)"
            }
            expireRequests()
            do {
                _ = try poller.wait(timeout: waitTimeout())
            } catch {
                return "\(error)"
            }
        }
    }

    /// Closes the socket and the poller; requests still waiting, here or in `abandoned`, fail.
    func close(failing abandoned: [SocketTransport.Outgoing]) {
        for item in abandoned {
            if case .request(_, _, let reply) = item { reply.resume(returning: .failure(.connectionLost)) }
        }
        guard !isClosed else { return }
        isClosed = true
        for case .user(_, let reply) in pending.values { reply.resume(returning: .failure(.connectionLost)) }
        pending = [:]
        poller.remove(fd)
        SocketIO.close(fd)
        poller.close()
    }

    private func queue(_ request: Request, as kind: Pending) {
        lastID += 1
        pending[lastID] = kind
        outbox.append(contentsOf: RequestEncoder.encode(id: .number(lastID), request))
    }

    /// Writes what the socket takes now; the rest waits for the next turn.
    private func flush() throws(SystemError) {
        guard !outbox.isEmpty else { return }
        let written: Result<Int, SystemError> = outbox.withUnsafeBytes { bytes in
            Result { () throws(SystemError) in try SocketIO.write(fd, bytes) }
        }
        outbox.removeFirst(try written.get())
    }

    /// Reads everything available and dispatches the complete lines; returns a reason when the connection
    /// ended.
    private func readAvailable(handler: (TransportEvent) -> Void) throws(SystemError) -> String? {
        while true {
            let result: Result<SocketIO.ReadResult, SystemError> = readBuffer.withUnsafeMutableBytes { buffer in
                Result { () throws(SystemError) in try SocketIO.read(fd, into: buffer) }
            }
            switch try result.get() {
            case .data(let count):
                framer.append(contentsOf: readBuffer[..<count])
                while let line = framer.nextLine() {
                    guard case .success(let bytes) = line else { return "a line from the daemon is too long" }
                    dispatch(bytes, handler: handler)
                }
            case .wouldBlock:
                return nil
            case .closed:
                return "the daemon closed the connection"
            }
        }
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

    /// Until the next request deadline; briefly when bytes wait to be written (the poller watches only for
    /// readability); forever otherwise.
    private func waitTimeout() -> Duration? {
        if !outbox.isEmpty { return .milliseconds(5) }
        var earliest: ContinuousClock.Instant?
        for case .user(let deadline, _) in pending.values where earliest.map({ deadline < $0 }) ?? true {
            earliest = deadline
        }
        return earliest.map { max($0 - .now, .zero) }
    }
}
