import Glibc

/// The time of day, for stamping events that people read (RFC 3339 times), never for measuring durations.
package enum WallClock {
    /// Milliseconds since 1970 (UTC), from `clock_gettime(CLOCK_REALTIME_COARSE)`: a read of the kernel's last
    /// tick (a few milliseconds old) through the vDSO, without a system call, cheap enough for a lookup's slow
    /// path.
    @inline(__always)
    package static var coarseMilliseconds: Int64 {
        var time = timespec()
        // Cannot fail for a clock the kernel has had since 2.6.32 and a valid pointer.
        _ = clock_gettime(CLOCK_REALTIME_COARSE, &time)
        return Int64(time.tv_sec) * 1000 + Int64(time.tv_nsec) / 1_000_000
    }
}
