import CLinuxShims
import Glibc
import Synchronization

/// Waits until any of a set of descriptors is readable, with a timeout and a wake-up from other threads.
///
/// Built on `ppoll` (for the handful of descriptors a watcher holds, epoll would cost the same; the
/// daemon's thousands of connections use `EventPoller`). Interest is level-triggered: a descriptor stays
/// ready until it is drained. A non-blocking, close-on-exec `socketpair` carries wake-ups. One thread waits
/// at a time; `add`, `remove` and `wake` may be called from any thread.
package final class Poller: Sendable {
    private let registered = Mutex<[Int32]>([])
    /// Set by `wake()` before it writes, so a waiter can tell a caller's wake-up from a change of interest.
    private let isWakePending = Atomic<Bool>(false)
    private let isClosed = Atomic<Bool>(false)
    private let wakeReceiver: Int32
    private let wakeSender: Int32

    /// Creates a poller and its wake-up channel with `socketpair(SOCK_NONBLOCK | SOCK_CLOEXEC)`.
    /// - Throws: `SystemError` from `socketpair`.
    package init() throws(SystemError) {
        var pair: [Int32] = [-1, -1]
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        _ = try retryingOnInterrupt { socketpair(AF_UNIX, type, 0, &pair) }.get("socketpair")
        wakeReceiver = pair[0]
        wakeSender = pair[1]
    }

    deinit {
        close()
    }

    /// Adds readable interest in `fd`; a `wait` blocked on another thread starts watching it at once.
    /// - Throws: `SystemError` from `fcntl` (`.badFileDescriptor`) when `fd` is not open, or with `.exists`
    ///   when it is already added.
    package func add(_ fd: Int32) throws(SystemError) {
        _ = try retryingOnInterrupt { fcntl(fd, F_GETFD) }.get("fcntl")
        let isNew = registered.withLock { fds in
            if fds.contains(fd) {
                return false
            }
            fds.append(fd)
            return true
        }
        guard isNew else {
            throw SystemError(operation: "poll", errno: .exists)
        }
        signalWaiter()
    }

    /// Removes interest in `fd`; does nothing when it was not added. Remove a descriptor before closing it.
    package func remove(_ fd: Int32) {
        let wasPresent = registered.withLock { fds in
            guard let index = fds.firstIndex(of: fd) else {
                return false
            }
            fds.remove(at: index)
            return true
        }
        if wasPresent {
            signalWaiter()
        }
    }

    /// Blocks in `ppoll` until an added descriptor is readable, `wake()` is called, or `timeout` passes.
    ///
    /// Returns the ready descriptors (readable, hung up or in error), or [] after a wake-up or the timeout,
    /// never before it: the timeout is nanosecond-precise (a settle window of 0.3 ms is not rounded up to a
    /// millisecond). `nil` waits forever. A wake-up that arrives while no one waits makes the next wait
    /// return at once. Interruptions by signals are retried with the remaining time.
    /// - Throws: `SystemError` from `ppoll` (`.invalidArgument` after `close()`).
    package func wait(timeout: Duration?) throws(SystemError) -> [Int32] {
        let deadline = timeout.map { ContinuousClock.now + max($0, .zero) }
        while true {
            var descriptors = [pollfd(fd: wakeReceiver, events: Int16(POLLIN), revents: 0)]
            registered.withLock { fds in
                for fd in fds {
                    descriptors.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0))
                }
            }
            let (seconds, attoseconds) = deadline.map { max($0 - .now, .zero).components } ?? (-1, 0)
            let nanoseconds = attoseconds / 1_000_000_000
            let count = hotstrings_ppoll(&descriptors, UInt(descriptors.count), seconds, nanoseconds)
            if count == -1 {
                let errno = Errno.current
                if errno == .interrupted {
                    continue
                }
                throw SystemError(operation: "ppoll", errno: errno)
            }
            if count == 0, let deadline, ContinuousClock.now < deadline {
                // The kernel times out on CLOCK_MONOTONIC; wait out what ContinuousClock says is left.
                continue
            }
            let ready = descriptors.dropFirst().filter { $0.revents != 0 }.map(\.fd)
            guard descriptors[0].revents != 0 else {
                return ready
            }
            drainWakeUps()
            if isWakePending.exchange(false, ordering: .acquiringAndReleasing) || !ready.isEmpty {
                return ready
            }
            // Only the set of descriptors changed: poll again with the new set and the time that is left.
        }
    }

    /// Makes a blocked (or the next) `wait` return; writes to the wake-up socket with `write`.
    package func wake() {
        // After close() the descriptor number may already belong to another file: never write to it.
        guard !isClosed.load(ordering: .acquiring) else { return }
        isWakePending.store(true, ordering: .releasing)
        signalWaiter()
    }

    /// Closes the wake-up socket with `close`; call it after the waiting thread has stopped.
    package func close() {
        if !isClosed.exchange(true, ordering: .acquiringAndReleasing) {
            _ = Glibc.close(wakeReceiver)
            _ = Glibc.close(wakeSender)
        }
    }

    private func signalWaiter() {
        var byte: UInt8 = 1
        // EAGAIN means the socket is full of earlier wake-ups, which is as good as this one.
        _ = retryingOnInterrupt { write(wakeSender, &byte, 1) }
    }

    private func drainWakeUps() {
        var bytes = [UInt8](repeating: 0, count: 64)
        let capacity = bytes.count
        while case .success(let count) = retryingOnInterrupt({ read(wakeReceiver, &bytes, capacity) }),
            count == capacity
        {
        }
    }
}
