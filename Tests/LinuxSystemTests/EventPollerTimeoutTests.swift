import LinuxSystem
import Testing

/// Timeouts end no earlier than asked, below a millisecond where the kernel allows it, and sleep instead
/// of spinning, both with `epoll_pwait2` and with the `epoll_wait` fallback.
@Suite(.serialized) struct EventPollerTimeoutTests {
    @Test(arguments: [false, true], [
        Duration.zero, .nanoseconds(1), .microseconds(50), .microseconds(300), .microseconds(999),
        .milliseconds(1), .microseconds(1500), .milliseconds(15),
    ])
    func aWaitWithNothingReadyEndsNoEarlierThanItsTimeout(millisecondTimeouts: Bool, timeout: Duration)
        throws
    {
        let poller = try EventPoller(usingMillisecondTimeouts: millisecondTimeouts)
        let start = ContinuousClock.now
        #expect(try poller.wait(timeout: timeout).isEmpty)
        let elapsed = ContinuousClock.now - start
        #expect(elapsed >= timeout)
        if millisecondTimeouts {
            #expect(!poller.usesNanosecondTimeouts)
        }
    }

    @Test func subMillisecondTimeoutsAreKeptWhereTheKernelAllows() throws {
        let poller = try EventPoller()
        var elapsed: [Duration] = []
        for _ in 0..<21 {
            let start = ContinuousClock.now
            #expect(try poller.wait(timeout: .microseconds(200)).isEmpty)
            elapsed.append(ContinuousClock.now - start)
        }
        #expect(elapsed.allSatisfy { $0 >= .microseconds(200) })
        if poller.usesNanosecondTimeouts {
            // A wait rounded up to a millisecond can never take less: one shorter wait proves the precision,
            // and on a busy machine (which only makes waits longer) at least one of 21 is usually on time.
            #expect(try #require(elapsed.min()) < .milliseconds(1))
        } else {
            // A kernel before 5.11 (no epoll_pwait2): rounded up to epoll_wait's millisecond instead.
            #expect(elapsed.sorted()[elapsed.count / 2] >= .milliseconds(1))
        }
    }

    @Test(arguments: [false, true])
    func shortWaitsSleepInsteadOfSpinning(millisecondTimeouts: Bool) throws {
        let poller = try EventPoller(usingMillisecondTimeouts: millisecondTimeouts)
        let cpuBefore = ProcessStatistics.threadCPUTime()
        let start = ContinuousClock.now
        for _ in 0..<40 {
            #expect(try poller.wait(timeout: .microseconds(250)).isEmpty)
        }
        let elapsed = ContinuousClock.now - start
        let cpu = ProcessStatistics.threadCPUTime() - cpuBefore
        #expect(elapsed >= .milliseconds(10))
        if !poller.usesNanosecondTimeouts {
            // Rounded up to epoll_wait's whole millisecond (a wait can only be shorter after a stall of at
            // least 250 µs before it, so most of the 40 took 1 ms).
            #expect(elapsed >= .milliseconds(20))
        }
        #expect(cpu < elapsed / 2, "a thread that spins uses as much CPU as wall time")
    }

    @Test(arguments: [
        (nil, -1),
        (.zero, 0),
        (.nanoseconds(-5), 0),
        (.nanoseconds(1), 1),
        (.microseconds(999), 1),
        (.milliseconds(1), 1),
        (.milliseconds(1) + .nanoseconds(1), 2),
        (.microseconds(2500), 3),
        (.seconds(3), 3000),
        (.seconds(Int64.max / 2), Int32.max),
    ] as [(Duration?, Int32)])
    func epollWaitTimeoutsAreRoundedUp(timeout: Duration?, milliseconds: Int32) {
        #expect(EventPoller.milliseconds(roundingUp: timeout) == milliseconds)
    }
}
