import Dispatch
import Foundation
import HotStringsProtocol
import LinuxSystem
import Synchronization

/// The transport to a `hotstrings serve` daemon over its Unix socket.
///
/// One background thread owns the socket: it connects, says `hello`, delivers events, sends queued requests
/// and commands, and when the connection fails or ends, waits with `Backoff` and connects again, for as
/// long as the transport is not stopped. Every wait is a wait of the connection's `EventPoller` (through
/// `LineConnection.wait`) or of the retry semaphore, and `stop()` and new requests interrupt both (the
/// connection's `ConnectionInterrupter`, the semaphore's signal), so the thread uses no CPU while nothing happens.
final class SocketTransport: HotStringsTransport {
    /// Where and how to connect.
    struct Options: Sendable {
        /// The socket path.
        var path: String
        /// The name sent in `hello`, for the daemon's logs.
        var clientName: String?
        /// The waits between connection attempts.
        var backoff: Backoff
        /// How long a request waits for its answer.
        var requestTimeout: Duration
        /// Which servers the transport believes; others are refused as a failed connection attempt would be.
        var trust = ServerTrust()
    }

    /// A request or command waiting for the thread to send it.
    enum Outgoing: Sendable {
        case command(TransportCommand)
        case request(Request, deadline: ContinuousClock.Instant, AnswerReply)
    }

    /// What the caller threads and the connection thread share.
    struct Shared {
        var isStarted = false
        var isStopped = false
        /// Wakes the live connection; nil between connections. Used only under the lock, and removed under
        /// the lock before the connection is closed, so a wake-up never writes to a closed descriptor.
        var interrupter: ConnectionInterrupter?
        var outgoing: [Outgoing] = []
        /// Why the last connection attempt was refused, when it was refused because of who the server is:
        /// what a request gets instead of `.notConnected` until a connection succeeds.
        var refusal: LiveStringsError?
    }

    let options: Options
    private let shared = Mutex(Shared())
    /// Interrupts the wait between connection attempts.
    private let retrySignal = DispatchSemaphore(value: 0)

    init(options: Options) {
        self.options = options
    }

    /// The transport a `LiveStrings` made with `configuration` uses.
    convenience init(configuration: LiveStrings.Configuration) {
        let path = SocketPath.resolve(option: configuration.socketPath, environment: configuration.environment,
                                      userID: ProcessStatistics.userID)
        let backoff = Backoff(initial: configuration.reconnectDelay, maximum: configuration.maximumReconnectDelay)
        self.init(options: Options(
            path: path, clientName: configuration.clientName, backoff: backoff,
            requestTimeout: configuration.requestTimeout,
            trust: ServerTrust(trustedUserIDs: configuration.trustedServerUserIDs)
        ))
    }

    func start(_ handler: @escaping @Sendable (TransportEvent) -> Void) {
        let isFirst = shared.withLock { shared in
            defer { shared.isStarted = true }
            return !shared.isStarted
        }
        precondition(isFirst, "a transport is started once")
        _ = NamedThread.run(name: "hotstrings-client") { [self] in run(handler) }
    }

    func send(_ command: TransportCommand) {
        _ = enqueue(.command(command))
    }

    func request(_ request: Request) async throws(LiveStringsError) -> Answer {
        let deadline = ContinuousClock.now + options.requestTimeout
        let result = await withCheckedContinuation { (reply: AnswerReply) in
            if let failure = enqueue(.request(request, deadline: deadline, reply)) {
                reply.resume(returning: .failure(failure))
            }
        }
        return try result.get()
    }

    func stop() {
        shared.withLock { shared in
            shared.isStopped = true
            shared.interrupter?.wake()
        }
        retrySignal.signal()
    }

    /// Queues `item` for the live connection and wakes it; when there is none, why (`.notConnected`, or the
    /// refusal of an untrusted server).
    private func enqueue(_ item: Outgoing) -> LiveStringsError? {
        shared.withLock { shared in
            guard let interrupter = shared.interrupter, !shared.isStopped else {
                return shared.refusal ?? .notConnected
            }
            shared.outgoing.append(item)
            interrupter.wake()
            return nil
        }
    }

    private var isStopped: Bool { shared.withLock { $0.isStopped } }

    // MARK: - The connection thread

    private func run(_ handler: @escaping @Sendable (TransportEvent) -> Void) {
        var failures = 0
        while !isStopped {
            switch Result(catching: { () throws(ConnectionError) in try SocketSession(options: options) }) {
            case .success(let session):
                serve(session, handler: handler)
                // A connection that got as far as answering counts as a success: start the backoff over.
                failures = session.hasAnswered ? 0 : failures
            case .failure(.untrustedServer(let path, let server)):
                // Never a word to a server of another user: a squatter's answers would be believed.
                shared.withLock { $0.refusal = .untrustedServer(path: path, userID: server.userID) }
            case .failure:
                shared.withLock { $0.refusal = nil }
            }
            guard !isStopped else { break }
            let delay = options.backoff.delay(afterFailures: failures, random: Double.random(in: 0..<1))
            failures += 1
            _ = retrySignal.wait(timeout: .now() + .nanoseconds(delay.wholeNanoseconds))
        }
    }

    /// Runs one trusted connection until it ends, then fails what was still waiting for it.
    private func serve(_ session: SocketSession, handler: @escaping @Sendable (TransportEvent) -> Void) {
        let isPublished = shared.withLock { shared in
            guard !shared.isStopped else { return false }
            shared.interrupter = session.connection.interrupter
            shared.outgoing = []
            shared.refusal = nil
            return true
        }
        guard isPublished else {
            session.close(failing: [])
            return
        }
        handler(.connected)
        let reason = session.run(handler: handler, takeOutgoing: takeOutgoing, isStopped: { isStopped })
        let abandoned = shared.withLock { shared in
            shared.interrupter = nil
            defer { shared.outgoing = [] }
            return shared.outgoing
        }
        session.close(failing: abandoned)
        if !isStopped { handler(.disconnected(reason: reason)) }
    }

    private func takeOutgoing() -> [Outgoing] {
        shared.withLock { shared in
            defer { shared.outgoing = [] }
            return shared.outgoing
        }
    }
}

extension Duration {
    /// The duration in whole nanoseconds, for Dispatch timeouts.
    var wholeNanoseconds: Int {
        let (seconds, attoseconds) = components
        return Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
    }
}
