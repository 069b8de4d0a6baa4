import Glibc

extension ProcessStatistics {
    /// The CPU time the calling thread has used, from `clock_gettime(CLOCK_THREAD_CPUTIME_ID)`: shows whether
    /// a wait sleeps or spins, whatever other threads do meanwhile.
    package static func threadCPUTime() -> Duration {
        var time = timespec()
        let result = clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        precondition(result == 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID) failed: \(Errno.current)")
        return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
    }
}
