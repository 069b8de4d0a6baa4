import Foundation
import HotStringsTestSupport
import Testing

/// Client tests that run real processes are skipped, with this message, when the binary was not built.
let needsHotstringsBinary = Testing.ConditionTrait.enabled(
    if: hotstringsExecutable != nil,
    "the hotstrings binary is not next to the test runner: run `swift build --build-tests` first"
)

/// A running `hotstrings` process whose standard output and error are read as they arrive.
final class HotstringsProcess {
    let process = Process()
    let stdout: PipeReader
    let stderr: PipeReader
    private let exited = DispatchSemaphore(value: 0)

    /// Starts `hotstrings arguments...` with `environment` added to this process's environment.
    init(_ arguments: [String], environment: [String: String] = [:]) throws {
        guard let executable = hotstringsExecutable else {
            throw TimedOut(description: "the hotstrings binary is not next to the test runner")
        }
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = errors
        let exited = exited
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        stdout = PipeReader(output.fileHandleForReading)
        stderr = PipeReader(errors.fileHandleForReading)
    }

    deinit {
        if process.isRunning {
            process.terminate()
            _ = exited.wait(timeout: .now() + 2)
        }
    }

    /// Waits for the process to end and its pipes to be read to the end; its exit status, or nil on timeout.
    func waitForExit(timeout: Duration = .seconds(20)) -> Int32? {
        let deadline = DispatchTime.now() + .seconds(Int(timeout.components.seconds))
        guard exited.wait(timeout: deadline) == .success else { return nil }
        exited.signal()
        try? stdout.wait(for: "the end of standard output") { _ in stdout.isFinished }
        try? stderr.wait(for: "the end of standard error") { _ in stderr.isFinished }
        return process.terminationStatus
    }
}

/// What a client command printed and returned.
struct ClientRun {
    var code: Int32
    var stdout: String
    var stderr: String
}

/// A temporary copy of `sample-bundle` served by a real `hotstrings serve` on a socket in the same folder.
final class ServedBundle {
    let root: String
    var bundle: String { root + "/bundle" }
    var socket: String { root + "/d.sock" }
    let daemon: HotstringsProcess

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("hs-client-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: sampleBundlePath, toPath: root + "/bundle")
        daemon = try HotstringsProcess(["serve", root + "/bundle", "--socket", root + "/d.sock",
                                        "--state-dir", root + "/state"])
        try daemon.stderr.wait(for: "the daemon to serve") { $0.contains("info: serving ") }
    }

    deinit {
        // Stopped before its bundle goes, so it does not report the bundle's removal to no one.
        if daemon.process.isRunning {
            daemon.process.terminate()
            _ = daemon.waitForExit()
        }
        try? FileManager.default.removeItem(atPath: root)
    }

    /// Runs `hotstrings arguments... --socket <this socket>` to its end.
    func run(_ arguments: [String]) throws -> ClientRun {
        try runToEnd(arguments + ["--socket", socket])
    }

    /// Starts `hotstrings arguments... --socket <this socket>` and leaves it running.
    func start(_ arguments: [String]) throws -> HotstringsProcess {
        try HotstringsProcess(arguments + ["--socket", socket])
    }

    /// Replaces a bundle file the way editors save: a temporary file renamed over it.
    func save(_ text: String, to path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: bundle + "/" + path), options: .atomic)
    }

    /// Stops the daemon with SIGTERM; its exit status.
    func stop() throws -> Int32 {
        daemon.process.terminate()
        return try #require(daemon.waitForExit(), "the daemon did not stop on SIGTERM")
    }
}

/// Runs `hotstrings arguments...` to its end.
func runToEnd(_ arguments: [String], environment: [String: String] = [:]) throws -> ClientRun {
    let process = try HotstringsProcess(arguments, environment: environment)
    let code = try #require(process.waitForExit(), "hotstrings \(arguments) did not finish")
    return ClientRun(code: code, stdout: process.stdout.text, stderr: process.stderr.text)
}

/// The daemon's own lifecycle as the client commands see it.
@Suite(needsHotstringsBinary)
struct ClientDaemonTests {
    @Test func aDaemonStoppedBySIGTERMExitsZeroAndRemovesItsSocket() throws {
        let served = try ServedBundle()
        #expect(FileManager.default.fileExists(atPath: served.socket))
        #expect(try served.run(["status"]).code == 0)
        #expect(try served.stop() == 0)
        #expect(!FileManager.default.fileExists(atPath: served.socket))
        let after = try served.run(["status"])
        #expect(after.code == 2)
        #expect(after.stderr.contains("No such file or directory (ENOENT)"))
    }

    @Test func aHungDaemonMakesRequestsTimeOutWithExitThree() throws {
        let served = try ServedBundle()
        #expect(served.daemon.process.suspend())
        let result = try served.run(["get", "greeting", "--timeout", "0.3"])
        #expect(served.daemon.process.resume())
        #expect(result.code == 3)
        #expect(result.stderr == "hotstrings: error: no answer from the daemon at \(served.socket) within 300 ms\n")
        #expect(result.stdout.isEmpty)
        #expect(try served.run(["get", "greeting"]).stdout == "Hello!\n")
        #expect(try served.stop() == 0)
    }

    @Test func aSocketNobodyListensOnIsExitTwoWithTheHint() throws {
        let served = try ServedBundle()
        // SIGKILL leaves the socket file behind with no one listening: connect gets ECONNREFUSED.
        let killer = try Process.run(URL(fileURLWithPath: "/bin/kill"),
                                     arguments: ["-KILL", String(served.daemon.process.processIdentifier)])
        killer.waitUntilExit()
        #expect(killer.terminationStatus == 0)
        #expect(served.daemon.waitForExit() != nil)
        #expect(FileManager.default.fileExists(atPath: served.socket))
        let result = try served.run(["languages"])
        #expect(result.code == 2)
        #expect(result.stderr == """
            hotstrings: error: cannot connect to \(served.socket): Connection refused (ECONNREFUSED)
            hint: start the daemon with: hotstrings serve --socket \(served.socket) <bundle>

            """)
    }
}
