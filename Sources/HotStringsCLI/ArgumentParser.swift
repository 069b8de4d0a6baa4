/// A mistake in how a command was called; reported as one line plus the usage, exit code 64.
package struct UsageError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong, without the `error:` prefix.
    package var message: String

    /// Creates an error with a message such as `unknown option '--jsn'`.
    package init(_ message: String) {
        self.message = message
    }

    package var description: String { message }
}

/// The arguments of one command after parsing: flags, option values and positionals.
package struct ParsedArguments: Sendable {
    /// The options as given, keyed by long name; a flag's list holds one empty string per occurrence. Read
    /// through the options' declarations: `arguments[Self.settle]` (see `CommandOption`).
    var values: [String: [String]] = [:]
    /// The positional arguments, in order (everything after `--` is positional).
    package var positionals: [String] = []
    /// Whether `-h` or `--help` was given; parsing stops checking other arguments when it was.
    package var isHelpRequested = false
    let spec: CommandSpec
}

/// Turns a command's argument list into `ParsedArguments`, following the usual Unix conventions.
///
/// Long options take `--name value` or `--name=value`; short flags may be bundled (`-qj`); a lone `-`
/// is a positional (conventionally standard input); `--` ends the options. `-h`/`--help` anywhere
/// before `--` requests help and suppresses every other complaint.
struct ArgumentParser {
    let spec: CommandSpec

    func parse(_ arguments: [String]) throws(UsageError) -> ParsedArguments {
        var result = ParsedArguments(spec: spec)
        if arguments.prefix(while: { $0 != "--" }).contains(where: { $0 == "-h" || $0 == "--help" }) {
            result.isHelpRequested = true
            return result
        }
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                result.positionals.append(argument)
            } else if argument == "--" {
                optionsEnded = true
            } else if argument.hasPrefix("--") {
                try parseLong(argument, rest: arguments, index: &index, into: &result)
            } else {
                try parseShort(argument, rest: arguments, index: &index, into: &result)
            }
        }
        try checkPositionals(result.positionals)
        return result
    }

    private func parseLong(
        _ argument: String, rest arguments: [String], index: inout Int, into result: inout ParsedArguments
    ) throws(UsageError) {
        let body = argument.dropFirst(2)
        let name = String(body.prefix { $0 != "=" })
        let inlineValue = body.firstIndex(of: "=").map { String(body[body.index(after: $0)...]) }
        guard let option = spec.options.lazy.map(\.spec).first(where: { $0.name == name }) else {
            throw UsageError(Suggestion.message("unknown option '--\(name)'", name: name,
                                                among: spec.options.map(\.spec.name) + ["help"], prefix: "--"))
        }
        if option.takesValue {
            if let inlineValue {
                result.values[name, default: []].append(inlineValue)
            } else {
                result.values[name, default: []].append(try takeValue(for: option, from: arguments, index: &index))
            }
        } else if inlineValue != nil {
            throw UsageError("option '--\(name)' does not take a value")
        } else {
            result.values[name, default: []].append("")
        }
    }

    private func parseShort(
        _ argument: String, rest arguments: [String], index: inout Int, into result: inout ParsedArguments
    ) throws(UsageError) {
        let letters = Array(argument.dropFirst())
        for (position, letter) in letters.enumerated() {
            guard let option = spec.options.lazy.map(\.spec).first(where: { $0.short == letter }) else {
                throw UsageError("unknown option '-\(letter)'")
            }
            guard option.takesValue else {
                result.values[option.name, default: []].append("")
                continue
            }
            // `-Lfr` and `-L fr` both give the value `fr`.
            var value = String(letters[(position + 1)...])
            if value.isEmpty { value = try takeValue(for: option, from: arguments, index: &index) }
            result.values[option.name, default: []].append(value)
            return
        }
    }

    private func takeValue(
        for option: OptionSpec, from arguments: [String], index: inout Int
    ) throws(UsageError) -> String {
        guard index < arguments.count, arguments[index] == "-" || !arguments[index].hasPrefix("-") else {
            throw UsageError("missing value for option '--\(option.name)'")
        }
        index += 1
        return arguments[index - 1]
    }

    private func checkPositionals(_ positionals: [String]) throws(UsageError) {
        let required = spec.arguments.filter { !$0.isOptional }
        if positionals.count < required.count {
            throw UsageError("missing argument <\(required[positionals.count].name)>")
        }
        let repeats = spec.arguments.last?.isRepeating ?? false
        if !repeats && positionals.count > spec.arguments.count {
            throw UsageError("unexpected argument '\(positionals[spec.arguments.count])'")
        }
    }
}
