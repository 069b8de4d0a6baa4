import LinuxSystem
import Testing

@Suite struct SocketIOTests {
    @Test func bytesGoBothWays() throws {
        try withSocketConnection { connection throws in
            #expect(try send(Array("hello\n".utf8), to: connection.client) == 6)
            let (result, bytes) = try receive(from: connection.server)
            #expect(result == .data(6))
            #expect(bytes == Array("hello\n".utf8))
            #expect(try send(Array("world".utf8), to: connection.server) == 5)
            #expect(try receive(from: connection.client).1 == Array("world".utf8))
        }
    }

    @Test func aReadSmallerThanWhatIsQueuedLeavesTheRest() throws {
        try withSocketConnection { connection throws in
            #expect(try send([1, 2, 3, 4, 5], to: connection.client) == 5)
            #expect(try receive(from: connection.server, maximumCount: 2) == (.data(2), [1, 2]))
            #expect(try receive(from: connection.server) == (.data(3), [3, 4, 5]))
        }
    }

    @Test func anEmptyNonBlockingSocketWouldBlock() throws {
        try withSocketConnection { connection throws in
            #expect(try receive(from: connection.server).0 == .wouldBlock)
            #expect(try receive(from: connection.client).0 == .wouldBlock)
        }
    }

    @Test func aClosedPeerReadsAsClosedAfterItsLastBytes() throws {
        try withSocketConnection { connection throws in
            #expect(try send([7, 8], to: connection.client) == 2)
            SocketIO.close(connection.client)
            connection.client = -1
            #expect(try receive(from: connection.server) == (.data(2), [7, 8]))
            #expect(try receive(from: connection.server).0 == .closed)
            #expect(try receive(from: connection.server).0 == .closed)
        }
    }

    @Test func aPeerThatClosesWithUnreadBytesResetsTheConnection() throws {
        try withSocketConnection { connection throws in
            // The server never reads what the client sent, then closes: the client gets ECONNRESET.
            #expect(try send([1], to: connection.client) == 1)
            SocketIO.close(connection.server)
            connection.server = -1
            #expect(try receive(from: connection.client).0 == .closed)
        }
    }

    @Test func aHalfClosedPeerCanStillBeAnswered() throws {
        try withSocketConnection { connection throws in
            #expect(try send(Array("request".utf8), to: connection.client) == 7)
            SocketIO.shutdownWrite(connection.client)
            #expect(try receive(from: connection.server).1 == Array("request".utf8))
            #expect(try receive(from: connection.server).0 == .closed)
            #expect(try send(Array("answer".utf8), to: connection.server) == 6)
            #expect(try receive(from: connection.client).1 == Array("answer".utf8))
        }
    }

    /// Without MSG_NOSIGNAL these writes would kill the test process with SIGPIPE.
    @Test(arguments: [false, true])
    func writingToAClosedPeerThrowsInsteadOfRaisingSIGPIPE(peerHadUnreadBytes: Bool) throws {
        try withSocketConnection { connection throws in
            if peerHadUnreadBytes {
                #expect(try send([1], to: connection.client) == 1)
            }
            SocketIO.close(connection.server)
            connection.server = -1
            let error = #expect(throws: SystemError.self) { try send([2], to: connection.client) }
            #expect(error?.operation == "send")
            #expect(error?.errno == .brokenPipe || error?.errno == .connectionReset)
        }
    }

    @Test func aFullSendBufferWritesZeroUntilThePeerReads() throws {
        try withSocketConnection { connection throws in
            UnixSocket.setSendBufferSize(connection.server, 4096)
            let chunk = [UInt8](repeating: 0x61, count: 16384)
            var written = 0
            var lastCount = -1
            while lastCount != 0 {
                lastCount = try send(chunk, to: connection.server)
                written += lastCount
                try #require(written < 16 << 20, "the send buffer never filled")
            }
            #expect(written > 0)
            // Everything sent is already queued at the client, so no read would block until it is drained.
            var read = 0
            while read < written {
                let (result, bytes) = try receive(from: connection.client, maximumCount: 65536)
                try #require(result == .data(bytes.count))
                read += bytes.count
            }
            #expect(read == written)
            #expect(try send([1], to: connection.server) == 1)
        }
    }

    @Test func writingNothingWritesNothing() throws {
        try withSocketConnection { connection throws in
            #expect(try send([], to: connection.client) == 0)
            #expect(try receive(from: connection.server).0 == .wouldBlock)
        }
    }
}
