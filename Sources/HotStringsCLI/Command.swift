import Foundation
import LinuxSystem
import StringsFormat

/// The process exit codes every command uses.
package enum ExitCode {
    /// Everything went well.
    package static let success: Int32 = 0
    /// The input had errors (a file that does not parse, a path that cannot be read).
    package static let failure: Int32 = 1
    /// The command line was wrong (`EX_USAGE` from `sysexits.h`).
    package static let usage: Int32 = 64
}

/// Where a command writes and reads: injected so commands run in memory in tests.
package struct CommandIO<Output: TextOutputStream, ErrorOutput: TextOutputStream> {
    /// Standard output.
    package var stdout: Output
    /// Standard error.
    package var stderr: ErrorOutput
    /// Reads all of standard input (for the `-` file name).
    package var readStandardInput: () throws(SystemError) -> [UInt8]
    /// The subcommand running (`get`), named in its error lines; nil before one is found.
    var command: String?

    /// `hotstrings CMD: error: message` on standard error: the shape of every error that is not a problem of an
    /// input file (those are `FILE:LINE:COL: error: …`). One line that a terminal only displays: a daemon's
    /// message or a name from the command line may hold anything.
    mutating func printError(_ message: String) {
        stderr.write("\(prefix): error: \(DisplayText.escaped(message, keepingBackslashes: true))\n")
    }

    /// `hotstrings CMD: warning: message` on standard error, like `printError`.
    mutating func printWarning(_ message: String) {
        stderr.write("\(prefix): warning: \(DisplayText.escaped(message, keepingBackslashes: true))\n")
    }

    /// `hotstrings CMD`, or `hotstrings` before a command is known.
    private var prefix: String { command.map { "\(CLI.name) \($0)" } ?? CLI.name }
}

/// One subcommand of `hotstrings`: a spec for parsing and help, validation, and a run that returns an exit code.
///
/// Commands never call `exit()`; the executable does, with the code `run` returns.
protocol Command {
    /// The command's name, abstract, arguments, options and exit codes.
    static var spec: CommandSpec { get }

    /// Reads the parsed arguments, rejecting combinations that make no sense.
    init(arguments: ParsedArguments) throws(UsageError)

    /// Does the work, writing results to `io.stdout` and problems to `io.stderr`.
    func run<Output, ErrorOutput>(io: inout CommandIO<Output, ErrorOutput>) -> Int32
}

/// A `TextOutputStream` over a file handle, unbuffered: commands write whole blocks at a time.
package struct FileHandleOutputStream: TextOutputStream {
    let handle: FileHandle

    /// Standard output of the process.
    package static var standardOutput: FileHandleOutputStream { FileHandleOutputStream(handle: .standardOutput) }
    /// Standard error of the process.
    package static var standardError: FileHandleOutputStream { FileHandleOutputStream(handle: .standardError) }

    package mutating func write(_ string: String) {
        guard !string.isEmpty else { return }
        handle.write(Data(string.utf8))
    }
}
