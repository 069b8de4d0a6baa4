import Dispatch
import HotStringsTestSupport
import LinuxSystem
import Testing

@Suite(.serialized) struct EventPollerTests {
    @Test func aSocketIsReadableWhenWrittenAndStaysReadableUntilDrained() throws {
        try withPair { poller, first, second throws in
            try poller.add(first, interest: .readable)
            #expect(try poller.wait(timeout: .zero).isEmpty)
            #expect(try send([1, 2, 3], to: second) == 3)
            let ready = EventPoller.Ready(fd: first, isReadable: true, isWritable: false, isHangUp: false)
            #expect(try poller.wait(timeout: .seconds(5)) == [ready])
            #expect(try poller.wait(timeout: .seconds(5)) == [ready])
            #expect(try receive(from: first).1 == [1, 2, 3])
            #expect(try poller.wait(timeout: .zero).isEmpty)
        }
    }

    @Test func writableInterestCanBeTurnedOnAndOff() throws {
        try withPair { poller, first, _ throws in
            try poller.add(first, interest: [.readable, .writable])
            let writable = EventPoller.Ready(fd: first, isReadable: false, isWritable: true, isHangUp: false)
            #expect(try poller.wait(timeout: .seconds(5)) == [writable])
            try poller.modify(first, interest: .readable)
            #expect(try poller.wait(timeout: .zero).isEmpty)
            try poller.modify(first, interest: .writable)
            #expect(try poller.wait(timeout: .seconds(5)) == [writable])
            poller.remove(first)
            #expect(try poller.wait(timeout: .zero).isEmpty)
        }
    }

    @Test(arguments: [EventPoller.Interest.readable, [], [.readable, .writable]])
    func aClosedPeerIsAHangUpWhateverTheInterest(interest: EventPoller.Interest) throws {
        try withPair { poller, first, second throws in
            try poller.add(first, interest: interest)
            SocketIO.close(second)
            second = -1   // closed: withPair must not close the number again (another test may own it by now)
            let ready = try poller.wait(timeout: .seconds(5))
            #expect(ready.map(\.fd) == [first])
            #expect(ready.first?.isHangUp == true)
            #expect(ready.first?.isReadable == interest.contains(.readable))
            #expect(try receive(from: first).0 == .closed)
        }
    }

    @Test func aPeerThatOnlyShutsDownItsWritingIsReadableNotHungUp() throws {
        try withPair { poller, first, second throws in
            try poller.add(first, interest: .readable)
            SocketIO.shutdownWrite(second)
            let ready = EventPoller.Ready(fd: first, isReadable: true, isWritable: false, isHangUp: false)
            #expect(try poller.wait(timeout: .seconds(5)) == [ready])
            #expect(try receive(from: first).0 == .closed)
        }
    }

    @Test func aListenerIsReadableWithAPendingConnection() throws {
        try withTemporaryDirectory { directory throws in
            let poller = try EventPoller()
            let listener = try UnixSocket.listen(atPath: "\(directory)/listener.sock")
            defer { SocketIO.close(listener) }
            try poller.add(listener, interest: .readable)
            #expect(try poller.wait(timeout: .zero).isEmpty)
            let client = try UnixSocket.connect(toPath: "\(directory)/listener.sock")
            defer { SocketIO.close(client) }
            #expect(try poller.wait(timeout: .seconds(5)).map(\.fd) == [listener])
            let accepted = try #require(try UnixSocket.accept(listener))
            SocketIO.close(accepted)
            #expect(try poller.wait(timeout: .zero).isEmpty)
        }
    }

    @Test func wakeFromAnotherThreadEndsAWait() throws {
        let poller = try EventPoller()
        let start = ContinuousClock.now
        DispatchQueue.global().async { poller.wake() }
        #expect(try poller.wait(timeout: .seconds(5)).isEmpty)
        #expect(ContinuousClock.now - start < .seconds(5))
        // The wake-up was consumed: the next wait runs to its timeout.
        let next = ContinuousClock.now
        #expect(try poller.wait(timeout: .milliseconds(2)).isEmpty)
        #expect(ContinuousClock.now - next >= .milliseconds(2))
    }

    @Test func wakeUpsBeforeAWaitEndItAtOnceAndCountAsOne() throws {
        let poller = try EventPoller()
        poller.wake()
        poller.wake()
        let start = ContinuousClock.now
        #expect(try poller.wait(timeout: .seconds(5)).isEmpty)
        #expect(ContinuousClock.now - start < .seconds(5))
        #expect(try poller.wait(timeout: .zero).isEmpty)
    }

    @Test func aDescriptorAddedDuringAWaitIsReportedByThatWait() throws {
        try withPair { poller, first, second throws in
            let second = second
            DispatchQueue.global().async {
                try? poller.add(first, interest: .readable)
                _ = try? send([1], to: second)
            }
            #expect(try poller.wait(timeout: .seconds(5)).map(\.fd) == [first])
        }
    }

    @Test func registrationMistakesThrowWithErrno() throws {
        try withPair { poller, first, _ throws in
            try poller.add(first, interest: .readable)
            #expect(throws: SystemError(operation: "epoll_ctl", errno: .exists)) {
                try poller.add(first, interest: .writable)
            }
            poller.remove(first)
            poller.remove(first)
            #expect(throws: SystemError(operation: "epoll_ctl", errno: .noSuchFileOrDirectory)) {
                try poller.modify(first, interest: .readable)
            }
        }
        // Numbers no descriptor can have: a closed one could be reused at once by a test running alongside.
        let poller = try EventPoller()
        for fd: Int32 in [-1, 1 << 30] {
            #expect(throws: SystemError(operation: "epoll_ctl", errno: .badFileDescriptor)) {
                try poller.add(fd, interest: .readable)
            }
        }
    }

    @Test func twoThousandDescriptorsAreWatchedAtOnce() throws {
        let pairCount = 1000
        #expect(ResourceLimits.raiseOpenFiles(to: 2 * pairCount + 256) >= 2 * pairCount + 256)
        let poller = try EventPoller()
        var pairs: [(Int32, Int32)] = []
        defer {
            for (first, second) in pairs {
                poller.remove(first)
                poller.remove(second)
                SocketIO.close(first)
                SocketIO.close(second)
            }
        }
        for _ in 0..<pairCount {
            let pair = try UnixSocket.makePair()
            pairs.append(pair)
            try poller.add(pair.0, interest: .readable)
            try poller.add(pair.1, interest: .readable)
        }
        #expect(try poller.wait(timeout: .zero).isEmpty)
        let written = [0, 1, 499, 998, 999]
        for index in written {
            #expect(try send([UInt8(index & 0xFF)], to: pairs[index].1) == 1)
        }
        let ready = try poller.wait(timeout: .seconds(5), maximumEvents: 4096)
        #expect(Set(ready.map(\.fd)) == Set(written.map { pairs[$0].0 }))
        #expect(ready.allSatisfy { $0.isReadable && !$0.isWritable && !$0.isHangUp })
        for (first, second) in pairs {
            try poller.modify(first, interest: .writable)
            try poller.modify(second, interest: .writable)
        }
        let all = try poller.wait(timeout: .seconds(5), maximumEvents: 4096)
        #expect(all.count == 2 * pairCount)
        #expect(all.allSatisfy { $0.isWritable })
        // A smaller batch returns that many; level-triggering reports the rest on later waits.
        #expect(try poller.wait(timeout: .seconds(5), maximumEvents: 100).count == 100)
    }

    /// Runs `body` with a poller and a connected pair; a body that closes the second end sets it to -1.
    private func withPair(_ body: (EventPoller, Int32, inout Int32) throws -> Void) throws {
        let poller = try EventPoller()
        var (first, second) = try UnixSocket.makePair()
        defer {
            poller.remove(first)
            SocketIO.close(first)
            if second >= 0 { SocketIO.close(second) }
        }
        try body(poller, first, &second)
    }
}
