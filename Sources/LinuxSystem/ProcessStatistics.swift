import Glibc

/// Resource usage of this process, for the benchmarks and the daemon's `status`.
package enum ProcessStatistics {
    /// The CPU time this process has used, user plus system, from `getrusage(RUSAGE_SELF)`.
    package static func cpuTime() -> Duration {
        let usage = resourceUsage()
        let seconds = Int64(usage.ru_utime.tv_sec) + Int64(usage.ru_stime.tv_sec)
        let microseconds = Int64(usage.ru_utime.tv_usec) + Int64(usage.ru_stime.tv_usec)
        return .seconds(seconds) + .microseconds(microseconds)
    }

    /// The largest resident set this process has had, in bytes, from `getrusage(RUSAGE_SELF)` (`ru_maxrss`
    /// is in KiB on Linux).
    package static func peakResidentBytes() -> Int {
        resourceUsage().ru_maxrss * 1024
    }

    /// The kernel's high-water mark of this process's resident set since it started or since the last
    /// `resetResidentHighWaterMark()`, in bytes (`VmHWM` in `/proc/self/status`); nil when it cannot be read.
    package static func residentHighWaterMark() -> Int? {
        guard let status = try? FileSystem.readFile(atPath: "/proc/self/status", maximumSize: 1 << 16),
              let line = String(decoding: status, as: UTF8.self).split(separator: "\n")
                  .first(where: { $0.hasPrefix("VmHWM:") }),
              let kibibytes = Int(line.dropFirst(6).trimmingPrefix(while: { $0 == " " || $0 == "\t" })
                  .prefix(while: \.isNumber)) else { return nil }
        return kibibytes * 1024
    }

    /// Sets the high-water mark of `residentHighWaterMark()` back to what is resident now (writes `5` to
    /// `/proc/self/clear_refs`, Linux 4.0 and later): a measure of one step's peak, unlike `peakResidentBytes()`,
    /// which keeps the largest the process ever had.
    /// - Throws: `SystemError` when the file cannot be written.
    package static func resetResidentHighWaterMark() throws(SystemError) {
        try FileSystem.writeFile(Array("5".utf8), toPath: "/proc/self/clear_refs")
    }

    /// This process's ID, from `getpid`.
    package static var processID: Int32 {
        getpid()
    }

    /// The real user ID, from `getuid`.
    package static var userID: UInt32 {
        getuid()
    }

    private static func resourceUsage() -> rusage {
        var usage = rusage()
        let result = getrusage(RUSAGE_SELF.rawValue, &usage)
        precondition(result == 0, "getrusage(RUSAGE_SELF) failed: \(Errno.current)")
        return usage
    }
}

/// The process environment.
package enum Environment {
    /// The value of the environment variable `name`, from `getenv`; nil when it is not set.
    package static func value(_ name: String) -> String? {
        guard let value = getenv(name) else {
            return nil
        }
        return String(cString: value)
    }
}
