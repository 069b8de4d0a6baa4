import Foundation
import HotStringsTestSupport
import Synchronization
import Testing

/// Tests that run the real daemon are skipped, with this message, when the binary was not built.
let needsDaemon = Testing.ConditionTrait.enabled(
    if: hotstringsExecutable != nil,
    "the hotstrings binary is not next to the test runner: run `swift build --build-tests` first"
)

/// A temporary copy of `sample-bundle` served by a real `hotstrings serve`, with its socket and state folder
/// in the same temporary folder; killed and removed on release.
final class Daemon {
    let root: String
    var bundle: String { root + "/bundle" }
    var socket: String { root + "/d.sock" }
    private var process: Process?
    private(set) var stderr: PipeReader?

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("hs-lib-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: sampleBundlePath, toPath: bundle)
        try start()
    }

    deinit {
        if let process, process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(atPath: root)
    }

    /// Starts `hotstrings serve` and waits until it has scanned the bundle.
    func start() throws {
        try start(socket: socket)
    }

    /// Starts `hotstrings serve` on another path and moves its socket into place once it has scanned the
    /// bundle, so that a client retrying in the background cannot reach it earlier.
    ///
    /// The daemon listens before its first scan and answers a subscription in that window with an empty
    /// snapshot, followed by a reload that creates every table: a client would rightly report every key
    /// twice. This keeps the window out of a test about the client.
    func restartWhenReady() throws {
        let staging = root + "/staging.sock"
        try start(socket: staging)
        try? FileManager.default.removeItem(atPath: socket)
        try FileManager.default.moveItem(atPath: staging, toPath: socket)
    }

    private func start(socket: String) throws {
        guard let executable = hotstringsExecutable else { throw TimedOut(description: "no hotstrings binary") }
        let process = Process()
        process.executableURL = executable
        process.arguments = ["serve", bundle, "--socket", socket, "--state-dir", root + "/state"]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        self.process = process
        let reader = PipeReader(errors.fileHandleForReading)
        stderr = reader
        try reader.wait(untilContains: "info: serving ")
    }

    /// Kills the daemon with SIGKILL (its socket file stays behind) and waits for it to be gone.
    func kill() throws {
        guard let process else { return }
        let killer = try Process.run(URL(fileURLWithPath: "/bin/kill"),
                                     arguments: ["-KILL", String(process.processIdentifier)])
        killer.waitUntilExit()
        process.waitUntilExit()
        self.process = nil
    }

    /// Replaces `path` (relative to the bundle) the way editors save: a temporary file renamed over it.
    func save(_ text: String, to path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: bundle + "/" + path), options: .atomic)
    }
}

/// Counts what a client reports and lets a test wait, with a deadline, for a condition on it.
final class ClientProbe: Sendable {
    private let state = Mutex<[LocalizationChangeRecord]>([])
    private let signal = DispatchSemaphore(value: 0)

    /// A change as received, for assertions.
    struct LocalizationChangeRecord: Sendable {
        var keys: [String: Set<String>]
        var language: String
    }

    /// All changes so far.
    var changes: [LocalizationChangeRecord] { state.withLock { $0 } }

    /// Records a change and wakes waiters.
    func record(keys: [String: Set<String>], language: String) {
        state.withLock { $0.append(LocalizationChangeRecord(keys: keys, language: language)) }
        signal.signal()
    }

    /// Wakes waiters so that they look at their condition again.
    func poke() {
        signal.signal()
    }

    /// Waits until `condition` holds, re-checking it after each recorded change or poke; throws at the deadline.
    func wait(_ what: String, timeout: Duration = .seconds(10), until condition: () -> Bool) throws {
        let deadline = DispatchTime.now() + .milliseconds(Int(timeout.components.seconds * 1000))
        while !condition() {
            if signal.wait(timeout: deadline) == .timedOut, !condition() {
                throw TimedOut(description: "timed out waiting for \(what)")
            }
        }
    }
}
