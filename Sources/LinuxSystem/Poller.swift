import Glibc
import Synchronization

/// Waits until any of a set of descriptors is readable, with a timeout and a wake-up from other threads.
///
/// Built on `poll` (the Glibc module does not import epoll or eventfd; for the handful of descriptors a
/// watcher holds, `poll` costs the same). Interest is level-triggered: a descriptor stays ready until it is
/// drained. A non-blocking, close-on-exec `socketpair` carries wake-ups. One thread waits at a time; `add`,
/// `remove` and `wake` may be called from any thread.
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

    /// Blocks in `poll` until an added descriptor is readable, `wake()` is called, or `timeout` passes.
    ///
    /// Returns the ready descriptors (readable, hung up or in error), or [] after a wake-up or the timeout.
    /// `nil` waits forever. A wake-up that arrives while no one waits makes the next wait return at once.
    /// Interruptions by signals are retried with the remaining time.
    /// - Throws: `SystemError` from `poll` (`.invalidArgument` after `close()`).
    package func wait(timeout: Duration?) throws(SystemError) -> [Int32] {
        let deadline = timeout.map { ContinuousClock.now + max($0, .zero) }
        while true {
            var descriptors = [pollfd(fd: wakeReceiver, events: Int16(POLLIN), revents: 0)]
            registered.withLock { fds in
                for fd in fds {
                    descriptors.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0))
                }
            }
            // poll counts whole milliseconds; a deadline less than one away (a settle window of 0.3 ms) is
            // slept exactly with nanosleep and then polled without waiting, instead of rounding up to 1 ms.
            var milliseconds = Self.milliseconds(until: deadline)
            if let deadline, milliseconds > 0 {
                let remaining = deadline - .now
                if remaining < .milliseconds(1) {
                    Self.sleep(until: deadline)
                    milliseconds = 0
                } else {
                    milliseconds = Int32(clamping: remaining.components.seconds * 1000
                        + remaining.components.attoseconds / 1_000_000_000_000_000)
                }
            }
            let count = Glibc.poll(&descriptors, nfds_t(descriptors.count), milliseconds)
            if count == -1 {
                let errno = Errno.current
                if errno == .interrupted {
                    continue
                }
                throw SystemError(operation: "poll", errno: errno)
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

    /// The `poll` timeout for `deadline`: -1 for none, otherwise the milliseconds left, rounded up so that a
    /// wait never ends before its deadline.
    /// Sleeps until `deadline` with `nanosleep`, for waits shorter than poll's millisecond.
    private static func sleep(until deadline: ContinuousClock.Instant) {
        let remaining = deadline - .now
        guard remaining > .zero else {
            return
        }
        let (seconds, attoseconds) = remaining.components
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        var left = timespec()
        while nanosleep(&request, &left) == -1, Errno.current == .interrupted {
            request = left
        }
    }

    private static func milliseconds(until deadline: ContinuousClock.Instant?) -> Int32 {
        guard let deadline else {
            return -1
        }
        let remaining = deadline - .now
        guard remaining > .zero else {
            return 0
        }
        let (seconds, attoseconds) = remaining.components
        let attosecondsPerMillisecond: Int64 = 1_000_000_000_000_000
        let milliseconds = seconds * 1000 + (attoseconds + attosecondsPerMillisecond - 1) / attosecondsPerMillisecond
        return Int32(clamping: milliseconds)
    }
}
