import Foundation
import HotStringsProtocol
import HotStringsTestSupport
import HotStringsTestTraits
import LinuxSystem
import StringsFormat
import Testing

/// `python3` from `PATH`, if there is one.
let python3: URL? = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
    .map { URL(fileURLWithPath: String($0)).appendingPathComponent("python3") }
    .first { FileManager.default.isExecutableFile(atPath: $0.path) }

let pythonClient = repositoryRoot.appendingPathComponent("examples/hotstrings_client.py")

/// Runs examples/hotstrings_client.py; output goes to files, so a chatty child never blocks on a pipe.
final class PythonRun {
    let process: ChildProcess
    private let outputPath: String
    private let errorPath: String

    init(_ arguments: [String], script: URL = pythonClient, environment: [String: String] = [:],
         in sandbox: Sandbox) throws {
        let name = UUID().uuidString.prefix(8)
        outputPath = sandbox.root + "/python-\(name).out"
        errorPath = sandbox.root + "/python-\(name).err"
        for path in [outputPath, errorPath] { _ = FileManager.default.createFile(atPath: path, contents: nil) }
        guard let python3 else { throw ClientError(description: "python3 is not installed") }
        var configuration = ChildProcess.Configuration(python3.path, [script.path] + arguments)
        configuration.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        configuration.standardOutput = .file(outputPath)
        configuration.standardError = .file(errorPath)
        process = try ChildProcess(configuration)
    }

    /// Waits for the exit status; nil when still running after `timeout` (the process is then killed).
    func finish(timeout: Duration = .seconds(20)) -> Int32? {
        guard let ending = process.waitForExit(timeout: timeout) else {
            try? process.send(.kill)
            return nil
        }
        return ending.status
    }

    var output: String { (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "" }
    var errors: String { (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "" }
    var outputLines: [String] { output.split(separator: "\n").map(String.init) }
}

@Suite(.needsHotstringsBinary, .enabled(if: python3 != nil, "python3 is not installed"))
struct PythonClientTests {
    @Test func helpAndSocketResolution() throws {
        let sandbox = try Sandbox()
        let help = try PythonRun(["--help"], in: sandbox)
        #expect(help.finish() == 0)
        #expect(help.output.contains("HOTSTRINGS_SOCKET"))

        let uid = ProcessStatistics.userID
        let cases: [(environment: [String: String], arguments: [String], expected: String)] = [
            (["HOTSTRINGS_SOCKET": "/x/env.sock", "XDG_RUNTIME_DIR": "/run/u"], ["--socket", "/x/o.sock"], "/x/o.sock"),
            (["HOTSTRINGS_SOCKET": "/x/env.sock", "XDG_RUNTIME_DIR": "/run/u"], [], "/x/env.sock"),
            (["HOTSTRINGS_SOCKET": "", "XDG_RUNTIME_DIR": "/run/u/"], [], "/run/u/hotstrings.sock"),
            (["HOTSTRINGS_SOCKET": "", "XDG_RUNTIME_DIR": "relative"], [], "/tmp/hotstrings-\(uid).sock"),
        ]
        for (environment, arguments, expected) in cases {
            // The daemon's own resolution is the reference.
            #expect(SocketPath.resolve(option: arguments.last, environment: environment, userID: uid) == expected)
            let run = try PythonRun(arguments + ["socket-path"], environment: environment, in: sandbox)
            #expect(run.finish() == 0)
            #expect(run.output == expected + "\n", "\(environment) \(arguments)")
        }

        let refused = try PythonRun(["--socket", sandbox.socket, "hello"], in: sandbox)
        #expect(refused.finish() == 2)
        #expect(refused.errors.contains("hotstrings serve"))
    }

    @Test func theClientsOwnUnitTestsPass() throws {
        let sandbox = try Sandbox()
        let run = try PythonRun([], script: repositoryRoot.appendingPathComponent("examples/test_hotstrings_client.py"),
                                in: sandbox)
        #expect(run.finish() == 0, "\(run.errors)")
        #expect(run.errors.contains("OK"))
    }

    @Test func getAndSubscribeAgainstTheRealDaemon() throws {
        let sandbox = try Sandbox()
        let daemon = try DaemonProcess.serving(sandbox)
        let get = try PythonRun(["get", "greeting", "--language", "de"],
                                environment: ["HOTSTRINGS_SOCKET": sandbox.socket], in: sandbox)
        #expect(get.finish() == 0)
        #expect(get.output == "Hallo!\n", "stderr: \(get.errors)")
        let missing = try PythonRun(["--socket", sandbox.socket, "get", "no.such.key"], in: sandbox)
        #expect(missing.finish() == 1)
        #expect(missing.output == "no.such.key\n")

        let subscriber = try PythonRun(
            ["--socket", sandbox.socket, "subscribe", "--languages", "de", "--no-snapshot", "--count", "1"],
            in: sandbox
        )
        let probe = try LineClient(socket: sandbox.socket)
        let isSubscribed = try waitUntil { try probe.request(#"{"id":1,"op":"status"}"#).int("subscribers") == 1 }
        try #require(isSubscribed, "the Python client did not subscribe: \(subscriber.errors)")
        try sandbox.save(try editedGerman(sandbox), to: "de.lproj/Localizable.strings")
        #expect(subscriber.finish() == 0, "stderr: \(subscriber.errors)")
        let lines = subscriber.outputLines
        try #require(lines.count == 2, "output: \(subscriber.output)")
        let response = try JSONValue(parsing: Array(lines[0].utf8))
        let reload = try JSONValue(parsing: Array(lines[1].utf8))
        #expect(response["ok"] == true)
        #expect(reload.string("event") == "reload")
        #expect(reload.int("seq") == (response.int("seq") ?? 0) + 1)
        #expect(changes(of: reload) == [germanEdit])
        #expect(try daemon.terminate() == 0)
    }
}
