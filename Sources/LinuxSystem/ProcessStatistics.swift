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

    /// The resident set of a process as the kernel counts it in `/proc/PID/status`, in bytes.
    package struct ResidentMemory: Sendable, Equatable {
        /// The resident set now (`VmRSS`).
        package var current: Int
        /// The largest it has been (`VmHWM`).
        package var highWaterMark: Int
    }

    /// The resident set of process `pid` (this process when nil); nil when it cannot be read (no such process,
    /// one already ended, or a kernel without these lines).
    package static func residentMemory(ofProcess pid: Int32? = nil) -> ResidentMemory? {
        let path = "/proc/\(pid.map(String.init) ?? "self")/status"
        guard let status = try? FileSystem.readFile(atPath: path, maximumSize: 1 << 16) else { return nil }
        var current: Int?
        var highWaterMark: Int?
        // Lines such as "VmHWM:\t  123456 kB".
        for line in String(decoding: status, as: UTF8.self).split(separator: "\n") {
            let name = line.prefix(6)
            guard name == "VmRSS:" || name == "VmHWM:" else { continue }
            let bytes = Int(line.dropFirst(6).trimmingPrefix(while: { $0 == " " || $0 == "\t" })
                .prefix(while: \.isNumber)).map { $0 * 1024 }
            if name == "VmRSS:" { current = bytes } else { highWaterMark = bytes }
        }
        guard let current, let highWaterMark else { return nil }
        return ResidentMemory(current: current, highWaterMark: highWaterMark)
    }

    /// The kernel's high-water mark of the resident set of process `pid` (this process when nil), in bytes
    /// (`VmHWM` in `/proc/PID/status`); nil when it cannot be read.
    package static func residentHighWaterMark(ofProcess pid: Int32? = nil) -> Int? {
        residentMemory(ofProcess: pid)?.highWaterMark
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
