import Synchronization

/// The engine and the view behind one `LiveStrings`, each in its own lock.
///
/// Writers (the transport's thread, `overrideLanguage` callers) take the engine lock, compute the new view
/// there, and publish it with one swap under the view lock, which is all readers ever wait for. The view
/// that was replaced is destroyed after the view lock (see `PublishedValue`), so freeing a large table never
/// stalls a reader. Hooks run after the locks, on the writer's thread.
final class MirrorCore: Sendable {
    private let engine: Mutex<MirrorEngine>
    private let published: PublishedValue<MirrorView>
    let hooks = HookRegistry()
    private let transport: any HotStringsTransport
    private let isStopped = Atomic<Bool>(false)
    private let synchronization = Mutex<(nextID: UInt64, waiters: [UInt64: CheckedContinuation<Bool, Never>])>(
        (0, [:]))

    init(engine: MirrorEngine, transport: any HotStringsTransport) {
        self.published = PublishedValue(engine.view)
        self.engine = Mutex(engine)
        self.transport = transport
    }

    /// Reads the view under its lock; keep `body` short.
    func read<T: Sendable>(_ body: (borrowing MirrorView) -> T) -> T {
        published.read(body)
    }

    /// Applies a transport event.
    func handle(_ event: TransportEvent) {
        guard !isStopped.load(ordering: .acquiring) else { return }
        update { $0.handle(event) }
    }

    /// Sets or clears the local language override.
    func setOverride(_ language: String?) {
        update { $0.setOverride(language) }
    }

    /// Stops reporting: hooks are dropped and change sequences end, waiters for synchronization return false.
    func stop() {
        guard !isStopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        hooks.finishAll()
        let waiters = synchronization.withLock { state in
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume(returning: false) }
    }

    /// Returns true once the view is synchronized, or false after `timeout` or when the client stops.
    func waitUntilSynchronized(timeout: Duration) async -> Bool {
        await withCheckedContinuation { (waiter: CheckedContinuation<Bool, Never>) in
            let id = synchronization.withLock { state -> UInt64? in
                if read({ $0.isSynchronized }) || isStopped.load(ordering: .acquiring) { return nil }
                state.nextID += 1
                state.waiters[state.nextID] = waiter
                return state.nextID
            }
            guard let id else {
                waiter.resume(returning: read { $0.isSynchronized })
                return
            }
            Task { [weak self] in
                try? await Task.sleep(for: timeout)
                let expired = self?.synchronization.withLock { $0.waiters.removeValue(forKey: id) }
                expired?.resume(returning: false)
            }
        }
    }

    private func update(_ body: (inout MirrorEngine) -> MirrorEngine.Outcome) {
        let (change, isSynchronized) = engine.withLock { engine in
            let outcome = body(&engine)
            published.publish(engine.view)
            // Sent under the engine lock so that commands from two writers reach the transport in the order
            // their states were computed.
            for command in outcome.commands { transport.send(command) }
            return (outcome.change, engine.view.isSynchronized)
        }
        if isSynchronized {
            let waiters = synchronization.withLock { state in
                defer { state.waiters = [:] }
                return Array(state.waiters.values)
            }
            for waiter in waiters { waiter.resume(returning: true) }
        }
        if let change, !isStopped.load(ordering: .acquiring) { hooks.fire(change) }
    }
}
