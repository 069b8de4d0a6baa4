import LinuxSystem
import Testing

/// The watcher's settle windows are often below a millisecond: `Poller` waits them out exactly with `ppoll`.
@Suite(.serialized) struct PollerTimeoutTests {
    @Test(arguments: [Duration.nanoseconds(1), .microseconds(300), .microseconds(1700), .milliseconds(20)])
    func aWaitNeverEndsBeforeItsTimeout(timeout: Duration) throws {
        let poller = try Poller()
        let start = ContinuousClock.now
        #expect(try poller.wait(timeout: timeout).isEmpty)
        #expect(ContinuousClock.now - start >= timeout)
    }

    @Test func subMillisecondTimeoutsAreNotRoundedUpAndDoNotSpin() throws {
        let poller = try Poller()
        let cpuBefore = ProcessStatistics.threadCPUTime()
        var elapsed: [Duration] = []
        for _ in 0..<21 {
            let start = ContinuousClock.now
            #expect(try poller.wait(timeout: .microseconds(300)).isEmpty)
            elapsed.append(ContinuousClock.now - start)
        }
        let total = elapsed.reduce(.zero, +)
        #expect(elapsed.allSatisfy { $0 >= .microseconds(300) })
        // A wait rounded up to a millisecond can never take less: one shorter wait proves the precision,
        // and on a busy machine (which only makes waits longer) at least one of 21 is usually on time.
        #expect(try #require(elapsed.min()) < .milliseconds(1))
        #expect(ProcessStatistics.threadCPUTime() - cpuBefore < total / 2)
    }
}
