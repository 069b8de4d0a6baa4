@testable import HotStringsFront
import LinuxSystem
import Testing

/// What the I/O loop asks of the poller: the interest it sets (and how seldom it changes it), hang-ups, paused
/// accepts, who is admitted. Over fake sockets through `LoopHarness`.
struct IOLoopPollerTests {
    /// A request read and handed to the core in the same pass leaves the client's interest as it was: no
    /// `epoll_ctl` for it (the loop settles interest once, at the end of the pass), nor for its answer, written at
    /// once.
    @Test func aRequestAndItsAnswerChangeNoInterest() throws {
        let harness = try LoopHarness()
        let client = try #require(harness.connect())
        #expect(harness.io.interest(of: client.fd) == .readable)
        let before = harness.io.modifyCount
        for index in 0..<10 {
            harness.send(client, "get \(index)")
            harness.settle()
            harness.answer(client.id, line("answer \(index)"))
            harness.settle()
        }
        #expect(harness.lines(client) == (0..<10).map { "answer \($0)" })
        #expect(harness.io.modifyCount == before)
    }

    /// A client whose requests wait (the core's backlog is full) is not read, so level-triggered epoll does not
    /// report it again and again; once there is room it is read again.
    @Test func aClientWhoseRequestsWaitIsNotReadUntilThereIsRoom() throws {
        var limits = IOLoop.Limits()
        limits.coreBacklog = 1
        let harness = try LoopHarness(limits: limits)
        let first = try #require(harness.connect())
        let second = try #require(harness.connect())
        harness.send(first, "one")
        harness.send(second, "two")
        harness.send(second, "three")
        harness.settle()
        #expect(harness.requests(from: first.id) == ["one"])
        #expect(harness.io.interest(of: second.fd) == [], "its lines wait for the core: not read")
        harness.answer(first.id, line("answer one"))
        harness.settle()
        #expect(harness.requests(from: second.id) == ["two"])
        harness.answer(second.id, line("answer two"))
        harness.settle()
        #expect(harness.requests(from: second.id) == ["two", "three"])
        harness.answer(second.id, line("answer three"))
        harness.settle()
        #expect(harness.io.interest(of: second.fd) == .readable)
    }

    /// A client that hangs up while it is not read (at its limit of requests in flight) is closed at once: epoll
    /// reports the hang-up whatever the interest, and would wake the loop again and again (`settle` would fail).
    @Test func aClientThatHangsUpWhileNotReadIsClosedAtOnce() throws {
        var limits = IOLoop.Limits()
        limits.requestsInFlight = 1
        let harness = try LoopHarness(limits: limits)
        let client = try #require(harness.connect())
        harness.send(client, bytes: line("one") + line("two"))
        harness.settle()
        #expect(harness.requests(from: client.id) == ["one"])
        #expect(harness.io.interest(of: client.fd)?.contains(.readable) == false)
        harness.io.closeClient(client.fd)
        harness.settle()
        #expect(harness.hasReported(.closed(client.id)) && harness.isClosed(client))
        #expect(!harness.io.isWatched(client.fd))
        #expect(harness.state.coreInFlight == 0, "its request in the core is released")
    }

    /// Out of descriptors, accepting fails: the listeners leave the poller (level-triggered epoll would report them
    /// again and again) for 100 ms, or until a client leaves; then the pending client is accepted.
    @Test func acceptsPauseWhenOutOfDescriptors() throws {
        let harness = try LoopHarness()
        let leaver = try #require(harness.connect())
        harness.io.failAccepts(1)
        let fd = harness.io.connect(to: harness.listener)
        harness.settle()
        #expect(!harness.io.isWatched(harness.listener))
        #expect(harness.state.table[fd] == nil)
        harness.turn()
        #expect(harness.io.lastTimeout == .some(.milliseconds(100)), "the loop wakes to accept again")
        harness.advance(by: .milliseconds(100))
        harness.settle()
        #expect(harness.io.isWatched(harness.listener))
        #expect(harness.state.table[fd] != nil, "accepted")

        harness.io.failAccepts(1)
        _ = harness.io.connect(to: harness.listener)
        harness.settle()
        #expect(!harness.io.isWatched(harness.listener))
        harness.io.closeClient(leaver.fd)
        harness.settle()
        #expect(harness.io.isWatched(harness.listener), "a client left: accepting again")
    }

    /// A client whose user is not admitted is closed before anything is read, and is never a connection.
    @Test func aClientOfAnotherUserIsClosedAtOnce() throws {
        let harness = try LoopHarness()
        let fd = harness.io.connect(to: harness.listener, as: PeerCredentials(processID: 1, userID: 666, groupID: 666))
        harness.settle()
        #expect(harness.io.socket(fd)?.loopClosed == true)
        #expect(harness.state.table.isEmpty && harness.reports.isEmpty)
        #expect(harness.loop.connectionCount.load(ordering: .relaxed) == 0)
    }
}
