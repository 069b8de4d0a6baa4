import Foundation
@testable import HotStringsCLI

/// What one in-memory run of the CLI printed and returned.
struct RunResult {
    var code: Int32
    var stdout: String
    var stderr: String

    /// Standard output split into lines, without the final empty one.
    var lines: [String] { stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) }
}

/// Runs `hotstrings` in memory with `arguments`, feeding `stdin` to a `-` file name.
func run(_ arguments: [String], stdin: String = "") -> RunResult {
    var stdout = ""
    var stderr = ""
    let code = CLI.run(arguments: arguments, stdout: &stdout, stderr: &stderr, readStandardInput: { Array(stdin.utf8) })
    return RunResult(code: code, stdout: stdout, stderr: stderr)
}

/// A temporary folder holding the given files (relative path to UTF-8 text or raw bytes), removed afterwards.
func withFiles<T>(_ files: [String: String], _ body: (String) throws -> T) throws -> T {
    try withFiles(bytes: files.mapValues { Array($0.utf8) }, body)
}

/// A temporary folder holding the given files as raw bytes, removed afterwards.
func withFiles<T>(bytes files: [String: [UInt8]], _ body: (String) throws -> T) throws -> T {
    let root = FileManager.default.temporaryDirectory
        .appendingPathComponent("hotstrings-cli-tests-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: root) }
    for (relativePath, contents) in files {
        let url = URL(fileURLWithPath: root).appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(contents).write(to: url)
    }
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    return try body(root)
}
