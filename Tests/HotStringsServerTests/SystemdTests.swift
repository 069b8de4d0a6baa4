import Foundation
import HotStringsTestSupport
import HotStringsTestTraits
import LinuxSystem
import Testing

/// systemd integration: READY=1 once the first scan is served, and a listening socket passed by activation.
@Suite(.needsHotstringsBinary)
struct SystemdTests {
    @Test func sendsReadyOnceTheFirstScanIsServed() throws {
        let sandbox = try Sandbox()
        let notifyPath = sandbox.root + "/notify.sock"
        let notifications = try UnixSocket.bindDatagram(atPath: notifyPath)
        defer { SocketIO.close(notifications) }
        let daemon = try DaemonProcess(sandbox, environment: ["NOTIFY_SOCKET": notifyPath])
        defer { _ = try? daemon.terminate() }
        let poller = try Poller()
        try poller.add(notifications)
        var received = ""
        let deadline = ContinuousClock.now + .seconds(10)
        while !received.contains("READY=1"), ContinuousClock.now < deadline {
            _ = try poller.wait(timeout: .milliseconds(200))
            var buffer = [UInt8](repeating: 0, count: 256)
            if case .data(let count) = try buffer.withUnsafeMutableBytes({ try SocketIO.read(notifications, into: $0) }) {
                received += String(decoding: buffer[..<count], as: UTF8.self)
            }
        }
        #expect(received.contains("READY=1"))
        // Ready means served: the socket answers right away.
        let client = try LineClient(socket: sandbox.socket)
        #expect(try client.request(#"{"id":1,"op":"get","key":"greeting"}"#).string("value") == "Hello!")
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"), "needs python3"))
    func servesASocketPassedBySocketActivation() throws {
        let sandbox = try Sandbox()
        let activatedPath = sandbox.root + "/activated.sock"
        // Plays systemd: binds the socket, puts it at descriptor 3, sets LISTEN_PID to its own pid and execs
        // the daemon, which keeps that pid.
        let launcher = """
            import os, socket, sys
            s = socket.socket(socket.AF_UNIX)
            s.bind(sys.argv[1]); s.listen(16)
            os.dup2(s.fileno(), 3); os.set_inheritable(3, True)
            os.environ["LISTEN_FDS"] = "1"; os.environ["LISTEN_PID"] = str(os.getpid())
            os.execv(sys.argv[2], sys.argv[2:])
            """
        var configuration = ChildProcess.Configuration("/usr/bin/python3", [
            "-c", launcher, activatedPath, try #require(hotstringsExecutable).path, "serve", sandbox.bundle,
            "--socket", sandbox.root + "/unused.sock", "--state-dir", sandbox.stateDirectory,
        ])
        configuration.standardOutput = .null
        let process = try ChildProcess(configuration)
        let log = PipeReader(process.standardError!)
        #expect(waitUntil(.seconds(30)) { UnixSocket.isListening(atPath: activatedPath) })
        let client = try LineClient(socket: activatedPath)
        #expect(try client.request(#"{"id":1,"op":"get","key":"greeting","language":"de"}"#).string("value") == "Hallo!")
        #expect(!FileManager.default.fileExists(atPath: sandbox.root + "/unused.sock"), "no socket of its own")
        try process.send(.terminate)
        #expect(process.waitForExit(timeout: .seconds(20)) == .exited(0))
        _ = waitUntil(.seconds(20)) { log.isFinished }
        #expect(log.text.contains("using the socket passed by systemd"))
        #expect(FileManager.default.fileExists(atPath: activatedPath), "systemd's socket file is left to systemd")
    }
}
