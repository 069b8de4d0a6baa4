import Foundation
import HotStringsTestSupport
import HotStringsTestTraits
import LinuxSystem
import Testing

/// SO_PEERCRED: only the daemon's own user and root may connect, more with --allow-uid.
///
/// The tests run as root, so the other user is made real: the `hotstrings get` client runs as `nobody`
/// (uid 65534) against a socket whose mode lets anyone connect.
@Suite(.needsHotstringsBinary,
       .enabled(if: ProcessStatistics.userID == 0, "needs root to run a client as another user"))
struct PeerCredentialsTests {
    /// Runs `hotstrings get greeting` as uid 65534; returns its exit status and standard output.
    func getAsNobody(_ sandbox: Sandbox) throws -> (status: Int32, output: String) {
        let run = try HotstringsProcess.run(["get", "greeting", "--socket", sandbox.socket, "--timeout", "5"],
                                            userID: nobodyUserID)
        return (run.code, run.stdout + run.stderr)
    }

    func openToEveryone(_ sandbox: Sandbox) throws {
        // The sandbox folder must be traversable for the other user to reach the socket.
        try FileSystem.setPermissions(0o755, atPath: sandbox.root)
    }

    @Test func anotherUserIsRefused() throws {
        let sandbox = try Sandbox()
        try openToEveryone(sandbox)
        let daemon = try DaemonProcess.serving(sandbox, arguments: ["--socket-mode", "666"])
        let result = try getAsNobody(sandbox)
        #expect(result.status == 3, "status \(result.status), output \(result.output)")
        #expect(!result.output.contains("Hello!"))
        #expect(waitUntil { daemon.log.contains("refused a client of user 65534") }, "log: \(daemon.log)")
        // Our own user is still served.
        let client = try LineClient(socket: sandbox.socket)
        #expect(try client.request(#"{"id":1,"op":"get","key":"greeting"}"#).string("value") == "Hello!")
    }

    @Test func allowUIDAdmitsThatUser() throws {
        let sandbox = try Sandbox()
        try openToEveryone(sandbox)
        let daemon = try DaemonProcess.serving(sandbox, arguments: ["--socket-mode", "666", "--allow-uid", "65534"])
        let result = try getAsNobody(sandbox)
        #expect(daemon.isRunning)
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.hasPrefix("Hello!\n"))
    }
}
