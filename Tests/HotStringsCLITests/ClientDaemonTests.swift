import Foundation
import HotStringsTestSupport
import HotStringsTestTraits
import Testing

/// A `Sandbox` (a temporary copy of `sample-bundle`) served by a real `hotstrings serve`, and the client
/// commands run against it.
final class ServedBundle {
    // Declared first, so it is stopped before the sandbox removes the bundle it watches.
    let daemon: DaemonProcess
    let sandbox: Sandbox
    var root: String { sandbox.root }
    var bundle: String { sandbox.bundle }
    var socket: String { sandbox.socket }

    init() throws {
        sandbox = try Sandbox(prefix: "hs-client-")
        daemon = try DaemonProcess.serving(sandbox)
    }

    /// Runs `hotstrings arguments... --socket <this socket>` to its end.
    func run(_ arguments: [String]) throws -> ProcessRun {
        try runToEnd(arguments + ["--socket", socket])
    }

    /// Starts `hotstrings arguments... --socket <this socket>` and leaves it running.
    func start(_ arguments: [String]) throws -> HotstringsProcess {
        try HotstringsProcess(arguments + ["--socket", socket])
    }

    /// Replaces a bundle file the way editors save: a temporary file renamed over it.
    func save(_ text: String, to path: String) throws {
        try sandbox.save(text, to: path)
    }

    /// Stops the daemon with SIGTERM; its exit status.
    func stop() throws -> Int32 {
        try #require(try daemon.terminate(), "the daemon did not stop on SIGTERM")
    }
}

/// Runs `hotstrings arguments...` to its end, with `environment` added to this process's.
func runToEnd(_ arguments: [String], environment: [String: String] = [:]) throws -> ProcessRun {
    try HotstringsProcess.run(arguments, environment: environment.mapValues { $0 })
}

/// The daemon's own lifecycle as the client commands see it.
@Suite(.needsHotstringsBinary)
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
        try served.daemon.process.send(signal: SIGSTOP)
        let result = try served.run(["get", "greeting", "--timeout", "0.3"])
        try served.daemon.process.send(signal: SIGCONT)
        #expect(result.code == 3)
        #expect(result.stderr == "hotstrings get: error: no answer from the daemon at \(served.socket) within 300 ms\n")
        #expect(result.stdout.isEmpty)
        #expect(try served.run(["get", "greeting"]).stdout == "Hello!\n")
        #expect(try served.stop() == 0)
    }

    @Test func aSocketNobodyListensOnIsExitTwoWithTheHint() throws {
        let served = try ServedBundle()
        // SIGKILL leaves the socket file behind with no one listening: connect gets ECONNREFUSED.
        served.daemon.crash()
        #expect(!served.daemon.isRunning)
        #expect(FileManager.default.fileExists(atPath: served.socket))
        let result = try served.run(["languages"])
        #expect(result.code == 2)
        #expect(result.stderr == """
            hotstrings languages: error: cannot connect to \(served.socket): Connection refused (ECONNREFUSED)
            hint: start the daemon with: hotstrings serve --socket \(served.socket) <bundle>

            """)
    }
}
