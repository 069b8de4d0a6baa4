import Foundation
import LinuxSystem

/// A real `hotstrings serve` process on a private socket: the one daemon launcher of every test target and the
/// benchmark.
///
/// Systemd's variables (`NOTIFY_SOCKET`, `LISTEN_FDS`, `LISTEN_PID`) are removed from its environment, so a test
/// run under systemd does not hand the daemon the runner's sockets. Stopped (SIGTERM, then SIGKILL) on deinit if
/// it still runs.
package final class DaemonProcess: Sendable {
    /// The child process.
    package let child: HotstringsProcess
    /// The socket the daemon was told to listen on.
    package let socket: String

    /// Starts `hotstrings serve bundle --socket socket --state-dir stateDirectory arguments...`, as `userID`
    /// when one is given (see `HotstringsProcess`), its log in `<logName>-<random>.log` beside the socket.
    /// Does not wait: see `waitUntilServing()`.
    /// - Throws: what starting the process throws.
    package init(bundle: String, socket: String, stateDirectory: String, arguments: [String] = [],
                 environment: [String: String?] = [:], userID: UInt32? = nil, logName: String = "daemon") throws {
        var environment = environment
        for name in ["NOTIFY_SOCKET", "LISTEN_FDS", "LISTEN_PID"] where environment[name] == nil {
            environment[name] = .some(nil)
        }
        // The log goes to a file beside the socket, so that `log` holds what the daemon logged before an answer
        // as soon as the answer arrives.
        let logPath = (socket as NSString).deletingLastPathComponent
            + "/\(logName)-\(UUID().uuidString.prefix(8)).log"
        child = try HotstringsProcess(
            ["serve", bundle, "--socket", socket, "--state-dir", stateDirectory] + arguments,
            environment: environment, userID: userID, errorLogPath: logPath
        )
        self.socket = socket
    }

    /// Starts a daemon on the sandbox's bundle, state folder and socket (or `socket`), plus `arguments`.
    /// - Throws: what starting the process throws.
    package convenience init(_ sandbox: Sandbox, arguments: [String] = [], socket: String? = nil,
                             environment: [String: String?] = [:], userID: UInt32? = nil,
                             logName: String = "daemon") throws {
        try self.init(bundle: sandbox.bundle, socket: socket ?? sandbox.socket,
                      stateDirectory: sandbox.stateDirectory, arguments: arguments, environment: environment,
                      userID: userID, logName: logName)
    }

    /// Starts a daemon on the sandbox and waits until it has served its first scan.
    /// - Throws: `TimedOut` with the daemon's log when it exits or does not serve within 30 seconds.
    package static func serving(_ sandbox: Sandbox, arguments: [String] = [], socket: String? = nil,
                                userID: UInt32? = nil) throws -> DaemonProcess {
        let daemon = try DaemonProcess(sandbox, arguments: arguments, socket: socket, userID: userID)
        try daemon.waitUntilServing()
        return daemon
    }

    /// Starts a daemon on the sandbox and waits until it has served its first scan, from an asynchronous test: the
    /// wait is on a thread of its own, not on the cooperative pool.
    /// - Throws: like the blocking form.
    package static func serving(_ sandbox: Sandbox, arguments: [String] = [], socket: String? = nil,
                                userID: UInt32? = nil) async throws -> DaemonProcess {
        let sandbox = UncheckedSandbox(sandbox)
        return try await offThePool {
            try serving(sandbox.value, arguments: arguments, socket: socket, userID: userID)
        }
    }

    /// Starts a daemon on a staging socket and renames that socket to the sandbox's once the first scan is
    /// served, so that a client retrying in the background cannot reach the daemon any earlier.
    ///
    /// The daemon listens before its first scan and answers a subscription in that window with an empty
    /// snapshot, followed by a reload that creates every table: a client would rightly report every key twice.
    /// This keeps the window out of a test about the client.
    /// - Throws: like `serving(_:)`, or what the rename throws.
    package static func servingWhenReady(_ sandbox: Sandbox, arguments: [String] = []) throws -> DaemonProcess {
        let staging = sandbox.root + "/staging-\(UUID().uuidString.prefix(8)).sock"
        let daemon = try serving(sandbox, arguments: arguments, socket: staging)
        try FileSystem.rename(staging, to: sandbox.socket)
        return daemon
    }

    /// Like the blocking `servingWhenReady(_:arguments:)`, from an asynchronous test (the wait is off the pool).
    package static func servingWhenReady(_ sandbox: Sandbox, arguments: [String] = []) async throws -> DaemonProcess {
        let sandbox = UncheckedSandbox(sandbox)
        return try await offThePool { try servingWhenReady(sandbox.value, arguments: arguments) }
    }

    /// The process, for signals such as `SIGSTOP` and `SIGCONT`.
    package var process: ChildProcess { child.process }

    /// The daemon's process ID.
    package var pid: Int32 { child.pid }

    /// Whether the daemon has not exited yet.
    package var isRunning: Bool { child.isRunning }

    /// What the daemon wrote on standard error so far.
    package var log: String { child.errorText }

    /// Waits for the "serving" line the daemon logs once its first scan is answered (at the default log level).
    /// - Throws: `TimedOut` with the log when the daemon exits first or `timeout` passes.
    package func waitUntilServing(timeout: Duration = .seconds(30)) throws {
        let isServing = waitUntil(timeout) { !isRunning || log.contains("info: serving ") }
        guard isServing, isRunning else { throw TimedOut(description: "the daemon did not start serving:\n\(log)") }
    }

    /// Waits until a connection to the socket is accepted, for a daemon whose log level hides the "serving" line.
    /// - Throws: `TimedOut` with the log when the daemon exits first or `timeout` passes.
    package func waitUntilListening(timeout: Duration = .seconds(30)) throws {
        let isListening = waitUntil(timeout) { !isRunning || UnixSocket.isListening(atPath: socket) }
        guard isListening, isRunning else {
            throw TimedOut(description: "the daemon did not start listening on \(socket):\n\(log)")
        }
    }

    /// Waits for the daemon to exit; its exit status, or nil if it still runs after `timeout`.
    package func waitForExit(timeout: Duration = .seconds(20)) -> Int32? {
        child.waitForExit(timeout: timeout)
    }

    /// Sends SIGTERM and waits for the exit status; nil if the daemon still runs after `timeout`.
    /// - Throws: `SystemError` from `pidfd_send_signal` when the signal cannot be sent.
    package func terminate(timeout: Duration = .seconds(20)) throws -> Int32? {
        if isRunning { try child.process.send(.terminate) }
        return child.waitForExit(timeout: timeout)
    }

    /// Kills the daemon with SIGKILL, as a crash would (its socket file stays), and waits for it to be gone.
    package func crash() {
        child.kill()
    }

    /// How many descriptors the daemon has open, from /proc/<pid>/fd.
    /// - Throws: when the folder cannot be listed (the daemon is gone).
    package func openDescriptorCount() throws -> Int {
        try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count
    }

    /// What the daemon's descriptors point at ("socket", "anon_inode:[eventpoll]", paths) and how many, for
    /// messages.
    package func openDescriptorKinds() -> [String: Int] {
        let directory = "/proc/\(pid)/fd"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        var kinds: [String: Int] = [:]
        for name in names {
            let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: directory + "/" + name)) ?? "?"
            kinds[target.hasPrefix("socket:") ? "socket" : target, default: 0] += 1
        }
        return kinds
    }

    /// The daemon's resident memory in bytes (`VmRSS` in /proc/<pid>/status), 0 when it cannot be read.
    package var residentBytes: Int {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kilobytes = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first
                .flatMap({ Int($0) })
        else { return 0 }
        return kilobytes * 1024
    }
}

/// A sandbox handed to a blocking start on another thread while the test awaits it: only paths are read there,
/// and the test does not touch the sandbox until the start returns.
struct UncheckedSandbox: @unchecked Sendable {
    let value: Sandbox

    init(_ value: Sandbox) {
        self.value = value
    }
}
