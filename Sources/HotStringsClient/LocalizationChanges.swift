import Synchronization

/// The changes of a `LiveStrings` as an asynchronous sequence, from `LiveStrings.changes(bufferLimit:)`.
///
/// Buffering is bounded and loses nothing: when `bufferLimit` changes are waiting to be read, a new change
/// is merged into the newest waiting one (keys and tables united; cause and language of the later change),
/// so a slow reader gets fewer, larger changes. The sequence ends when the client stops or the iterating
/// task is cancelled. Iterate it from one task.
public struct LocalizationChanges: AsyncSequence, Sendable {
    /// Each element is one change (or several merged).
    public typealias Element = LocalizationChange

    let buffer: ChangeBuffer

    /// Reads the changes one after the other.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let buffer: ChangeBuffer

        /// The next change, waiting for one; nil once the client stopped or the task was cancelled.
        public mutating func next() async -> LocalizationChange? {
            await buffer.next()
        }
    }

    /// Starts reading.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(buffer: buffer)
    }
}

/// The bounded, merging buffer behind `LocalizationChanges`; unregisters its hook when released.
final class ChangeBuffer: Sendable {
    private struct State {
        var waiting: [LocalizationChange] = []
        var reader: CheckedContinuation<LocalizationChange?, Never>?
        var isFinished = false
    }

    let limit: Int
    private let state = Mutex(State())
    private let token = Mutex<ReloadToken?>(nil)

    init(limit: Int) {
        precondition(limit > 0, "the change buffer needs room for at least one change")
        self.limit = limit
    }

    /// Registers with `registry`; the registration ends when this buffer is released.
    func attach(to registry: HookRegistry) {
        let id = registry.add(HookRegistry.Hook(
            deliver: { [weak self] change in self?.push(change) },
            finish: { [weak self] in self?.finish() }
        ))
        token.withLock { $0 = ReloadToken(registry: registry, id: id) }
    }

    func push(_ change: LocalizationChange) {
        let reader = state.withLock { state -> CheckedContinuation<LocalizationChange?, Never>? in
            guard !state.isFinished else { return nil }
            if let reader = state.reader {
                state.reader = nil
                return reader
            }
            if state.waiting.count >= limit {
                state.waiting[state.waiting.count - 1].absorb(change)
            } else {
                state.waiting.append(change)
            }
            return nil
        }
        reader?.resume(returning: change)
    }

    func finish() {
        let reader = state.withLock { state in
            state.isFinished = true
            defer { state.reader = nil }
            return state.reader
        }
        reader?.resume(returning: nil)
    }

    func next() async -> LocalizationChange? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (reader: CheckedContinuation<LocalizationChange?, Never>) in
                let ready = state.withLock { state -> LocalizationChange?? in
                    if !state.waiting.isEmpty { return .some(state.waiting.removeFirst()) }
                    // A cancellation before this point has finished the buffer already.
                    if state.isFinished { return .some(nil) }
                    precondition(state.reader == nil, "LocalizationChanges is iterated from one task at a time")
                    state.reader = reader
                    return .none
                }
                if let ready { reader.resume(returning: ready) }
            }
        } onCancel: {
            finish()
        }
    }
}

extension LocalizationChange {
    /// Folds a later change into this one: keys and tables united, the later cause and language.
    mutating func absorb(_ later: LocalizationChange) {
        cause = later.cause
        language = later.language
        tables.formUnion(later.tables)
        keys.merge(later.keys) { $0.union($1) }
    }
}
