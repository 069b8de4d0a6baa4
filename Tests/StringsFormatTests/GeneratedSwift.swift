import Foundation
import HotStringsTestSupport
import Testing

/// Checks that Swift a script in scripts/ generates is committed as the script writes it today.
enum GeneratedSwift {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Runs `scripts/<script>` into a temporary folder and expects its `file` to equal
    /// `Sources/StringsFormat/<file>`; cancels the test when python3 is not on PATH.
    static func expectUpToDate(script: String, file: String) throws {
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
            .map { URL(fileURLWithPath: String($0)).appendingPathComponent("python3") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
        guard let python3 = path else {
            try Test.cancel("python3 is not on PATH, so the generator cannot run")
        }
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("generated-\(UUID())")
        defer { try? FileManager.default.removeItem(at: output) }
        let run = try ProcessRun.tool(
            python3.path, [packageRoot.appendingPathComponent("scripts/\(script)").path, "--output", output.path],
            environment: ["PYTHONDONTWRITEBYTECODE": "1"])
        #expect(run.code == 0, "\(run.stderr)")
        let generated = try String(contentsOf: output.appendingPathComponent(file), encoding: .utf8)
        let committed = try String(
            contentsOf: packageRoot.appendingPathComponent("Sources/StringsFormat/\(file)"), encoding: .utf8)
        #expect(generated == committed, "run scripts/\(script) and commit the result")
    }
}
