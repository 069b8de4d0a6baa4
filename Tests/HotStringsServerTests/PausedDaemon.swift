import Foundation
import HotStringsTestSupport
import LinuxSystem
import Synchronization
import Testing

/// A `hotstrings serve` started with the daemon's bind-pause test hook
/// (`HOTSTRINGS_TEST_PAUSE_BEFORE_BIND_MS`): it pauses between deciding the socket path is free and binding
/// it. Its own small launcher, because the shared `Daemon` harness passes no extra environment.
final class PausedDaemon {
    let process = Process()
    let logPath: String
    private let exited = DispatchSemaphore(value: 0)
    private let exit = ExitStatus()

    /// Starts a daemon on the sandbox that pauses `pause` before binding.
    init(_ sandbox: Sandbox, pause: Duration, logName: String) throws {
        logPath = sandbox.root + "/\(logName)-\(UUID().uuidString.prefix(8)).log"
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        let executable = try #require(hotstringsExecutable)
        process.executableURL = executable
        process.arguments = ["serve", sandbox.bundle, "--socket", sandbox.socket, "--state-dir", sandbox.stateDirectory]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        var environment = ProcessInfo.processInfo.environment
        for name in ["NOTIFY_SOCKET", "LISTEN_FDS", "LISTEN_PID"] { environment[name] = nil }
        environment["HOTSTRINGS_TEST_PAUSE_BEFORE_BIND_MS"] = String(pause.components.seconds * 1000
            + pause.components.attoseconds / 1_000_000_000_000_000)
        process.environment = environment
        let (exited, exit) = (exited, exit)
        process.terminationHandler = { process in
            exit.status.withLock { $0 = process.terminationStatus }
            exited.signal()
        }
        try process.run()
    }

    deinit {
        if isRunning {
            try? Signals.send(.terminate, toProcess: pid)
            if exited.wait(timeout: .now() + 2) == .timedOut { kill(pid, SIGKILL) }
        }
    }

    var pid: Int32 { process.processIdentifier }
    var isRunning: Bool { exit.status.withLock { $0 } == nil }
    /// What the daemon wrote on standard error so far.
    var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// Waits for the "serving" line the daemon logs once its first scan is answered.
    func waitUntilServing() throws {
        let isServing = waitUntil(.seconds(10)) { !isRunning || log.contains("info: serving ") }
        try #require(isServing && isRunning, "the daemon did not start serving:\n\(log)")
    }

    /// Waits up to ten seconds for the process to end; its exit status, or nil if it is still running.
    func waitForExit() -> Int32? {
        guard exited.wait(timeout: .now() + 10) == .success else { return nil }
        exited.signal()
        return exit.status.withLock { $0 }
    }

    /// Sends SIGTERM and waits for the exit status.
    func terminate() throws -> Int32? {
        try Signals.send(.terminate, toProcess: pid)
        return waitForExit()
    }
}
