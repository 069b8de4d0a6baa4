import Testing
@testable import HotStringsCLI

private let alpha: CommandOption<Bool> = .flag("alpha", short: "a", help: "A flag.")
private let beta: CommandOption<Bool> = .flag("beta", short: "b", help: "Another flag.")
/// Any text, the empty one too: the parser's cases, not a type's checks.
private let name: CommandOption<String> = .value(
    "name", short: "n", OptionType(placeholder: "name", note: nil, read: { text, _ in text }, text: { $0 }),
    default: "anon", help: "A value.")

/// A command shape that exercises every parser feature: flags with short names, a value option, one argument.
private let spec = CommandSpec(
    name: "test",
    abstract: "A command for parser tests.",
    arguments: [ArgumentSpec(name: "file", help: "A file.")],
    options: [alpha, beta, name]
)

struct ArgumentParserTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var arguments: [String]
        var alpha = false
        var beta = false
        var name = "anon"
        var positionals = ["x"]
        var testDescription: String { arguments.joined(separator: " ") }
    }

    @Test(arguments: [
        Case(arguments: ["x"]),
        Case(arguments: ["--alpha", "x"], alpha: true),
        Case(arguments: ["x", "-b"], beta: true),
        Case(arguments: ["-ab", "x"], alpha: true, beta: true),
        Case(arguments: ["-n", "fr", "x"], name: "fr"),
        Case(arguments: ["-nfr", "x"], name: "fr"),
        Case(arguments: ["-an", "fr", "x"], alpha: true, name: "fr"),
        Case(arguments: ["--name", "fr", "x"], name: "fr"),
        Case(arguments: ["--name=fr", "x"], name: "fr"),
        Case(arguments: ["--name=", "x"], name: ""),
        Case(arguments: ["--name=de", "--name=fr", "x"], name: "fr"),
        Case(arguments: ["-"], positionals: ["-"]),
        Case(arguments: ["--", "-a"], positionals: ["-a"]),
        Case(arguments: ["--", "--help"], positionals: ["--help"]),
    ])
    func parsesValidArguments(_ testCase: Case) throws {
        let parsed = try ArgumentParser(spec: spec).parse(testCase.arguments)
        #expect(!parsed.isHelpRequested)
        #expect(try parsed[alpha] == testCase.alpha)
        #expect(try parsed[beta] == testCase.beta)
        #expect(try parsed[name] == testCase.name)
        #expect(parsed.positionals == testCase.positionals)
    }

    @Test(arguments: [
        (["--gamma", "x"], "unknown option '--gamma'"),
        (["-z", "x"], "unknown option '-z'"),
        (["-az", "x"], "unknown option '-z'"),
        (["--alpha=1", "x"], "option '--alpha' does not take a value"),
        (["x", "--name"], "missing value for option '--name'"),
        (["--name", "--alpha", "x"], "missing value for option '--name'"),
        (["x", "-n"], "missing value for option '--name'"),
        ([], "missing argument <file>"),
        (["--alpha"], "missing argument <file>"),
        (["x", "y"], "unexpected argument 'y'"),
    ] as [([String], String)])
    func rejectsInvalidArguments(_ arguments: [String], message: String) {
        #expect(throws: UsageError(message)) {
            try ArgumentParser(spec: spec).parse(arguments)
        }
    }

    @Test(arguments: [["-h"], ["--help"], ["x", "--help"], ["--gamma", "-h"], ["-h", "x", "y"]])
    func helpWinsOverEverythingElse(_ arguments: [String]) throws {
        #expect(try ArgumentParser(spec: spec).parse(arguments).isHelpRequested)
    }

    @Test func repeatingArgumentTakesManyButNeedsOne() throws {
        var repeating = spec
        repeating.arguments = [ArgumentSpec(name: "path", help: "Paths.", isRepeating: true)]
        #expect(try ArgumentParser(spec: repeating).parse(["a", "b", "c"]).positionals == ["a", "b", "c"])
        #expect(throws: UsageError("missing argument <path>")) { try ArgumentParser(spec: repeating).parse([]) }
    }

    @Test func helpListsEveryOptionDefaultAndExitCode() {
        let help = LintCommand.spec.help
        #expect(help.hasPrefix("OVERVIEW: \(LintCommand.spec.abstract)\n"))
        #expect(help.contains("USAGE: hotstrings lint [--development-language <language>] [--json]"))
        #expect(help.components(separatedBy: "--development-language <language>").count == 3, "usage and one row")
        #expect(help.contains("  -q, --quiet  "))
        #expect(help.contains("(default: en)"))
        #expect(help.contains("  -h, --help  "))
        #expect(help.contains("EXIT CODES:\n  0 "))
        #expect(help.contains("\n  64 "))
        for line in help.split(separator: "\n") where !line.hasPrefix("USAGE:") {
            #expect(line.count <= 80, "help line too wide: \(line)")
        }
    }
}

struct CLITests {
    @Test(arguments: [["--help"], ["-h"], ["help"], ["help", "--help"]])
    func topLevelHelpListsCommands(_ arguments: [String]) {
        let result = run(arguments)
        #expect(result.code == 0)
        #expect(result.stderr.isEmpty)
        #expect(result.stdout == CLI.help)
        #expect(result.stdout.contains("\n  lint "))
        #expect(result.stdout.contains("\n  dump "))
    }

    @Test(arguments: [
        (["help", "lint"], "lint"), (["lint", "--help"], "lint"), (["lint", "-h", "--bogus"], "lint"),
        (["help", "dump"], "dump"), (["dump", "-h"], "dump"),
    ] as [([String], String)])
    func commandHelpGoesToStandardOutput(_ arguments: [String], command: String) throws {
        let result = run(arguments)
        let spec = try #require(CLI.commands.first { $0.spec.name == command }).spec
        #expect(result.code == 0)
        #expect(result.stdout == spec.help)
        #expect(result.stderr.isEmpty)
    }

    @Test func versionPrintsNameAndVersion() {
        let result = run(["--version"])
        #expect(result.code == 0)
        #expect(result.stdout == "hotstrings \(CLI.version)\n")
    }

    @Test(arguments: [
        ([], "hotstrings", "missing command", "hotstrings <command>"),
        (["frob"], "hotstrings", "unknown command 'frob'", "hotstrings <command>"),
        (["--frob"], "hotstrings", "unknown option '--frob'", "hotstrings <command>"),
        (["help", "frob"], "hotstrings help", "unknown command 'frob'", "hotstrings help"),
        (["lint"], "hotstrings lint", "missing argument <path>", "hotstrings lint"),
        (["lint", "--frob", "x"], "hotstrings lint", "unknown option '--frob'", "hotstrings lint"),
        (["lint", "--development-language"], "hotstrings lint", "missing value for option '--development-language'",
         "hotstrings lint"),
        (["lint", "--development-language=", "x"], "hotstrings lint",
         "--development-language takes a language, not an empty value", "hotstrings lint"),
        (["dump"], "hotstrings dump", "missing argument <file>", "hotstrings dump"),
        (["dump", "a", "b"], "hotstrings dump", "unexpected argument 'b'", "hotstrings dump"),
    ] as [([String], String, String, String)])
    func usageErrorsExit64WithOneLineAndUsage(_ arguments: [String], prefix: String, message: String, usage: String) {
        let result = run(arguments)
        #expect(result.code == 64)
        #expect(result.stdout.isEmpty)
        let lines = result.stderr.split(separator: "\n")
        // `hotstrings CMD: error: …` once the command is known, `hotstrings: error: …` before.
        #expect(lines.first == "\(prefix): error: \(message)"[...])
        #expect(lines.dropFirst().first?.hasPrefix("USAGE: \(usage)") == true)
    }
}
