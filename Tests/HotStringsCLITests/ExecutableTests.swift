import Foundation
import HotStringsTestSupport
import Testing

/// Runs the real `hotstrings` binary that `swift test` builds next to the test bundle.
struct ExecutableTests {
    struct Output {
        var code: Int32
        var stdout: String
        var stderr: String
    }

    func launch(_ arguments: [String], stdin: String = "") throws -> Output {
        let process = Process()
        let executable = try #require(hotstringsExecutable, "hotstrings is not next to the test runner")
        process.executableURL = executable
        process.arguments = arguments
        let input = Pipe()
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        input.fileHandleForWriting.write(Data(stdin.utf8))
        try input.fileHandleForWriting.close()
        // Read both pipes to their ends before waiting, so a full pipe cannot block the child.
        let stdout = output.fileHandleForReading.readDataToEndOfFile()
        let stderr = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Output(
            code: process.terminationStatus,
            stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }

    @Test func sampleBundleLintsWithExitCodeZero() throws {
        let result = try launch(["lint", sampleBundlePath])
        #expect(result.code == 0)
        #expect(result.stdout.hasSuffix("16 files, 104 keys, 0 errors, 1 warning\n"))
        #expect(result.stderr.isEmpty)
    }

    @Test func exitCodesOfTheRealProcess() throws {
        #expect(try launch(["lint", "/nonexistent/hotstrings"]).code == 1)
        #expect(try launch(["dump", "-"], stdin: "\"a\" = ;").code == 1)
        let usage = try launch(["lint", "--frob", "x"])
        #expect(usage.code == 64)
        #expect(usage.stderr.hasPrefix("hotstrings: error: unknown option '--frob'\n"))
        #expect(try launch(["--version"]).stdout.hasPrefix("hotstrings "))
    }

    @Test func dumpReadsStandardInput() throws {
        let result = try launch(["dump", "-"], stdin: "\"greeting\" = \"Grüß dich\";")
        #expect(result.code == 0)
        #expect(result.stdout == "{\n  \"greeting\" : \"Grüß dich\"\n}\n")
    }
}
