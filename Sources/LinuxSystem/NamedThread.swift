import CLinuxShims
import Glibc
import Synchronization

/// A thread of its own, off Swift's cooperative pool, named so that `top -H`, `gdb` and
/// `/proc/<pid>/task/*/comm` show what it is for; started with `pthread_create`.
///
/// Join it with `join()`; a thread whose handle is released without a join is detached, so its resources go
/// back to the system when it ends. Blocking loops (epoll and inotify waits, delivery queues) run on these,
/// never on the pool, whose few threads must stay free for tasks (STYLE.md rule 5).
package final class NamedThread: Sendable {
    /// The thread's name as the kernel holds it: the first 15 bytes of the name it was started with.
    package let name: String
    private let handle: pthread_t
    /// Whether `join()` was called (or the thread detached), so the handle is never used twice.
    private let isReleased = Atomic<Bool>(false)

    private init(name: String, handle: pthread_t) {
        self.name = name
        self.handle = handle
    }

    deinit {
        if !isReleased.load(ordering: .acquiring) { pthread_detach(handle) }
    }

    /// The most bytes of a thread name Linux keeps (16 with the terminating NUL).
    package static let maximumNameLength = 15

    /// Starts a thread called `name` (cut to 15 bytes) that runs `body` and ends.
    ///
    /// The name is set by the new thread before `body` runs.
    /// - Throws: `SystemError` naming `pthread_create` when the system has no room for another thread.
    package static func start(name: String, _ body: @escaping @Sendable () -> Void)
        throws(SystemError) -> NamedThread {
        let kernelName = String(decoding: Array(name.utf8.prefix(maximumNameLength)), as: UTF8.self)
        let start = Start(name: kernelName, body: body)
        let argument = Unmanaged.passRetained(start).toOpaque()
        var handle = pthread_t()
        let result = pthread_create(&handle, nil, { argument in
            let start = Unmanaged<Start>.fromOpaque(argument!).takeRetainedValue()
            // Naming can only fail with ERANGE, which the cut above rules out; a nameless thread still works.
            _ = start.name.withCString { hotstrings_set_thread_name($0) }
            start.body()
            return nil
        }, argument)
        guard result == 0 else {
            Unmanaged<Start>.fromOpaque(argument).release()
            throw SystemError(operation: "pthread_create(\(name))", errno: Errno(rawValue: result))
        }
        return NamedThread(name: kernelName, handle: handle)
    }

    /// Starts a thread as `start(name:_:)` does, and traps when the system cannot start one: for threads a
    /// component cannot run without, where running short of threads is a broken system, not bad input.
    package static func run(name: String, _ body: @escaping @Sendable () -> Void) -> NamedThread {
        do {
            return try start(name: name, body)
        } catch {
            fatalError("cannot start thread \(name): \(error)")
        }
    }

    /// Waits until the thread has ended (`pthread_join`).
    /// - Precondition: called once, and not by the thread itself.
    package func join() {
        precondition(!isReleased.exchange(true, ordering: .acquiringAndReleasing), "a thread is joined once")
        let result = pthread_join(handle, nil)
        precondition(result == 0, "pthread_join(\(name)): \(Errno(rawValue: result))")
    }

    /// What the new thread runs, passed through `pthread_create`'s one pointer.
    private final class Start {
        let name: String
        let body: @Sendable () -> Void

        init(name: String, body: @escaping @Sendable () -> Void) {
            self.name = name
            self.body = body
        }
    }
}
