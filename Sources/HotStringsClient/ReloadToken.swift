import Synchronization

/// Keeps a reload hook registered: the hook runs until `cancel()` is called or the token is released.
///
/// Store the token for as long as the hook should run (for example in the view controller whose texts it
/// reloads); `_ = strings.onReload { … }` cancels the hook at once.
public final class ReloadToken: Sendable {
    private let registry: HookRegistry
    private let id: UInt64

    init(registry: HookRegistry, id: UInt64) {
        self.registry = registry
        self.id = id
    }

    deinit {
        cancel()
    }

    /// Unregisters the hook; a call that is running finishes. Calling it again does nothing.
    public func cancel() {
        registry.remove(id)
    }
}

/// The reload hooks of one `LiveStrings`, called in the order they were registered.
final class HookRegistry: Sendable {
    /// One registration: what to call with each change, and what to call when the client stops.
    struct Hook: Sendable {
        var deliver: @Sendable (LocalizationChange) -> Void
        var finish: (@Sendable () -> Void)?
    }

    private let state = Mutex<(nextID: UInt64, hooks: [UInt64: Hook], isFinished: Bool)>((0, [:], false))

    /// Registers `hook`; after `finishAll()` it is finished at once and not kept.
    func add(_ hook: Hook) -> UInt64 {
        let (id, isFinished) = state.withLock { state in
            state.nextID += 1
            if !state.isFinished { state.hooks[state.nextID] = hook }
            return (state.nextID, state.isFinished)
        }
        if isFinished { hook.finish?() }
        return id
    }

    /// Unregisters the hook `id`, if it is still registered.
    func remove(_ id: UInt64) {
        _ = state.withLock { $0.hooks.removeValue(forKey: id) }
    }

    /// Calls every hook with `change`, outside the lock, so a hook may register or cancel hooks.
    func fire(_ change: LocalizationChange) {
        let hooks = state.withLock { state in state.hooks.sorted { $0.key < $1.key }.map(\.value) }
        for hook in hooks { hook.deliver(change) }
    }

    /// Finishes and drops every hook (streams end); hooks added later are finished at once.
    func finishAll() {
        let hooks = state.withLock { state in
            state.isFinished = true
            defer { state.hooks = [:] }
            return Array(state.hooks.values)
        }
        for hook in hooks { hook.finish?() }
    }
}
