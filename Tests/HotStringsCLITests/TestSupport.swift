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
