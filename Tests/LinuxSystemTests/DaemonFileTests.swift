import Foundation
import HotStringsTestSupport
import LinuxSystem
import Testing

/// The calls the daemon uses to own its socket path: `FileLock`, `FileSystem.ownership` and `SocketIO`'s
/// typed transfers.
struct DaemonFileTests {
    @Test func aSecondLockOnTheSameFileIsHeldAndNamesTheHolder() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/d.sock.lock"
            let first = try FileLock(path: path, ownerID: ProcessStatistics.userID)
            // flock locks belong to the open file description: a second open conflicts even in one process (after
            // the wait for a copy of an earlier holder's descriptor, which a live holder outlasts).
            #expect(throws: FileLock.Failure.held(holder: ProcessStatistics.processID)) {
                try FileLock(path: path, ownerID: ProcessStatistics.userID, ownReleaseWait: .milliseconds(20))
            }
            let owner = try FileSystem.ownership(atPath: path, followingSymlinks: false)
            #expect(owner.kind == .file && owner.permissions == 0o600)
            _ = first
        }
    }

    @Test func aLockIsFreeAgainOnceItsHolderIsGone() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/d.sock.lock"
            var first: FileLock? = try FileLock(path: path, ownerID: ProcessStatistics.userID)
            _ = first
            first = nil
            _ = try FileLock(path: path, ownerID: ProcessStatistics.userID)
        }
    }

    /// A child forked by another thread holds a copy of every descriptor until it execs, and a lock goes only with
    /// the last copy: released by its holder, it stays taken that moment longer (the suite's pulls failed "held by
    /// process <its own pid>"). A `dup` is such a copy; it is closed while the next lock waits.
    @Test func aLockLeftTakenByACopyOfThisProcesssDescriptorIsWaitedFor() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/pull.lock"
            var first: FileLock? = try FileLock(path: path, ownerID: ProcessStatistics.userID)
            let copy = dup(first!.fd)
            #expect(copy >= 0)
            first = nil
            #expect(throws: FileLock.Failure.held(holder: ProcessStatistics.processID)) {
                try FileLock(path: path, ownerID: ProcessStatistics.userID, ownReleaseWait: .zero)
            }
            let closer = Thread { _ = close(copy) }
            closer.start()
            // Waits (up to a minute: the closing thread may start late on a loaded machine) instead of failing.
            _ = try FileLock(path: path, ownerID: ProcessStatistics.userID, ownReleaseWait: .seconds(60))
        }
    }

    @Test func aSymbolicLinkOrAnotherUsersFileIsNotTakenAsTheLock() throws {
        try withTemporaryDirectory { directory in
            let target = directory + "/target"
            try FileSystem.writeFile(Array("x".utf8), toPath: target)
            try FileManager.default.createSymbolicLink(atPath: directory + "/link.lock", withDestinationPath: target)
            #expect(throws: FileLock.Failure.untrusted("\(directory)/link.lock is a symbolic link")) {
                try FileLock(path: directory + "/link.lock", ownerID: ProcessStatistics.userID)
            }
            let other = ProcessStatistics.userID &+ 1
            #expect(throws: FileLock.Failure.untrusted("\(target) is owned by uid \(ProcessStatistics.userID)")) {
                try FileLock(path: target, ownerID: other)
            }
            #expect(try String(contentsOfFile: target, encoding: .utf8) == "x")
        }
    }

    @Test func ownershipTellsASocketFromALinkToIt() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/s.sock"
            SocketIO.close(try UnixSocket.listen(atPath: path, mode: 0o640))
            try FileManager.default.createSymbolicLink(atPath: directory + "/link", withDestinationPath: path)
            let socket = try FileSystem.ownership(atPath: path, followingSymlinks: false)
            #expect(socket.isSocket && socket.permissions == 0o640 && socket.userID == ProcessStatistics.userID)
            let link = try FileSystem.ownership(atPath: directory + "/link", followingSymlinks: false)
            #expect(!link.isSocket && link.kind == .symlink)
            let followed = try FileSystem.ownership(atPath: directory + "/link", followingSymlinks: true)
            #expect(followed.isSameFile(as: socket))
            let folder = try FileSystem.ownership(atPath: directory, followingSymlinks: true)
            #expect(!folder.isWritableByOthers && !folder.isSticky)
        }
    }

    @Test func transfersReportBytesWouldBlockAndAClosedPeerAsValues() throws {
        let (left, right) = try UnixSocket.makePair(nonBlocking: true)
        var buffer = [UInt8](repeating: 0, count: 16)
        #expect(SocketIO.receive(left, into: &buffer) == .wouldBlock)
        #expect(Array("hi\n".utf8).withUnsafeBytes { SocketIO.transmit(right, $0) } == .bytes(3))
        #expect(SocketIO.receive(left, into: &buffer) == .bytes(3))
        // shutdown rather than close: a concurrent test's fork may hold a copy of `right` until its exec.
        _ = shutdown(right, Int32(SHUT_RDWR))
        #expect(SocketIO.receive(left, into: &buffer) == .closed)
        #expect(Array("x".utf8).withUnsafeBytes { SocketIO.transmit(left, $0) } == .closed)
        SocketIO.close(right)
        SocketIO.close(left)
    }
}
