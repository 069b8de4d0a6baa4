import Glibc
import HotStringsTestSupport
import LinuxSystem
import Testing

@Suite struct UnixSocketTests {
    @Test func anAcceptedConnectionKnowsItsPeer() throws {
        try withSocketConnection { connection throws in
            let peer = try UnixSocket.peerCredentials(connection.server)
            #expect(peer.processID == ProcessStatistics.processID)
            #expect(peer.userID == ProcessStatistics.userID)
            // The client sees the listener's process, which is this one too.
            #expect(try UnixSocket.peerCredentials(connection.client) == peer)
            // Nothing else is pending.
            #expect(try UnixSocket.accept(connection.listener) == nil)
        }
    }

    @Test func peerCredentialsOfANonSocketFail() throws {
        let pipe = try Descriptor.makePipe()
        defer {
            Descriptor.close(pipe.reading)
            Descriptor.close(pipe.writing)
        }
        let error = #expect(throws: SystemError.self) { try UnixSocket.peerCredentials(pipe.reading) }
        #expect(error?.operation == "getsockopt")
        #expect(error?.errno == .notSocket)
    }

    @Test(arguments: [0o600, 0o660, 0o666] as [UInt32])
    func theSocketFileHasTheRequestedMode(mode: UInt32) throws {
        try withTemporaryDirectory { directory throws in
            let path = "\(directory)/mode.sock"
            let listener = try UnixSocket.listen(atPath: path, mode: mode)
            defer { SocketIO.close(listener) }
            let status = try FileSystem.status(atPath: path)
            #expect(status.kind == .other)
            #expect(status.permissions == mode)
        }
    }

    /// The mode is set without the process-wide umask, on the file itself: a link or a file that is no socket is
    /// refused and keeps its mode.
    @Test func theModeIsSetOnlyOnASocketAndNeverThroughALink() throws {
        try withTemporaryDirectory { directory throws in
            let listener = try UnixSocket.listen(atPath: "\(directory)/real.sock", mode: 0o600)
            defer { SocketIO.close(listener) }
            try FileSystem.writeFile(Array("x".utf8), toPath: "\(directory)/plain", mode: 0o600)
            #expect(symlink("\(directory)/real.sock", "\(directory)/link.sock") == 0)
            let throughLink = #expect(throws: SystemError.self) {
                try FileSystem.setSocketFileMode(atPath: "\(directory)/link.sock", to: 0o666)
            }
            #expect(throughLink?.errno == .notPermitted)
            let plain = #expect(throws: SystemError.self) {
                try FileSystem.setSocketFileMode(atPath: "\(directory)/plain", to: 0o666)
            }
            #expect(plain?.errno == .notPermitted)
            #expect(try FileSystem.status(atPath: "\(directory)/real.sock").permissions == 0o600)
            #expect(try FileSystem.status(atPath: "\(directory)/plain").permissions == 0o600)
            try FileSystem.setSocketFileMode(atPath: "\(directory)/real.sock", to: 0o660)
            #expect(try FileSystem.status(atPath: "\(directory)/real.sock").permissions == 0o660)
        }
    }

    @Test func theDefaultModeIsOwnerOnly() throws {
        try withTemporaryDirectory { directory throws in
            let listener = try UnixSocket.listen(atPath: "\(directory)/default.sock")
            defer { SocketIO.close(listener) }
            #expect(try FileSystem.status(atPath: "\(directory)/default.sock").permissions == 0o600)
        }
    }

    @Test func isListeningTellsALiveSocketFromAStaleFile() throws {
        try withTemporaryDirectory { directory throws in
            let path = "\(directory)/live.sock"
            #expect(!UnixSocket.isListening(atPath: path))
            let listener = try UnixSocket.listen(atPath: path)
            #expect(UnixSocket.isListening(atPath: path))
            // A daemon that crashed leaves its socket file behind.
            SocketIO.close(listener)
            #expect(try FileSystem.status(atPath: path).kind == .other)
            #expect(!UnixSocket.isListening(atPath: path))
        }
    }

    @Test func isListeningIsFalseForFilesThatAreNotSockets() throws {
        try withTemporaryDirectory { directory throws in
            try FileSystem.writeFile(Array("x".utf8), toPath: "\(directory)/file")
            #expect(!UnixSocket.isListening(atPath: "\(directory)/file"))
            #expect(!UnixSocket.isListening(atPath: directory))
            #expect(!UnixSocket.isListening(atPath: "\(directory)/" + String(repeating: "n", count: 200)))
        }
    }

    @Test func isListeningIsTrueWhenTheBacklogIsFull() throws {
        try withTemporaryDirectory { directory throws in
            let path = "\(directory)/busy.sock"
            // Linux queues backlog + 1 connections; the next non-blocking connect gets EAGAIN.
            let listener = try UnixSocket.listen(atPath: path, backlog: 0)
            let queued = try UnixSocket.connect(toPath: path)
            defer {
                SocketIO.close(queued)
                SocketIO.close(listener)
            }
            #expect(UnixSocket.isListening(atPath: path))
        }
    }

    @Test func aSecondListenerOnTheSamePathIsRefused() throws {
        try withTemporaryDirectory { directory throws in
            let path = "\(directory)/taken.sock"
            let listener = try UnixSocket.listen(atPath: path)
            let live = #expect(throws: SystemError.self) { try UnixSocket.listen(atPath: path) }
            #expect(live == SystemError(operation: "bind", path: path, errno: .addressInUse))
            SocketIO.close(listener)
            // A stale file is not replaced either: the caller decides, after isListening, to remove it.
            let stale = #expect(throws: SystemError.self) { try UnixSocket.listen(atPath: path) }
            #expect(stale?.errno == .addressInUse)
            try FileSystem.removeFile(atPath: path)
            SocketIO.close(try UnixSocket.listen(atPath: path))
        }
    }

    @Test func connectFailuresNameThePathAndKeepErrno() throws {
        try withTemporaryDirectory { directory throws in
            let missing = "\(directory)/missing.sock"
            #expect(throws: SystemError(operation: "connect", path: missing, errno: .noSuchFileOrDirectory)) {
                try UnixSocket.connect(toPath: missing)
            }
            let stale = "\(directory)/stale.sock"
            SocketIO.close(try UnixSocket.listen(atPath: stale))
            #expect(throws: SystemError(operation: "connect", path: stale, errno: .connectionRefused)) {
                try UnixSocket.connect(toPath: stale, nonBlocking: true)
            }
        }
    }

    @Test(arguments: [
        (String(repeating: "p", count: 108), Errno.nameTooLong),
        ("", Errno.noSuchFileOrDirectory),
        ("/tmp/a\u{0}b.sock", Errno.invalidArgument),
    ])
    func pathsThatCannotBeAddressesFail(path: String, errno: Errno) throws {
        #expect(throws: SystemError(operation: "bind", path: path, errno: errno)) {
            try UnixSocket.listen(atPath: path)
        }
        #expect(throws: SystemError(operation: "connect", path: path, errno: errno)) {
            try UnixSocket.connect(toPath: path)
        }
    }

    @Test func aPairIsConnectedBothWays() throws {
        let (first, second) = try UnixSocket.makePair()
        defer {
            SocketIO.close(first)
            SocketIO.close(second)
        }
        #expect(try send([1, 2], to: first) == 2)
        #expect(try receive(from: second).1 == [1, 2])
        #expect(try send([3], to: second) == 1)
        #expect(try receive(from: first).1 == [3])
        #expect(try receive(from: first).0 == .wouldBlock)
    }

    @Test func theOpenFilesLimitCanBeRaisedToTheHardLimit() {
        let before = ResourceLimits.openFiles()
        let raised = ResourceLimits.raiseOpenFiles(to: 4096)
        #expect(raised >= min(4096, before.maximum))
        #expect(raised <= before.maximum)
        #expect(ResourceLimits.openFiles().current == raised)
        // Never lowered.
        #expect(ResourceLimits.raiseOpenFiles(to: 16) == raised)
    }

    /// Past the hard limit, a process may raise it only with the privilege to: either the hard limit rises and the
    /// soft one with it, or both stay where they were; the soft limit never passes the hard one.
    @Test func theHardLimitRisesOnlyWhereThatIsAllowed() {
        let before = ResourceLimits.openFiles()
        guard before.maximum < 1 << 30 else { return }  // no hard limit to pass
        let desired = before.maximum + 1
        let raised = ResourceLimits.raiseOpenFilesBeyondTheHardLimit(to: desired)
        let after = ResourceLimits.openFiles()
        #expect(after.current == raised && raised <= after.maximum)
        #expect(after.maximum == before.maximum ? raised == before.maximum : raised == desired)
    }
}
