import Synchronization

/// A value that readers on any thread see whole, and that one writer at a time replaces.
///
/// Readers wait only for an assignment: `publish` swaps the new value in under the lock and destroys the one
/// it replaced after unlocking, so freeing a large mirror never holds up a lookup.
final class PublishedValue<Value: Sendable>: Sendable {
    private let current: Mutex<Value>

    init(_ value: consuming Value) {
        current = Mutex(value)
    }

    /// Runs `body` on the current value under the lock; keep `body` short.
    func read<T>(_ body: (borrowing Value) -> T) -> T {
        current.withLock { value in body(value) }
    }

    /// Replaces the value; the replaced one is destroyed after the lock is released.
    func publish(_ value: consuming Value) {
        var replaced = value
        current.withLock { swap(&$0, &replaced) }
        // Without this, the optimizer may turn the swap of a value that dies right after into "destroy the
        // old value, move the new one in" inside the lock (it did: readers then waited 2-3 ms while a
        // 20,000-key table was freed). Kept alive to here, it is destroyed after the unlock.
        withExtendedLifetime(replaced) {}
    }
}
