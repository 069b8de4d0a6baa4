import Dispatch
import LinuxSystem
import Synchronization

/// A thread of the service host's own for work that may block, so that the core, which answers every client, never
/// waits: an edit's lock, reads, writes and `fsync`s, a selection's save, a lint of the whole bundle. Jobs run one at
/// a time, in the order they were given: two edits of one key land, and are answered, in the order they came.
///
/// The thread is started (`NamedThread`, never the cooperative pool) with the first job, so a host that never edits
/// has none. The queue has no cap of its own: the core gives it at most one job per client at a time (a client's
/// later requests wait in the core until that job's answer), so it is bounded by the fronts' caps on clients.
final class ServiceWorker: Sendable {
    private struct State {
        var jobs: [@Sendable () -> Void] = []
        var isStarted = false
        var isFinishing = false
    }

    /// The thread's name (`hotstrings-edit`).
    let name: String
    private let state = Mutex(State())
    private let ready = DispatchSemaphore(value: 0)
    private let ended = Atomic<Bool>(false)

    /// A worker whose thread, once started, is called `name`.
    init(name: String) {
        self.name = name
    }

    /// Queues `job`, starting the thread if this is the first; false (and `job` dropped) once finishing.
    @discardableResult
    func run(_ job: @escaping @Sendable () -> Void) -> Bool {
        let (isQueued, starts) = state.withLock { state -> (Bool, Bool) in
            guard !state.isFinishing else { return (false, false) }
            state.jobs.append(job)
            defer { state.isStarted = true }
            return (true, !state.isStarted)
        }
        if starts { _ = NamedThread.run(name: name) { [self] in loop() } }
        if isQueued { ready.signal() }
        return isQueued
    }

    /// Whether the worker is finishing: a job waiting for something (a lock) stops waiting.
    var isFinishing: Bool { state.withLock { $0.isFinishing } }

    /// Ends the worker: the job in progress runs to its end (told by `isFinishing` to stop waiting), those not begun
    /// are dropped, then the thread ends. Returns at once.
    func finish() {
        let isStarted = state.withLock { state in
            state.isFinishing = true
            state.jobs = []
            return state.isStarted
        }
        if isStarted { ready.signal() } else { ended.store(true, ordering: .releasing) }
    }

    /// Whether the thread has ended, or never started and never will (after `finish`).
    var hasEnded: Bool { ended.load(ordering: .acquiring) }

    private func loop() {
        while true {
            ready.wait()
            let job = state.withLock { state -> (@Sendable () -> Void)? in
                state.isFinishing || state.jobs.isEmpty ? nil : state.jobs.removeFirst()
            }
            guard let job else {
                if isFinishing { break }
                continue
            }
            job()
        }
        ended.store(true, ordering: .releasing)
    }
}
