import CLinuxShims
import Glibc
import Synchronization

/// An epoll set for an event loop over thousands of descriptors: readable and writable interest per
/// descriptor, level-triggered, with a wake-up from other threads.
///
/// One thread waits at a time; `add`, `modify`, `remove` and `wake` may be called from any thread and take
/// effect in a wait already blocked. Hang-ups and errors are always reported, whatever the interest, so a
/// descriptor whose peer is gone stays ready until it is removed. (The poll-based `Poller` serves the
/// watcher's handful of descriptors.)
package final class EventPoller: Sendable {
    /// What to wait for on a descriptor.
    package struct Interest: OptionSet, Sendable, Hashable {
        package var rawValue: UInt32

        /// Makes an interest from `HOTSTRINGS_EVENT_*` bits.
        package init(rawValue: UInt32) {
            self.rawValue = rawValue
        }

        /// Bytes to read, a connection to accept, or end of file (`EPOLLIN`).
        package static let readable = Interest(rawValue: HOTSTRINGS_EVENT_READABLE)
        /// Room to write (`EPOLLOUT`).
        package static let writable = Interest(rawValue: HOTSTRINGS_EVENT_WRITABLE)
    }

    /// A descriptor a wait found ready.
    package struct Ready: Sendable, Hashable {
        /// The descriptor.
        package var fd: Int32
        /// It can be read without blocking (`EPOLLIN`): data, a pending connection, or end of file.
        package var isReadable: Bool
        /// It can be written without blocking (`EPOLLOUT`).
        package var isWritable: Bool
        /// The connection is gone both ways or failed (`EPOLLHUP` or `EPOLLERR`); a peer's `shutdown` of its
        /// writing side alone is not a hang-up but a read of end of file.
        package var isHangUp: Bool

        /// Makes a readiness record.
        package init(fd: Int32, isReadable: Bool, isWritable: Bool, isHangUp: Bool) {
            self.fd = fd
            self.isReadable = isReadable
            self.isWritable = isWritable
            self.isHangUp = isHangUp
        }
    }

    private let epoll: Int32
    private let wakeUp: Int32
    private let isClosed = Atomic<Bool>(false)
    /// Whether waits use `epoll_pwait2`'s nanosecond timeout; turned off for good when the kernel lacks it.
    private let hasPreciseTimeouts: Atomic<Bool>

    /// Creates the set with `epoll_create1(EPOLL_CLOEXEC)` and its wake-up with
    /// `eventfd(EFD_NONBLOCK | EFD_CLOEXEC)`.
    ///
    /// `usingMillisecondTimeouts` forces the `epoll_wait` fallback that kernels before 5.11 get, for tests.
    /// - Throws: `SystemError` from `epoll_create1`, `eventfd` or `epoll_ctl`.
    package init(usingMillisecondTimeouts: Bool = false) throws(SystemError) {
        hasPreciseTimeouts = Atomic(!usingMillisecondTimeouts)
        epoll = try retryingOnInterrupt { hotstrings_epoll_create() }.get("epoll_create1")
        do throws(SystemError) {
            wakeUp = try retryingOnInterrupt { hotstrings_eventfd() }.get("eventfd")
        } catch {
            _ = Glibc.close(epoll)
            throw error
        }
        if case .failure(let errno) = retryingOnInterrupt({
            hotstrings_epoll_add(epoll, wakeUp, HOTSTRINGS_EVENT_READABLE)
        }) {
            _ = Glibc.close(wakeUp)
            _ = Glibc.close(epoll)
            throw SystemError(operation: "epoll_ctl", errno: errno)
        }
    }

    deinit {
        close()
    }

    /// Adds `fd` with `interest` using `epoll_ctl(EPOLL_CTL_ADD)`; an empty interest still reports hang-ups.
    /// - Throws: `SystemError` from `epoll_ctl`: `.exists` when `fd` is already added, `.badFileDescriptor`
    ///   when it is not open, `.notPermitted` for a regular file.
    package func add(_ fd: Int32, interest: Interest) throws(SystemError) {
        _ = try retryingOnInterrupt { hotstrings_epoll_add(epoll, fd, interest.rawValue) }.get("epoll_ctl")
    }

    /// Replaces the interest in `fd` with `epoll_ctl(EPOLL_CTL_MOD)`, such as adding `.writable` while
    /// output is queued and dropping it once the queue is empty.
    /// - Throws: `SystemError` from `epoll_ctl`: `.noSuchFileOrDirectory` when `fd` was not added.
    package func modify(_ fd: Int32, interest: Interest) throws(SystemError) {
        _ = try retryingOnInterrupt { hotstrings_epoll_modify(epoll, fd, interest.rawValue) }.get("epoll_ctl")
    }

    /// Removes `fd` with `epoll_ctl(EPOLL_CTL_DEL)`; does nothing when it was not added. Call it before
    /// closing `fd` (closing alone does not remove a descriptor that was duplicated).
    package func remove(_ fd: Int32) {
        _ = hotstrings_epoll_remove(epoll, fd)
    }

    /// Blocks until an added descriptor is ready, `wake()` is called, or `timeout` passes; nil waits forever.
    ///
    /// Returns up to `maximumEvents` (at most 4,096) ready descriptors; the rest are reported by the next
    /// wait. Returns [] after the timeout, never before it, or after a wake-up with nothing else ready; a
    /// wake-up that comes with ready descriptors is consumed by that wait too, so a caller checks its own
    /// queue after every wait. A wake-up while no one waits makes the next wait return at once.
    /// Timeouts are nanosecond-precise with `epoll_pwait2`; on kernels without it `epoll_wait` is used with
    /// the milliseconds rounded up, so a short timeout waits up to 1 ms but never spins. Interruptions by
    /// signals are retried with the time that is left.
    /// - Throws: `SystemError` from `epoll_pwait2`/`epoll_wait` (`.badFileDescriptor` after `close()`).
    package func wait(timeout: Duration?, maximumEvents: Int = 1024) throws(SystemError) -> [Ready] {
        precondition(maximumEvents > 0, "maximumEvents must be positive")
        let capacity = min(maximumEvents, Int(HOTSTRINGS_EPOLL_MAXIMUM_EVENTS))
        let deadline = timeout.map { ContinuousClock.now + max($0, .zero) }
        return try withUnsafeTemporaryAllocation(of: hotstrings_ready.self, capacity: capacity) {
            (buffer) throws(SystemError) -> [Ready] in
            while true {
                let remaining = deadline.map { max($0 - .now, .zero) }
                let count: Int32
                switch waitOnce(buffer, remaining) {
                case .success(let value):
                    count = value
                case .failure(let errno) where errno == .interrupted:
                    continue
                case .failure(let errno):
                    throw SystemError(operation: hasPreciseTimeouts.load(ordering: .relaxed)
                        ? "epoll_pwait2" : "epoll_wait", errno: errno)
                }
                var ready: [Ready] = []
                ready.reserveCapacity(Int(count))
                var wasWoken = false
                for record in buffer.prefix(Int(count)) {
                    if record.fd == wakeUp {
                        wasWoken = true
                        drainWakeUps()
                        continue
                    }
                    ready.append(Ready(
                        fd: record.fd,
                        isReadable: record.flags & HOTSTRINGS_EVENT_READABLE != 0,
                        isWritable: record.flags & HOTSTRINGS_EVENT_WRITABLE != 0,
                        isHangUp: record.flags & (HOTSTRINGS_EVENT_HANGUP | HOTSTRINGS_EVENT_ERROR) != 0
                    ))
                }
                // The kernel measures on CLOCK_MONOTONIC; waiting out what ContinuousClock says is left keeps
                // the promise that a timeout never ends early by any reading of the clock.
                if ready.isEmpty, !wasWoken, let deadline, ContinuousClock.now < deadline {
                    continue
                }
                return ready
            }
        }
    }

    /// Whether waits use `epoll_pwait2`'s nanosecond timeouts: false when asked for millisecond timeouts, or
    /// once a wait has found a kernel without the call (before 5.11).
    package var usesNanosecondTimeouts: Bool {
        hasPreciseTimeouts.load(ordering: .relaxed)
    }

    /// Makes a blocked (or the next) `wait` return, by adding 1 to the eventfd with `write`.
    package func wake() {
        // After close() the descriptor number may already belong to another file: never write to it.
        guard !isClosed.load(ordering: .acquiring) else { return }
        var one: UInt64 = 1
        // EAGAIN means the counter is saturated with earlier wake-ups, which is as good as this one.
        _ = retryingOnInterrupt { Glibc.write(wakeUp, &one, MemoryLayout<UInt64>.size) }
    }

    /// Closes the epoll set and the eventfd with `close`; call it after the waiting thread has stopped.
    /// Added descriptors are not closed.
    package func close() {
        if !isClosed.exchange(true, ordering: .acquiringAndReleasing) {
            _ = Glibc.close(wakeUp)
            _ = Glibc.close(epoll)
        }
    }

    /// The `epoll_wait` timeout for `remaining`: -1 for none, otherwise milliseconds rounded up, so that a
    /// wait never ends early and a sub-millisecond timeout sleeps instead of spinning.
    package static func milliseconds(roundingUp remaining: Duration?) -> Int32 {
        guard let remaining else {
            return -1
        }
        guard remaining > .zero else {
            return 0
        }
        let (seconds, attoseconds) = remaining.components
        let perMillisecond: Int64 = 1_000_000_000_000_000
        let (milliseconds, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        guard !overflow else {
            return Int32.max
        }
        return Int32(clamping: milliseconds + (attoseconds + perMillisecond - 1) / perMillisecond)
    }

    /// One wait, not retried on `EINTR`: the caller retries with the time that is left then.
    private func waitOnce(_ buffer: UnsafeMutableBufferPointer<hotstrings_ready>, _ remaining: Duration?)
        -> Result<Int32, Errno>
    {
        let capacity = Int32(buffer.count)
        if hasPreciseTimeouts.load(ordering: .relaxed) {
            let (seconds, attoseconds) = remaining?.components ?? (-1, 0)
            let nanoseconds = attoseconds / 1_000_000_000
            let result = Self.result(
                hotstrings_epoll_pwait2(epoll, buffer.baseAddress, capacity, seconds, nanoseconds)
            )
            // ENOSYS from an old kernel; EPERM from a seccomp filter that predates the call.
            guard case .failure(let errno) = result, errno == .notImplemented || errno == .notPermitted else {
                return result
            }
            hasPreciseTimeouts.store(false, ordering: .relaxed)
        }
        let milliseconds = Self.milliseconds(roundingUp: remaining)
        return Self.result(hotstrings_epoll_wait(epoll, buffer.baseAddress, capacity, milliseconds))
    }

    private static func result(_ count: Int32) -> Result<Int32, Errno> {
        count == -1 ? .failure(.current) : .success(count)
    }

    private func drainWakeUps() {
        var count: UInt64 = 0
        _ = retryingOnInterrupt { Glibc.read(wakeUp, &count, MemoryLayout<UInt64>.size) }
    }
}
