import CLinuxShims
import Glibc

/// Where the calling thread may run.
package enum ThreadScheduling {
    /// Restricts the calling thread (and the threads and processes it starts afterwards) to the processors
    /// numbered in `processors` (0 to 63; others are ignored).
    /// - Throws: `SystemError` when the kernel refuses, e.g. when none of them is online.
    package static func pinCurrentThread(to processors: [Int]) throws(SystemError) {
        let mask = processors.filter { (0..<64).contains($0) }.reduce(UInt64(0)) { $0 | UInt64(1) << UInt64($1) }
        guard hotstrings_pin_thread(mask) == 0 else {
            throw SystemError(operation: "sched_setaffinity(\(processors))", errno: .current)
        }
    }

    /// Blocks the calling thread for `duration` (`nanosleep`, resumed after a signal until the time is up).
    package static func sleepCurrentThread(for duration: Duration) {
        let (seconds, attoseconds) = max(duration, .zero).components
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
    }
}

/// Reads a thread's scheduler statistics from `/proc/thread-self/schedstat`, through a descriptor opened once
/// (about a microsecond per reading): the time it ran, and the time it was runnable but waited on a run queue
/// (preempted, or not yet picked after waking).
package final class SchedulerStatistics {
    /// One reading. Linux brings `running` of a thread that is on a processor up to date at each scheduler
    /// tick and switch, so a reading taken by the thread itself may be a tick behind.
    package struct Reading: Equatable, Sendable {
        package var running: Duration
        package var waiting: Duration

        package init(running: Duration, waiting: Duration) {
            self.running = running
            self.waiting = waiting
        }
    }

    private let descriptor: Int32
    private var buffer = [UInt8](repeating: 0, count: 128)

    /// Opens the statistics of the calling thread; only that thread should read them.
    package init() throws(SystemError) {
        let path = "/proc/thread-self/schedstat"
        descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw SystemError(operation: "open", path: path, errno: .current) }
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// The statistics so far; nil when Linux does not give them.
    package func read() -> Reading? {
        let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        return Self.parse(buffer[..<count])
    }

    /// The first two fields of a `schedstat` text, nanoseconds on a processor and on a run queue (the third,
    /// the number of time slices, is ignored); nil unless both are there.
    package static func parse(_ text: some Collection<UInt8>) -> Reading? {
        var fields: [Int64] = []
        var value: Int64 = 0
        var digits = 0
        for byte in text {
            if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") && digits < 18 {
                value = value * 10 + Int64(byte - UInt8(ascii: "0"))
                digits += 1
            } else if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") {
                guard digits > 0 else { return nil }
                fields.append(value)
                if fields.count == 2 { break }
                value = 0
                digits = 0
            } else {
                return nil
            }
        }
        guard fields.count == 2 else { return nil }
        return Reading(running: .nanoseconds(fields[0]), waiting: .nanoseconds(fields[1]))
    }
}
