import Foundation
import HotStringsTestSupport
import HotStringsTestTraits
import LinuxSystem
import Testing

/// Issue 9, finding 2 (the daemon's side): a listening socket another user put at the path first makes
/// `serve` refuse, naming that user, and the other user's socket is left alone.
@Suite(.needsHotstringsBinary)
struct SquatterTests {
    @Test func aSocketSquattedByAnotherUserIsRefusedNamingTheOwner() throws {
        guard ProcessStatistics.userID == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") else {
            try Test.cancel("needs root and python3 to create a socket as uid 65534")
        }
        let sandbox = try Sandbox()
        // A shared directory like /tmp: world-writable and sticky, reachable by the other user.
        try FileSystem.setPermissions(0o711, atPath: sandbox.root)
        let shared = sandbox.root + "/shared"
        try FileSystem.makeDirectory(atPath: shared, mode: 0o700)
        try FileSystem.setPermissions(0o1777, atPath: shared)
        let path = shared + "/hotstrings.sock"

        let script = """
            import os, socket, sys, time
            s = socket.socket(socket.AF_UNIX)
            s.bind(sys.argv[1]); os.chmod(sys.argv[1], 0o777); s.listen()
            print("listening", flush=True)
            time.sleep(60)
            """
        var configuration = ChildProcess.Configuration("/usr/bin/python3", ["-c", script, path])
        configuration.user = (nobodyUserID, nobodyUserID)
        configuration.standardError = .standardOutput
        let squatter = try ChildProcess(configuration)
        let output = PipeReader(squatter.standardOutput!)
        defer { try? squatter.send(.kill) }  // also keeps the listener alive until the test ends
        try? output.wait(untilContains: "listening", timeout: .seconds(30))
        let line = output.text
        guard line.contains("listening") else {
            try Test.cancel("could not start a listener as uid 65534 (output: \(line))")
        }
        let squatted = try FileSystem.ownership(atPath: path, followingSymlinks: false)
        try #require(squatted.userID == 65534 && squatted.isSocket)

        let daemon = try DaemonProcess(sandbox, arguments: ["--socket", path], logName: "victim")
        #expect(daemon.waitForExit() == 1, "log: \(daemon.log)")
        #expect(daemon.log.contains("it is a listening socket owned by uid 65534"), "log: \(daemon.log)")
        let after = try FileSystem.ownership(atPath: path, followingSymlinks: false)
        #expect(after.isSameFile(as: squatted), "the other user's socket is untouched")
    }
}
