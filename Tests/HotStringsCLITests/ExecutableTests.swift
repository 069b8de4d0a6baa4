import Foundation
import HotStringsTestSupport
import Testing

/// Runs the real `hotstrings` binary that `swift test` builds next to the test bundle.
struct ExecutableTests {
    func launch(_ arguments: [String], stdin: String = "") throws -> ProcessRun {
        let executable = try #require(hotstringsExecutable, "hotstrings is not next to the test runner")
        return try ProcessRun.tool(executable.path, arguments, input: stdin, timeout: .seconds(20))
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
        #expect(usage.stderr.hasPrefix("hotstrings lint: error: unknown option '--frob'\n"))
        #expect(try launch(["--version"]).stdout.hasPrefix("hotstrings "))
    }

    @Test func dumpReadsStandardInput() throws {
        let result = try launch(["dump", "-"], stdin: "\"greeting\" = \"Grüß dich\";")
        #expect(result.code == 0)
        #expect(result.stdout == "{\n  \"greeting\" : \"Grüß dich\"\n}\n")
    }
}
