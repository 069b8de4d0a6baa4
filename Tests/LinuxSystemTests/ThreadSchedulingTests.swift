import Foundation
import Synchronization
import LinuxSystem
import Testing

struct ThreadSchedulingTests {
    @Test func aPinnedThreadMayRunOnItsProcessorOnly() throws {
        // On a thread of its own, so that the test runner's threads keep every processor.
        let allowed = try onNewThread { () throws(SystemError) -> String? in
            try ThreadScheduling.pinCurrentThread(to: [0])
            return Self.allowedProcessors()
        }
        #expect(allowed == "0")
    }

    @Test func pinningToNoOnlineProcessorIsRefusedAndChangesNothing() throws {
        let processors = ProcessInfo.processInfo.activeProcessorCount
        try #require(processors < 64, "this machine has a processor 63")
        let (error, allowedAfter, allowedBefore) = onNewThread { () -> (SystemError?, String?, String?) in
            let before = Self.allowedProcessors()
            do throws(SystemError) {
                try ThreadScheduling.pinCurrentThread(to: [63])
                return (nil, Self.allowedProcessors(), before)
            } catch {
                return (error, Self.allowedProcessors(), before)
            }
        }
        #expect(error?.errno == .invalidArgument)
        #expect(allowedAfter == allowedBefore)
    }

    @Test func schedstatTextIsReadAsRunningAndWaitingNanoseconds() {
        let reading = SchedulerStatistics.parse(Array("1234567 89 1042\n".utf8))
        #expect(reading == SchedulerStatistics.Reading(running: .nanoseconds(1_234_567), waiting: .nanoseconds(89)))
        #expect(SchedulerStatistics.parse(Array("5 6\n".utf8))?.waiting == .nanoseconds(6))
    }

    @Test(arguments: ["", "12", "12\n", "12  34 5", "a 1 2", "1 -2 3", "1 2x 3", "12345678901234567890 1 2"])
    func malformedSchedstatTextIsRejected(_ text: String) {
        #expect(SchedulerStatistics.parse(Array(text.utf8)) == nil)
    }

    @Test func aBusyThreadSeesItsRunningTimeGrow() throws {
        let grew = try onNewThread { () throws(SystemError) -> Bool in
            let statistics = try SchedulerStatistics()
            guard let first = statistics.read() else { return false }
            // Linux updates the figure at a scheduler tick or a switch: spin until it moves, within a deadline.
            let deadline = ContinuousClock.now + .seconds(10)
            var spins = 0
            while ContinuousClock.now < deadline {
                for _ in 0..<10_000 { spins &+= 1 }
                if let now = statistics.read(), now.running > first.running, now.waiting >= first.waiting {
                    return spins > 0
                }
            }
            return false
        }
        #expect(grew)
    }

    /// The `Cpus_allowed_list` line of the calling thread's status.
    private static func allowedProcessors() -> String? {
        guard let status = try? String(contentsOfFile: "/proc/thread-self/status", encoding: .utf8) else { return nil }
        let line = status.split(separator: "\n").first { $0.hasPrefix("Cpus_allowed_list:") }
        return line.map { $0.dropFirst("Cpus_allowed_list:".count).trimmingCharacters(in: .whitespaces) }
    }

    /// Runs `body` on a new thread and returns its result.
    private func onNewThread<T: Sendable, E: Error>(_ body: @escaping @Sendable () throws(E) -> T) throws(E) -> T {
        let result = ResultBox<T, E>()
        let done = DispatchSemaphore(value: 0)
        Thread {
            let outcome = Result { () throws(E) -> T in try body() }
            result.value.withLock { $0 = outcome }
            done.signal()
        }.start()
        done.wait()
        return try result.value.withLock { $0 }!.get()
    }
}

/// A result handed from one thread to another.
private final class ResultBox<T: Sendable, E: Error>: Sendable {
    let value = Mutex<Result<T, E>?>(nil)
}
