import Dispatch
import Foundation
import HotStringsProtocol
import LinuxSystem
import Synchronization

/// The transport to a `hotstrings serve` daemon over its Unix socket.
///
/// One background thread owns the socket: it connects, says `hello`, delivers events, sends queued requests
/// and commands, and when the connection fails or ends, waits with `Backoff` and connects again, for as
/// long as the transport is not stopped. Every wait is a `Poller` wait or a semaphore wait that `stop()` and
/// new requests interrupt, so the thread uses no CPU while nothing happens.
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
    }

    /// A request or command waiting for the thread to send it.
    enum Outgoing: Sendable {
        case command(TransportCommand)
        case request(Request, deadline: ContinuousClock.Instant, Reply)
    }

    /// Where a request's answer goes.
    typealias Reply = CheckedContinuation<Result<[String: JSONValue], LiveStringsError>, Never>

    /// What the caller threads and the connection thread share.
    struct Shared {
        var isStarted = false
        var isStopped = false
        /// The live connection's poller, to wake it; nil between connections. Woken only under the lock,
        /// and removed under the lock before it is closed, so a wake-up never writes to a closed descriptor.
        var poller: Poller?
        var outgoing: [Outgoing] = []
    }

    let options: Options
    private let shared = Mutex(Shared())
    /// Interrupts the wait between connection attempts.
    private let retrySignal = DispatchSemaphore(value: 0)

    init(options: Options) {
        self.options = options
    }

    func start(_ handler: @escaping @Sendable (TransportEvent) -> Void) {
        let isFirst = shared.withLock { shared in
            defer { shared.isStarted = true }
            return !shared.isStarted
        }
        precondition(isFirst, "a transport is started once")
        let thread = Thread { [self] in run(handler) }
        thread.name = "hotstrings-client"
        thread.start()
    }

    func send(_ command: TransportCommand) {
        _ = enqueue(.command(command))
    }

    func request(_ request: Request) async throws(LiveStringsError) -> [String: JSONValue] {
        let deadline = ContinuousClock.now + options.requestTimeout
        let result = await withCheckedContinuation { (reply: Reply) in
            if !enqueue(.request(request, deadline: deadline, reply)) {
                reply.resume(returning: .failure(.notConnected))
            }
        }
        return try result.get()
    }

    func stop() {
        shared.withLock { shared in
            shared.isStopped = true
            shared.poller?.wake()
        }
        retrySignal.signal()
    }

    /// Queues `item` for the live connection and wakes it; false when there is none.
    private func enqueue(_ item: Outgoing) -> Bool {
        shared.withLock { shared in
            guard let poller = shared.poller, !shared.isStopped else { return false }
            shared.outgoing.append(item)
            poller.wake()
            return true
        }
    }

    private var isStopped: Bool { shared.withLock { $0.isStopped } }

    // MARK: - The connection thread

    private func run(_ handler: @escaping @Sendable (TransportEvent) -> Void) {
        var failures = 0
        while !isStopped {
            if let session = SocketSession(options: options) {
                let isPublished = shared.withLock { shared in
                    guard !shared.isStopped else { return false }
                    shared.poller = session.poller
                    shared.outgoing = []
                    return true
                }
                if isPublished {
                    handler(.connected)
                    let reason = session.run(handler: handler, takeOutgoing: takeOutgoing, isStopped: { isStopped })
                    let abandoned = shared.withLock { shared in
                        shared.poller = nil
                        defer { shared.outgoing = [] }
                        return shared.outgoing
                    }
                    session.close(failing: abandoned)
                    if !isStopped { handler(.disconnected(reason: reason)) }
                    // A connection that got as far as answering counts as a success: start the backoff over.
                    failures = session.hasAnswered ? 0 : failures
                } else {
                    session.close(failing: [])
                }
            }
            guard !isStopped else { break }
            let delay = options.backoff.delay(afterFailures: failures, random: Double.random(in: 0..<1))
            failures += 1
            let (seconds, attoseconds) = delay.components
            let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
            _ = retrySignal.wait(timeout: .now() + .nanoseconds(nanoseconds))
        }
    }

    private func takeOutgoing() -> [Outgoing] {
        shared.withLock { shared in
            defer { shared.outgoing = [] }
            return shared.outgoing
        }
    }
}
