import Foundation
import HotStringsTestSupport
import HotStringsTestTraits
import LinuxSystem
import Testing

/// Issue 9, findings 1, 3 and 4: `serve` replaces only a stale socket of its own, refuses directories and
/// sockets other users control, runs once per path, removes only its own socket, and never `chmod`s by path.
@Suite(.needsHotstringsBinary)
struct SocketStartupTests {
    /// Starts a daemon that must refuse to start; returns its log.
    func refusal(_ sandbox: Sandbox, arguments: [String] = []) throws -> String {
        let daemon = try DaemonProcess(sandbox, arguments: arguments, logName: "refused")
        let status = daemon.waitForExit()
        #expect(status == 1, "the daemon was expected to refuse to start; log: \(daemon.log)")
        return daemon.log
    }

    @Test func aRegularFileAtTheSocketPathSurvives() throws {
        let sandbox = try Sandbox()
        try FileSystem.writeFile(Array("my notes\n".utf8), toPath: sandbox.socket)
        let log = try refusal(sandbox)
        #expect(log.contains("refusing to replace \(sandbox.socket): it is a regular file, not a socket"), "\(log)")
        #expect(try String(contentsOfFile: sandbox.socket, encoding: .utf8) == "my notes\n")
    }

    @Test func aSymbolicLinkAtTheSocketPathSurvivesAndSoDoesItsTarget() throws {
        let sandbox = try Sandbox()
        let target = sandbox.root + "/target.txt"
        try FileSystem.writeFile(Array("keep\n".utf8), toPath: target)
        try FileManager.default.createSymbolicLink(atPath: sandbox.socket, withDestinationPath: target)
        let log = try refusal(sandbox)
        #expect(log.contains("it is a symbolic link, not a socket"), "\(log)")
        #expect(try FileSystem.status(atPath: sandbox.socket, followingSymlinks: false).kind == .symlink)
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "keep\n")
    }

    @Test func aWorldWritableDirectoryWithoutTheStickyBitIsRefused() throws {
        let sandbox = try Sandbox()
        let open = sandbox.root + "/open"
        try FileSystem.makeDirectory(atPath: open, mode: 0o700)
        try FileSystem.setPermissions(0o777, atPath: open)
        let log = try refusal(sandbox, arguments: ["--socket", open + "/d.sock"])
        #expect(log.contains("refusing the socket directory \(open): mode 777"), "\(log)")
        #expect(log.contains("without the sticky bit"), "\(log)")
        #expect((try? FileSystem.status(atPath: open + "/d.sock", followingSymlinks: false)) == nil)

        // The same directory with the sticky bit, as /tmp has, is fine.
        try FileSystem.setPermissions(0o1777, atPath: open)
        let daemon = try DaemonProcess.serving(sandbox, arguments: ["--socket", open + "/d.sock"])
        #expect(try LineClient(socket: open + "/d.sock").request(#"{"id":1,"op":"hello"}"#)["ok"] == true)
        #expect(try daemon.terminate() == 0)
    }

    @Test func aStaleSocketOfOursIsReplacedAndTheModeComesFromTheUmask() throws {
        let sandbox = try Sandbox()
        // A socket file nobody listens on, as a crash leaves it.
        SocketIO.close(try UnixSocket.listen(atPath: sandbox.socket))
        for mode: UInt32 in [0o600, 0o660, 0o666] {
            let daemon = try DaemonProcess.serving(sandbox, arguments: ["--socket-mode", String(mode, radix: 8)])
            let owner = try FileSystem.ownership(atPath: sandbox.socket, followingSymlinks: false)
            #expect(owner.isSocket)
            #expect(owner.permissions == mode, "mode \(String(owner.permissions, radix: 8))")
            #expect(owner.userID == ProcessStatistics.userID)
            let lock = try FileSystem.ownership(atPath: sandbox.socket + ".lock", followingSymlinks: false)
            #expect(lock.kind == .file && lock.permissions == 0o600)
            #expect(try daemon.terminate() == 0)
            #expect((try? FileSystem.status(atPath: sandbox.socket, followingSymlinks: false)) == nil)
        }
    }

    @Test(arguments: 1...3)
    func twoDaemonsStartedAtOnceOnOnePathLeaveExactlyOneServing(round: Int) throws {
        let sandbox = try Sandbox()
        // Both pause between finding the path free and binding it (the daemon's test hook), so both find it
        // free unless the lock keeps the second out: without the lock, the later one replaced the earlier
        // one's new socket as "stale" and both kept running.
        let pause: [String: String?] = ["HOTSTRINGS_TEST_PAUSE_BEFORE_BIND_MS": "300"]
        let daemons = try ["first", "second"].map { try DaemonProcess(sandbox, environment: pause, logName: $0) }
        // One of them must give up; the other keeps serving.
        #expect(waitUntil(.seconds(10)) { daemons.contains { !$0.isRunning } })
        let running = daemons.filter(\.isRunning)
        try #require(running.count == 1, "logs: \(daemons.map(\.log))")
        let loser = try #require(daemons.first { !$0.isRunning })
        #expect(loser.waitForExit() == 1)
        #expect(loser.log.contains("already listening on \(sandbox.socket)"), "\(loser.log)")
        try running[0].waitUntilServing()
        #expect(try LineClient(socket: sandbox.socket).request(#"{"id":1,"op":"hello"}"#)["ok"] == true)
        #expect(try running[0].terminate() == 0)
    }

    @Test func aDaemonWhoseSocketWasReplacedLeavesTheOtherDaemonsSocketAtExit() throws {
        let sandbox = try Sandbox()
        let first = try DaemonProcess(sandbox, logName: "first")
        try first.waitUntilServing()
        // Someone removes the first daemon's socket and lock, and a second daemon takes the path.
        try FileSystem.removeFile(atPath: sandbox.socket)
        try FileSystem.removeFile(atPath: sandbox.socket + ".lock")
        let second = try DaemonProcess(sandbox, logName: "second")
        try second.waitUntilServing()
        let secondSocket = try FileSystem.ownership(atPath: sandbox.socket, followingSymlinks: false)

        #expect(try first.terminate() == 0)
        #expect(first.log.contains("is no longer this daemon's socket"), "\(first.log)")
        let after = try FileSystem.ownership(atPath: sandbox.socket, followingSymlinks: false)
        #expect(after.isSameFile(as: secondSocket))
        #expect(try LineClient(socket: sandbox.socket).request(#"{"id":1,"op":"hello"}"#)["ok"] == true)
        #expect(try second.terminate() == 0)
    }
}
