import Foundation
import HotStringsLint
import LinuxSystem

/// The `hotstrings` command line: finds the subcommand, parses its arguments, prints help and usage errors.
package enum CLI {
    /// The program name shown in help.
    static let name = "hotstrings"
    /// The version printed by `--version`.
    package static let version = "0.1.0"

    /// Every subcommand, in the order `--help` lists them.
    static var commands: [any Command.Type] {
        [
            ServeCommand.self, SubscribeCommand.self, GetCommand.self, TableCommand.self, LanguagesCommand.self,
            SelectLanguageCommand.self, StatusCommand.self, LintCommand.self, DumpCommand.self, CompileCommand.self,
            WatchCommand.self, DemoCommand.self, PublishCommand.self, KeygenCommand.self, PullCommand.self,
            RollbackCommand.self, PluralCommand.self, SetCommand.self, RemoveCommand.self, MissingCommand.self,
        ]
    }

    /// Runs `hotstrings` with `arguments` (without the program name) and returns the exit code.
    ///
    /// Nothing here exits the process or touches the real standard streams unless they are passed in.
    package static func run<Output: TextOutputStream, ErrorOutput: TextOutputStream>(
        arguments: [String],
        stdout: inout Output,
        stderr: inout ErrorOutput,
        readStandardInput: @escaping () throws(SystemError) -> [UInt8] = { () throws(SystemError) in
            try Descriptor.readToEnd(from: 0)
        }
    ) -> Int32 {
        var io = CommandIO(stdout: stdout, stderr: stderr, readStandardInput: readStandardInput)
        defer {
            stdout = io.stdout
            stderr = io.stderr
        }
        return dispatch(arguments, io: &io)
    }

    private static func dispatch<Output, ErrorOutput>(
        _ arguments: [String], io: inout CommandIO<Output, ErrorOutput>
    ) -> Int32 {
        guard let first = arguments.first else {
            return usageError(UsageError("missing command"), usage: usage, io: &io)
        }
        switch first {
        case "-h", "--help":
            io.stdout.write(help)
            return ExitCode.success
        case "--version":
            io.stdout.write("\(name) \(version)\n")
            return ExitCode.success
        case "help":
            io.command = "help"
            return helpCommand(Array(arguments.dropFirst()), io: &io)
        case _ where first.hasPrefix("-"):
            let message = Suggestion.message("unknown option '\(first)'", name: first,
                                             among: ["--help", "--version"])
            return usageError(UsageError(message), usage: usage, io: &io)
        default:
            guard let command = command(named: first) else {
                return usageError(UsageError(unknownCommand(first)), usage: usage, io: &io)
            }
            return run(command, arguments: Array(arguments.dropFirst()), io: &io)
        }
    }

    private static func run<Output, ErrorOutput>(
        _ command: any Command.Type, arguments: [String], io: inout CommandIO<Output, ErrorOutput>
    ) -> Int32 {
        let spec = command.spec
        io.command = spec.name
        do throws(UsageError) {
            let parsed = try ArgumentParser(spec: spec).parse(arguments)
            if parsed.isHelpRequested {
                io.stdout.write(spec.help)
                return ExitCode.success
            }
            return try command.init(arguments: parsed).run(io: &io)
        } catch {
            return usageError(error, usage: spec.usage, helpHint: "\(name) help \(spec.name)", io: &io)
        }
    }

    /// `hotstrings help [command]`.
    private static func helpCommand<Output, ErrorOutput>(
        _ arguments: [String], io: inout CommandIO<Output, ErrorOutput>
    ) -> Int32 {
        guard let name = arguments.first, name != "-h", name != "--help" else {
            io.stdout.write(help)
            return ExitCode.success
        }
        guard arguments.count == 1, let command = command(named: name) else {
            let problem = arguments.count == 1 ? unknownCommand(name) : "help takes one command name"
            return usageError(UsageError(problem), usage: "\(self.name) help [<command>]", io: &io)
        }
        io.stdout.write(command.spec.help)
        return ExitCode.success
    }

    private static func command(named name: String) -> (any Command.Type)? {
        commands.first { $0.spec.name == name }
    }

    /// `unknown command 'NAME'`, with the command it is probably a typo of.
    private static func unknownCommand(_ name: String) -> String {
        Suggestion.message("unknown command '\(name)'", name: name, among: commands.map { $0.spec.name } + ["help"])
    }

    /// Prints `hotstrings CMD: error: message` (`hotstrings: error: …` before a command is known), the usage and
    /// where to find more, and returns 64.
    private static func usageError<Output, ErrorOutput>(
        _ error: UsageError, usage: String, helpHint: String = "\(name) --help",
        io: inout CommandIO<Output, ErrorOutput>
    ) -> Int32 {
        io.printError(error.message)
        io.stderr.write("USAGE: \(usage)\nSee '\(helpHint)' for more.\n")
        return ExitCode.usage
    }

    static var usage: String { "\(name) <command> [<options>] [<arguments>]" }

    /// The top-level help: what the tool is, its commands and global options.
    static var help: String {
        var text = "OVERVIEW: Read, check and serve .strings, .stringsdict and .xcstrings files.\n\n"
        text += "USAGE: \(usage)\n\nCOMMANDS:\n"
        for command in commands {
            text += HelpFormatter.row(label: command.spec.name, help: command.spec.abstract)
        }
        text += HelpFormatter.row(label: "help <command>", help: "Show help for a command.")
        text += "\nOPTIONS:\n"
        text += HelpFormatter.row(label: "--version", help: "Show the version.")
        text += HelpFormatter.row(label: "-h, --help", help: "Show help information.")
        text += "\nSee '\(name) help <command>' for the options and exit codes of a command.\n"
        return text
    }
}
