import Glibc

/// The process's limit on open descriptors, which a server with thousands of clients must raise.
package enum ResourceLimits {
    /// The soft (`current`) and hard (`maximum`) `RLIMIT_NOFILE` from `getrlimit`.
    package static func openFiles() -> (current: Int, maximum: Int) {
        var limit = rlimit()
        let result = getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        precondition(result == 0, "getrlimit(RLIMIT_NOFILE) failed: \(Errno.current)")
        return (clamped(limit.rlim_cur), clamped(limit.rlim_max))
    }

    /// Raises the soft `RLIMIT_NOFILE` to `desired` (nil: the hard limit), never above the hard limit and
    /// never lowering it, with `setrlimit`; returns the soft limit in force afterwards.
    @discardableResult
    package static func raiseOpenFiles(to desired: Int? = nil) -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else {
            return 0
        }
        let target = desired.map { rlim_t(max($0, 0)) } ?? limit.rlim_max
        let raised = min(max(target, limit.rlim_cur), limit.rlim_max)
        if raised != limit.rlim_cur {
            var updated = rlimit(rlim_cur: raised, rlim_max: limit.rlim_max)
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &updated) == 0 {
                limit = updated
            }
        }
        return clamped(limit.rlim_cur)
    }

    /// Raises the hard `RLIMIT_NOFILE` to `desired` when it is lower and the process may (a privileged one, with
    /// `CAP_SYS_RESOURCE`; otherwise `setrlimit` fails and the hard limit stays), then the soft limit as
    /// `raiseOpenFiles(to:)` does; returns the soft limit in force afterwards. For the benchmark, which holds both
    /// sides' sockets of a fan-out to 10,000 at once where it may.
    @discardableResult
    package static func raiseOpenFilesBeyondTheHardLimit(to desired: Int) -> Int {
        var limit = rlimit()
        if getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, clamped(limit.rlim_max) < desired {
            var raised = rlimit(rlim_cur: limit.rlim_cur, rlim_max: rlim_t(desired))
            _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised)
        }
        return raiseOpenFiles(to: desired)
    }

    /// `RLIM_INFINITY` and other values past `Int.max` as `Int.max`.
    private static func clamped(_ value: rlim_t) -> Int {
        Int(clamping: value)
    }
}
