import Foundation
import HotStringsTestSupport
import LinuxSystem
import Synchronization
import Testing

/// Tests that run the daemon are skipped, with this message, when the binary was not built.
let needsDaemon = Testing.ConditionTrait.enabled(
    if: hotstringsExecutable != nil,
    "the hotstrings binary is not next to the test bundle: run `swift build --build-tests` first"
)

/// A temporary folder with a copy of `sample-bundle`, a socket path and a state directory; removed on deinit.
final class Sandbox {
    let root: String
    var bundle: String { root + "/bundle" }
    var socket: String { root + "/d.sock" }
    var stateDirectory: String { root + "/state" }

    /// Copies `sample-bundle` and writes `extraFiles` (relative to the bundle) over it.
    init(extraFiles: [String: String] = [:]) throws {
        root = try FileSystem.makeTemporaryDirectory(prefix: "hs-e2e-")
        try FileManager.default.copyItem(atPath: sampleBundlePath, toPath: bundle)
        for (path, text) in extraFiles { try write(text, to: path) }
    }

    deinit {
        try? FileSystem.removeRecursively(atPath: root)
    }

    /// Saves `text` at `path` inside the bundle the way editors do: a hidden temporary file renamed over it.
    func save(_ text: String, to path: String) throws {
        let target = bundle + "/" + path
        let directory = (target as NSString).deletingLastPathComponent
        let temporary = directory + "/." + (target as NSString).lastPathComponent + ".e2e-tmp"
        try FileSystem.writeFile(Array(text.utf8), toPath: temporary)
        try FileSystem.rename(temporary, to: target)
    }

    /// Writes `text` at `path` inside the bundle before the daemon starts, creating folders as needed.
    func write(_ text: String, to path: String) throws {
        let url = URL(fileURLWithPath: bundle + "/" + path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    /// The UTF-8 text of a bundle file.
    func read(_ path: String) throws -> String {
        try String(contentsOfFile: bundle + "/" + path, encoding: .utf8)
    }
}

/// One `hotstrings serve` process, its standard error kept in a file; killed on deinit if still running.
final class Daemon {
    let process = Process()
    let logPath: String
    private let exited = DispatchSemaphore(value: 0)
    private let exit = ExitStatus()

    /// Starts `hotstrings serve` on the sandbox's bundle, socket and state directory, plus `arguments`.
    init(_ sandbox: Sandbox, arguments: [String] = [], logName: String = "daemon") throws {
        let executable = try #require(hotstringsExecutable)
        logPath = sandbox.root + "/\(logName)-\(UUID().uuidString.prefix(8)).log"
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        process.executableURL = executable
        process.arguments = ["serve", sandbox.bundle, "--socket", sandbox.socket,
                             "--state-dir", sandbox.stateDirectory] + arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        var environment = ProcessInfo.processInfo.environment
        environment["NOTIFY_SOCKET"] = nil
        environment["LISTEN_FDS"] = nil
        environment["LISTEN_PID"] = nil
        process.environment = environment
        let (exited, exit) = (exited, exit)
        process.terminationHandler = { process in
            exit.status.withLock { $0 = process.terminationStatus }
            exited.signal()
        }
        try process.run()
    }

    /// Starts a daemon and waits until it has served its first scan.
    static func serving(_ sandbox: Sandbox, arguments: [String] = []) throws -> Daemon {
        let daemon = try Daemon(sandbox, arguments: arguments)
        try daemon.waitUntilServing()
        return daemon
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
    func waitUntilServing(timeout: Duration = .seconds(10)) throws {
        let isServing = waitUntil(timeout) { !isRunning || log.contains("info: serving ") }
        try #require(isServing && isRunning, "the daemon did not start serving:\n\(log)")
    }

    /// Waits for the process to end; its exit status, or nil if it is still running after `timeout`.
    func waitForExit(timeout: Duration = .seconds(10)) -> Int32? {
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        guard exited.wait(timeout: .now() + seconds) == .success else { return nil }
        exited.signal()
        return exit.status.withLock { $0 }
    }

    /// Sends SIGTERM and waits for the exit status.
    func terminate() throws -> Int32? {
        try Signals.send(.terminate, toProcess: pid)
        return waitForExit()
    }

    /// Kills the process with SIGKILL, as a crash would, and waits for it to be gone.
    func crash() {
        // LinuxSystem's Signal has no SIGKILL (the daemon never handles it); Foundation exposes kill(2).
        kill(pid, SIGKILL)
        _ = waitForExit()
    }

    /// How many descriptors the daemon has open, from /proc/<pid>/fd.
    func openDescriptorCount() throws -> Int {
        try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count
    }

    /// What the daemon's descriptors point at ("socket:[123]", "anon_inode:[eventpoll]", paths), for messages.
    func openDescriptorKinds() -> [String: Int] {
        let directory = "/proc/\(pid)/fd"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        var kinds: [String: Int] = [:]
        for name in names {
            let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: directory + "/" + name)) ?? "?"
            kinds[target.hasPrefix("socket:") ? "socket" : target, default: 0] += 1
        }
        return kinds
    }
}

/// The exit status a termination handler records on Foundation's thread and the test reads.
final class ExitStatus: Sendable {
    let status = Mutex<Int32?>(nil)
}
