import Dispatch
import HotStringsClient
import HotStringsProtocol
import LinuxSystem
import Synchronization

/// Something the embedded transport hands to its client, in stream order.
enum Delivery: Sendable {
    /// An event for the transport's handler.
    case event(TransportEvent)
    /// A request's answer, resumed only after every event queued before it has been handled, so that the
    /// caller of `setLanguage` finds its own `language` event applied, as over the daemon's socket.
    case reply(AnswerReply, Result<Answer, LiveStringsError>)
}

/// The embedded transport's delivery thread: runs the handler (and so the client's reload hooks) off the
/// cooperative pool, one delivery at a time, in the order they were queued.
///
/// The queue has no cap: it holds what the store produced and the thread has not yet handed on, and the
/// store produces only on file changes and requests, so it stays as short as the handler is fast.
final class Deliverer: Sendable {
    private struct State {
        var queue: [Delivery] = []
        var isStopped = false
    }

    private let state = Mutex(State())
    private let ready = DispatchSemaphore(value: 0)
    private let finished = Mutex(false)

    /// Starts the thread that calls `handler`.
    func start(_ handler: @escaping @Sendable (TransportEvent) -> Void) {
        _ = NamedThread.run(name: "hotstrings-hook") { [self] in
            run(handler)
            finished.withLock { $0 = true }
        }
    }

    /// Queues `delivery`; when stopped, an event is dropped and a reply fails with `.connectionLost`.
    func enqueue(_ delivery: Delivery) {
        let isQueued = state.withLock { state in
            guard !state.isStopped else { return false }
            state.queue.append(delivery)
            return true
        }
        if isQueued {
            ready.signal()
        } else if case .reply(let reply, _) = delivery {
            reply.resume(returning: .failure(.connectionLost))
        }
    }

    /// Stops for good: the delivery in progress finishes, queued events are dropped, queued replies fail.
    func stop() {
        state.withLock { $0.isStopped = true }
        ready.signal()
    }

    /// Whether the thread has ended.
    var hasFinished: Bool { finished.withLock { $0 } }

    private func run(_ handler: @Sendable (TransportEvent) -> Void) {
        while true {
            ready.wait()
            let (batch, isStopped) = state.withLock { state in
                defer { state.queue = [] }
                return (state.queue, state.isStopped)
            }
            for (index, delivery) in batch.enumerated() {
                if isStopped || state.withLock({ $0.isStopped }) {
                    Self.fail(batch[index...])
                    return
                }
                switch delivery {
                case .event(let event): handler(event)
                case .reply(let reply, let result): reply.resume(returning: result)
                }
            }
            if isStopped { return }
        }
    }

    private static func fail(_ deliveries: ArraySlice<Delivery>) {
        for case .reply(let reply, _) in deliveries { reply.resume(returning: .failure(.connectionLost)) }
    }
}
