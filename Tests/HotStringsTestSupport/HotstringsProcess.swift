import Foundation
import LinuxSystem
import Synchronization

/// A running child of the built `hotstrings` binary, its standard output and error read as they arrive; stopped
/// (SIGTERM, then SIGKILL) on deinit if it still runs.
///
/// Every test target and the benchmark start `hotstrings` through this type, directly for a command or through
/// `DaemonProcess` for `serve`.
package final class HotstringsProcess: Sendable {
    /// The process; for signals such as `SIGSTOP` and `SIGCONT`.
    package let process: ChildProcess
    /// The arguments after the executable, for messages.
    package let arguments: [String]
    /// What the process writes on standard output.
    package let stdout: PipeReader
    /// What the process writes on standard error; nil when it goes to `errorLogPath`.
    package let stderr: PipeReader?
    /// The file standard error goes to, if one was given.
    package let errorLogPath: String?

    /// Starts `hotstrings arguments...` with `environment` added to this process's environment (a nil value
    /// removes a variable), as the user `userID` (and its group, with no supplementary groups) when one is given,
    /// its standard error appended to the file `errorLogPath` when one is given (read back at once, with no
    /// reader thread in between: what the process logged before it answered is there when the answer is).
    /// - Throws: `TimedOut` when the binary was not built or no process can run as another user here (see
    ///   `otherUserUnavailable`), or `SystemError` when the process cannot be started.
    package init(_ arguments: [String], environment: [String: String?] = [:], userID: UInt32? = nil,
                 errorLogPath: String? = nil) throws {
        guard let executable = hotstringsExecutable else {
            throw TimedOut(description: "the hotstrings binary is not next to the test runner: build it first")
        }
        self.arguments = arguments
        var configuration = ChildProcess.Configuration(executable.path, arguments)
        if let userID {
            if let reason = otherUserUnavailable { throw TimedOut(description: reason) }
            configuration.user = (userID, userID)
        }
        configuration.environment = mergedEnvironment(environment)
        self.errorLogPath = errorLogPath
        if let errorLogPath { configuration.standardError = .file(errorLogPath) }
        process = try ChildProcess(configuration)
        stdout = PipeReader(process.standardOutput!)
        stderr = process.standardError.map(PipeReader.init)
    }

    deinit {
        guard isRunning else { return }
        try? process.send(.terminate)
        if process.waitForExit(timeout: .seconds(5)) == nil {
            try? process.send(.kill)
            _ = process.waitForExit()
        }
    }

    /// Everything the process wrote on standard error so far, from the pipe or the log file.
    package var errorText: String {
        if let stderr { return stderr.text }
        return errorLogPath.flatMap { try? String(contentsOfFile: $0, encoding: .utf8) } ?? ""
    }

    /// The process ID.
    package var pid: Int32 { process.pid }

    /// Whether the process has not ended yet.
    package var isRunning: Bool { process.isRunning }

    /// Waits for the process to end and for its pipes to be read to the end; its exit status (the signal's
    /// number when a signal ended it), or nil if it still runs after `timeout`.
    package func waitForExit(timeout: Duration = .seconds(20)) -> Int32? {
        guard let ending = process.waitForExit(timeout: timeout) else { return nil }
        try? stdout.wait(for: "the end of standard output") { _ in stdout.isFinished }
        if let stderr { try? stderr.wait(for: "the end of standard error") { _ in stderr.isFinished } }
        return ending.status
    }

    /// Sends SIGTERM and waits for the exit status; nil if the process still runs after `timeout`.
    package func terminate(timeout: Duration = .seconds(20)) -> Int32? {
        if isRunning { try? process.send(.terminate) }
        return waitForExit(timeout: timeout)
    }

    /// Kills the process with SIGKILL, as a crash would, and waits for it to be gone.
    package func kill() {
        if isRunning { try? process.send(.kill) }
        _ = waitForExit()
    }

    /// Runs `hotstrings arguments...` to its end, from an asynchronous test: the wait is on a thread of its own,
    /// not on the cooperative pool.
    /// - Throws: what starting it throws; `TimedOut` when it has not ended after `timeout`.
    package static func run(_ arguments: [String], environment: [String: String?] = [:], userID: UInt32? = nil,
                            timeout: Duration = .seconds(20)) async throws -> ProcessRun {
        try await offThePool { try run(arguments, environment: environment, userID: userID, timeout: timeout) }
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
    /// Runs another tool (`openssl`, `sha256sum`, `python3`, `git`) at `executable` to its end, its output read
    /// as it arrives; in `directory` when one is given, with `environment` added to this process's, `input` on
    /// its standard input, standard error into standard output when `mergingErrors` (then `stderr` is empty).
    /// - Throws: `SystemError` when it cannot be started; `TimedOut` when it has not ended after `timeout`.
    package static func tool(_ executable: String, _ arguments: [String], in directory: String? = nil,
                             environment: [String: String?] = [:], input: String? = nil,
                             mergingErrors: Bool = false, timeout: Duration = .seconds(60)) throws -> ProcessRun {
        var configuration = ChildProcess.Configuration(executable, arguments)
        configuration.directory = directory
        configuration.environment = mergedEnvironment(environment)
        if input != nil { configuration.standardInput = .pipe }
        if mergingErrors { configuration.standardError = .standardOutput }
        let process = try ChildProcess(configuration)
        let stdout = PipeReader(process.standardOutput!)
        let stderr = process.standardError.map(PipeReader.init)
        if let input, let fd = process.standardInput {
            // Written on a thread of its own, so a child that writes before it reads cannot deadlock with us.
            _ = NamedThread.run(name: "pipe-writer") {
                var rest = Array(input.utf8)
                while !rest.isEmpty, let written = try? Descriptor.write(rest, to: fd), written > 0 {
                    rest.removeFirst(written)
                }
                Descriptor.close(fd)
            }
        }
        guard let ending = process.waitForExit(timeout: timeout) else {
            try? process.send(.kill)
            throw TimedOut(description: "\(executable) \(arguments) did not finish within \(timeout)")
        }
        try stdout.wait(for: "the end of standard output") { _ in stdout.isFinished }
        try stderr?.wait(for: "the end of standard error") { _ in stderr?.isFinished ?? true }
        return ProcessRun(code: ending.status, stdout: stdout.text, stderr: stderr?.text ?? "")
    }

    /// Runs a tool a test builds on (`git commit`, `rsync`, `cp -a`) to its end, its standard error in its standard
    /// output, and checks that it succeeded.
    /// - Throws: what `tool` throws; `ToolFailed` with the command and its output when it exits other than 0.
    @discardableResult
    package static func checkedTool(_ executable: String, _ arguments: [String], in directory: String? = nil,
                                    timeout: Duration = .seconds(60)) throws -> ProcessRun {
        let run = try tool(executable, arguments, in: directory, mergingErrors: true, timeout: timeout)
        guard run.code == 0 else {
            throw ToolFailed(description: "\(executable) \(arguments) exited \(run.code): \(run.stdout)")
        }
        return run
    }
}

/// A tool a test builds on that did not succeed; the description names it and says what it printed.
package struct ToolFailed: Error, CustomStringConvertible {
    /// The command, its exit status and its output.
    package var description: String
}

/// This process's environment with `changes` applied (a nil value removes a variable).
package func mergedEnvironment(_ changes: [String: String?]) -> [String: String] {
    var merged = ProcessInfo.processInfo.environment
    for (name, value) in changes { merged[name] = value }
    return merged
}

extension Duration {
    /// The duration in whole nanoseconds, for Dispatch timeouts.
    package var nanoseconds: Int {
        let (seconds, attoseconds) = components
        return Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
    }
}
