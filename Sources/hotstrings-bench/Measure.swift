import Foundation
import LinuxSystem

/// Timing helpers shared by the suites.
enum Measure {
    /// Runs `body` once to warm up, then `iterations` times, and returns each timed run in seconds.
    static func seconds(iterations: Int, _ body: () -> Void) -> [Double] {
        let clock = ContinuousClock()
        body()
        return (0..<iterations).map { _ in clock.measure(body).seconds }
    }

    /// Runs `first` and `second` once each to warm up, then `iterations` times in turn, so that a change in the
    /// machine's load falls on both alike; returns each one's timed runs in seconds.
    static func alternating(iterations: Int, _ first: () -> Void, _ second: () -> Void) -> ([Double], [Double]) {
        let clock = ContinuousClock()
        first()
        second()
        var firstTimes: [Double] = []
        var secondTimes: [Double] = []
        for _ in 0..<iterations {
            firstTimes.append(clock.measure(first).seconds)
            secondTimes.append(clock.measure(second).seconds)
        }
        return (firstTimes, secondTimes)
    }

    /// The median of some samples (the mean of the middle two for an even count).
    static func median(_ samples: [Double]) -> Double {
        precondition(!samples.isEmpty, "median of no samples")
        let sorted = samples.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}

extension Duration {
    /// The duration as floating-point seconds.
    var seconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}

/// The memory figures of this process from `/proc/self/status`, in bytes.
struct ProcessMemory: Codable, Sendable {
    /// Resident set size now (`VmRSS`).
    var residentBytes: Int
    /// Peak resident set size so far (`VmHWM`).
    var peakResidentBytes: Int

    /// Reads the current figures; Linux only (the kernel keeps them in `/proc/self/status`).
    static func current() throws -> ProcessMemory {
        guard let memory = ProcessStatistics.residentMemory() else { throw MemoryStatusError() }
        return ProcessMemory(residentBytes: memory.current, peakResidentBytes: memory.highWaterMark)
    }
}

/// `/proc/self/status` has no VmRSS or VmHWM line.
struct MemoryStatusError: Error, CustomStringConvertible {
    var description: String { "/proc/self/status has no VmRSS/VmHWM (not Linux?)" }
}

/// Formats byte counts and rates for the printed tables.
enum Format {
    static func megabytes(_ bytes: Int) -> String { String(format: "%.2f MB", Double(bytes) / 1e6) }
    static func mebibytes(_ bytes: Int) -> String { String(format: "%.1f MiB", Double(bytes) / 1_048_576) }
    static func rate(_ megabytesPerSecond: Double) -> String { String(format: "%.1f", megabytesPerSecond) }
    static func ratio(_ value: Double) -> String { String(format: "%.2fx", value) }

    /// Pads or truncates `text` to `width` columns, right-aligned when `right` is set.
    static func cell(_ text: String, _ width: Int, right: Bool = false) -> String {
        let count = text.count
        if count >= width { return text }
        let padding = String(repeating: " ", count: width - count)
        return right ? padding + text : text + padding
    }
}
