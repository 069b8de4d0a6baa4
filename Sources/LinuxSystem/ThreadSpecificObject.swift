import Glibc

/// A pthread key whose value on each thread is one object that the thread owns: set once per thread, read
/// without locks or reference counting, and released when the thread exits.
///
/// Swift has no `thread_local`; this is the pthread TLS behind one (`pthread_getspecific` is an index into the
/// calling thread's own array: no shared memory is touched). Create one key per use, for the process's
/// lifetime: keys are few (`PTHREAD_KEYS_MAX`, 1,024) and never deleted.
package final class ThreadSpecificObject<Object: AnyObject>: Sendable {
    @usableFromInline let key: pthread_key_t

    /// Creates the key (`pthread_key_create`) with a destructor that releases a thread's object at its exit.
    /// - Throws: `SystemError` when the process ran out of keys (`EAGAIN`) or memory.
    package init() throws(SystemError) {
        var key = pthread_key_t()
        let result = pthread_key_create(&key) { pointer in
            if let pointer { Unmanaged<AnyObject>.fromOpaque(pointer).release() }
        }
        guard result == 0 else { throw SystemError(operation: "pthread_key_create", errno: Errno(rawValue: result)) }
        self.key = key
    }

    /// Runs `body` with the calling thread's object, made by `make` on the thread's first call; the object is
    /// not retained for the call (it lives until the thread exits, and only this thread uses it).
    @inlinable @inline(__always)
    package func withObject<T>(make: () -> Object, _ body: (Object) throws -> T) rethrows -> T {
        if let pointer = pthread_getspecific(key) {
            return try Unmanaged<Object>.fromOpaque(pointer)._withUnsafeGuaranteedRef(body)
        }
        return try body(install(make()))
    }

    @usableFromInline @inline(never)
    func install(_ object: Object) -> Object {
        let pointer = Unmanaged.passRetained(object).toOpaque()
        // pthread_setspecific fails only for an invalid key or without memory for the thread's key page.
        let result = pthread_setspecific(key, pointer)
        precondition(result == 0, "pthread_setspecific: \(Errno(rawValue: result))")
        return object
    }
}
