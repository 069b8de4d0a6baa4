import Dispatch
import LinuxSystem
import Testing

@Suite(.serialized) struct PollerTests {
    @Test func aTimeoutReturnsNothingAfterTheTimeout() throws {
        let poller = try Poller()
        let start = ContinuousClock.now
        #expect(try poller.wait(timeout: .milliseconds(20)).isEmpty)
        #expect(ContinuousClock.now - start >= .milliseconds(20))
        #expect(try poller.wait(timeout: .zero).isEmpty)
    }

    @Test func wakeFromAnotherThreadEndsAWait() throws {
        let poller = try Poller()
        let start = ContinuousClock.now
        DispatchQueue.global().async { poller.wake() }
        #expect(try poller.wait(timeout: .seconds(5)).isEmpty)
        #expect(ContinuousClock.now - start < .seconds(5))
        // The wake-up was consumed: the next wait runs to its timeout.
        #expect(try poller.wait(timeout: .milliseconds(1)).isEmpty)
    }

    @Test func aWakeBeforeTheWaitEndsItAtOnce() throws {
        let poller = try Poller()
        poller.wake()
        poller.wake()
        let start = ContinuousClock.now
        #expect(try poller.wait(timeout: .seconds(5)).isEmpty)
        #expect(ContinuousClock.now - start < .seconds(5))
    }

    @Test func aPipeBecomesReadyWhenWrittenAndStaysReadyUntilDrained() throws {
        let poller = try Poller()
        let pipe = try Descriptor.makePipe()
        defer {
            Descriptor.close(pipe.reading)
            Descriptor.close(pipe.writing)
        }
        try poller.add(pipe.reading)
        #expect(try poller.wait(timeout: .zero).isEmpty)
        #expect(try Descriptor.write([1, 2, 3], to: pipe.writing) == 3)
        #expect(try poller.wait(timeout: .seconds(5)) == [pipe.reading])
        #expect(try poller.wait(timeout: .seconds(5)) == [pipe.reading])
        #expect(try Descriptor.read(from: pipe.reading, maximumCount: 16) == [1, 2, 3])
        #expect(try poller.wait(timeout: .zero).isEmpty)
        poller.remove(pipe.reading)
        _ = try Descriptor.write([4], to: pipe.writing)
        #expect(try poller.wait(timeout: .zero).isEmpty)
    }

    @Test func aDescriptorAddedDuringAWaitIsWatchedByThatWait() throws {
        let poller = try Poller()
        let pipe = try Descriptor.makePipe()
        defer {
            Descriptor.close(pipe.reading)
            Descriptor.close(pipe.writing)
        }
        DispatchQueue.global().async {
            try? poller.add(pipe.reading)
            _ = try? Descriptor.write([1], to: pipe.writing)
        }
        // Adding wakes the wait internally; it polls again with the pipe instead of returning [].
        #expect(try poller.wait(timeout: .seconds(5)) == [pipe.reading])
    }

    @Test func addingTwiceOrAClosedDescriptorFails() throws {
        let poller = try Poller()
        let pipe = try Descriptor.makePipe()
        defer { Descriptor.close(pipe.writing) }
        try poller.add(pipe.reading)
        #expect(throws: SystemError(operation: "poll", errno: .exists)) { try poller.add(pipe.reading) }
        poller.remove(pipe.reading)
        Descriptor.close(pipe.reading)
        let error = #expect(throws: SystemError.self) { try poller.add(pipe.reading) }
        #expect(error?.errno == .badFileDescriptor)
    }

    @Test func aHungUpPipeIsReady() throws {
        let poller = try Poller()
        let pipe = try Descriptor.makePipe()
        defer { Descriptor.close(pipe.reading) }
        try poller.add(pipe.reading)
        Descriptor.close(pipe.writing)
        #expect(try poller.wait(timeout: .seconds(5)) == [pipe.reading])
        #expect(try Descriptor.read(from: pipe.reading, maximumCount: 16).isEmpty)
    }
}
