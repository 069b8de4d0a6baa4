import Foundation
import LinuxSystem
import Synchronization

/// A running child of the built `hotstrings` binary, its standard output and error read as they arrive; stopped
/// (SIGTERM, then SIGKILL) on deinit if it still runs.
///
/// Every test target and the benchmark start `hotstrings` through this type, directly for a command or through
/// `Daemon` for `serve`.
package final class HotstringsProcess {
    /// The process; for `suspend()` and `resume()`.
    package let process = Process()
    /// The arguments after the executable, for messages.
    package let arguments: [String]
    /// What the process writes on standard output.
    package let stdout: PipeReader
    /// What the process writes on standard error; nil when it goes to `errorLogPath`.
    package let stderr: PipeReader?
    /// The file standard error goes to, if one was given.
    package let errorLogPath: String?
    private let exited = DispatchSemaphore(value: 0)
    private let status = ExitStatus()

    /// Starts `hotstrings arguments...` with `environment` added to this process's environment (a nil value
    /// removes a variable), as the user `userID` through `setpriv` when one is given, its standard error
    /// appended to the file `errorLogPath` when one is given (read back at once, with no reader thread in
    /// between: what the process logged before it answered is there when the answer is).
    /// - Throws: `TimedOut` when the binary was not built or `setpriv` is missing (see `otherUserUnavailable`),
    ///   or what `Process.run` throws.
    package init(_ arguments: [String], environment: [String: String?] = [:], userID: UInt32? = nil,
                 errorLogPath: String? = nil) throws {
        guard let executable = hotstringsExecutable else {
            throw TimedOut(description: "the hotstrings binary is not next to the test runner: build it first")
        }
        self.arguments = arguments
        if let userID {
            if let reason = otherUserUnavailable { throw TimedOut(description: reason) }
            process.executableURL = URL(fileURLWithPath: setprivPath)
            process.arguments = ["--reuid=\(userID)", "--regid=\(userID)", "--clear-groups", executable.path]
                + arguments
        } else {
            process.executableURL = executable
            process.arguments = arguments
        }
        var merged = ProcessInfo.processInfo.environment
        for (name, value) in environment { merged[name] = value }
        process.environment = merged
        let output = Pipe()
        let errors = errorLogPath == nil ? Pipe() : nil
        self.errorLogPath = errorLogPath
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        if let errorLogPath {
            _ = FileManager.default.createFile(atPath: errorLogPath, contents: nil)
            process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errorLogPath))
        } else {
            process.standardError = errors
        }
        let (exited, status) = (exited, status)
        process.terminationHandler = { process in
            status.value.withLock { $0 = process.terminationStatus }
            exited.signal()
        }
        try process.run()
        stdout = PipeReader(output.fileHandleForReading)
        stderr = errors.map { PipeReader($0.fileHandleForReading) }
    }

    deinit {
        guard isRunning else { return }
        try? Signals.send(.terminate, toProcess: pid)
        if exited.wait(timeout: .now() + 2) == .timedOut {
            sendKillSignal(to: pid)
            _ = exited.wait(timeout: .now() + 2)
        }
    }

    /// Everything the process wrote on standard error so far, from the pipe or the log file.
    package var errorText: String {
        if let stderr { return stderr.text }
        return errorLogPath.flatMap { try? String(contentsOfFile: $0, encoding: .utf8) } ?? ""
    }

    /// The process ID.
    package var pid: Int32 { process.processIdentifier }

    /// Whether the process has not ended yet.
    package var isRunning: Bool { status.value.withLock { $0 } == nil }

    /// Waits for the process to end and for its pipes to be read to the end; its exit status (the signal's
    /// number when a signal ended it), or nil if it still runs after `timeout`.
    package func waitForExit(timeout: Duration = .seconds(20)) -> Int32? {
        guard exited.wait(timeout: .now() + .nanoseconds(timeout.nanoseconds)) == .success else { return nil }
        exited.signal()
        try? stdout.wait(for: "the end of standard output") { _ in stdout.isFinished }
        if let stderr { try? stderr.wait(for: "the end of standard error") { _ in stderr.isFinished } }
        return status.value.withLock { $0 }
    }

    /// Sends SIGTERM and waits for the exit status; nil if the process still runs after `timeout`.
    package func terminate(timeout: Duration = .seconds(10)) -> Int32? {
        if isRunning { try? Signals.send(.terminate, toProcess: pid) }
        return waitForExit(timeout: timeout)
    }

    /// Kills the process with SIGKILL, as a crash would, and waits for it to be gone.
    package func kill() {
        if isRunning { sendKillSignal(to: pid) }
        _ = waitForExit()
    }

    /// Runs `hotstrings arguments...` to its end.
    /// - Throws: what starting it throws; `TimedOut` when it has not ended after `timeout`.
    package static func run(_ arguments: [String], environment: [String: String?] = [:], userID: UInt32? = nil,
                            timeout: Duration = .seconds(20)) throws -> ProcessRun {
        let child = try HotstringsProcess(arguments, environment: environment, userID: userID)
        guard let code = child.waitForExit(timeout: timeout) else {
            // Said whole, so that a hang can be told from a process that ended unnoticed.
            let state = child.isRunning ? "still running" : "ended, its end not yet seen"
            let said = child.errorText
            child.kill()
            throw TimedOut(description: "hotstrings \(arguments) did not finish within \(timeout) (\(state)); "
                + "standard error so far: \(said.isEmpty ? "nothing" : said)")
        }
        return ProcessRun(code: code, stdout: child.stdout.text, stderr: child.errorText)
    }
}

/// Sends SIGKILL to `pid`. LinuxSystem's `Signal` has no SIGKILL (nothing handles it); Foundation exposes kill(2).
private func sendKillSignal(to pid: Int32) {
    _ = kill(pid, SIGKILL)
}

/// What a finished `hotstrings` process printed and returned.
package struct ProcessRun: Sendable {
    /// The exit status.
    package var code: Int32
    /// Everything written on standard output.
    package var stdout: String
    /// Everything written on standard error.
    package var stderr: String
}

extension ProcessRun {
    /// Runs another tool (`openssl`, `sha256sum`, `python3`) at `executable` to its end, its output read as it
    /// arrives.
    /// - Throws: what `Process.run` throws; `TimedOut` when it has not ended after `timeout`.
    package static func tool(_ executable: String, _ arguments: [String],
                             timeout: Duration = .seconds(60)) throws -> ProcessRun {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        let (output, errors) = (Pipe(), Pipe())
        process.standardOutput = output
        process.standardError = errors
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        let stdout = PipeReader(output.fileHandleForReading)
        let stderr = PipeReader(errors.fileHandleForReading)
        guard exited.wait(timeout: .now() + .nanoseconds(timeout.nanoseconds)) == .success else {
            process.terminate()
            throw TimedOut(description: "\(executable) \(arguments) did not finish within \(timeout)")
        }
        try stdout.wait(for: "the end of standard output") { _ in stdout.isFinished }
        try stderr.wait(for: "the end of standard error") { _ in stderr.isFinished }
        return ProcessRun(code: process.terminationStatus, stdout: stdout.text, stderr: stderr.text)
    }
}

/// The exit status a termination handler records on Foundation's thread and the test reads.
private final class ExitStatus: Sendable {
    let value = Mutex<Int32?>(nil)
}

extension Duration {
    /// The duration in whole nanoseconds, for Dispatch timeouts.
    package var nanoseconds: Int {
        let (seconds, attoseconds) = components
        return Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
    }
}
