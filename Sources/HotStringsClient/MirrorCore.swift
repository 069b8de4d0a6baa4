import StringsFormat
import Synchronization

/// The engine behind one `LiveStrings`, in a lock, and the snapshots readers see.
///
/// Writers (the transport's thread, `overrideLanguage` callers) take the engine lock, compute the new view
/// there, freeze it into a `MirrorSnapshot` (rebuilding only the tables that changed) and publish that; readers
/// never take the engine lock, and take the publisher's only once per reload (see `SnapshotPublisher`). Hooks
/// run after the locks, on the writer's thread, when the new snapshot is already published.
final class MirrorCore: Sendable {
    private let engine: Mutex<MirrorEngine>
    private let published: SnapshotPublisher
    let hooks = HookRegistry()
    private let transport: any HotStringsTransport
    private let isStopped = Atomic<Bool>(false)
    /// Snapshots made for requests' `Accept-Language` headers, by header, for one generation of the mirror.
    private let acceptedSnapshots = Mutex<(generation: UInt64, byHeader: [String: MirrorSnapshot])>((0, [:]))
    /// The most headers `acceptedSnapshots` keeps (a server sees a few dozen distinct ones).
    static let acceptedSnapshotLimit = 64
    private let synchronization = Mutex<(nextID: UInt64, waiters: [UInt64: CheckedContinuation<Bool, Never>])>(
        (0, [:]))

    init(engine: consuming MirrorEngine, transport: any HotStringsTransport) {
        let changed = engine.takeChangedTables()
        self.published = SnapshotPublisher(MirrorSnapshot(engine.view, changed: changed, previous: nil))
        self.engine = Mutex(engine)
        self.transport = transport
    }

    /// Runs `body` with the current snapshot (not retained: it must not escape `body`).
    @inline(__always)
    func read<T>(_ body: (MirrorSnapshot) -> T) -> T {
        published.read(body)
    }

    /// The snapshot readers get now, retained (for tests and the writer's side, not for lookups).
    var snapshot: MirrorSnapshot { published.snapshot }

    /// The snapshot a request with `header` reads: one generation of the mirror resolved through the header's
    /// languages, made once per header and generation (the first request after a reload pays for resolving
    /// every table; the others take it from a cache of `acceptedSnapshotLimit` headers).
    func snapshot(forAcceptLanguage header: String) throws(AcceptLanguage.Problem) -> MirrorSnapshot {
        let generation = read { $0.generation }
        let cached = acceptedSnapshots.withLock { cache in
            cache.generation == generation ? cache.byHeader[header] : nil
        }
        if let cached { return cached }
        let accepted = try AcceptLanguage(parsing: header)
        // Under the engine lock the engine's state is the one of the last published snapshot.
        let made = engine.withLock { engine in
            MirrorSnapshot(engine.view(accepting: accepted), changed: nil, previous: nil,
                           generation: published.snapshot.generation)
        }
        acceptedSnapshots.withLock { cache in
            if made.generation > cache.generation || cache.byHeader.count >= Self.acceptedSnapshotLimit {
                cache = (made.generation, [:])
            }
            if made.generation == cache.generation { cache.byHeader[header] = made }
        }
        return made
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
                if read({ $0.status.isSynchronized }) || isStopped.load(ordering: .acquiring) { return nil }
                state.nextID += 1
                state.waiters[state.nextID] = waiter
                return state.nextID
            }
            guard let id else {
                waiter.resume(returning: read { $0.status.isSynchronized })
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
            let changed = engine.takeChangedTables()
            published.publish(MirrorSnapshot(engine.view, changed: changed, previous: published.snapshot,
                                             servedBy: engine.chain, isFromSource: engine.position != nil,
                                             origins: { engine.fallbackOrigins(table: $0) }))
            // The requests' snapshots of the replaced generation go (those in use stay alive with their users).
            acceptedSnapshots.withLock { $0.byHeader.removeAll() }
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
