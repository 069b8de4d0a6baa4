import Foundation

/// One option of a command, declared once with its name, type, default and help, and read back by itself.
///
/// A command keeps its options as static constants and reads them with `try arguments[Self.settle]`: the
/// declaration is the only place that names the option, says what its values mean and what it is when not
/// given, so the parser, the help and the command cannot disagree.
///
/// ```swift
/// static let settle: CommandOption<Duration> = .value(
///     "settle", .duration(plain: .milliseconds, in: .zero ... .seconds(60)), default: .milliseconds(50),
///     help: "Quiet time for modifications and deletions.")
/// ```
package struct CommandOption<Value: Sendable>: OptionDeclaration {
    /// What the parser and the help need: the name, the placeholder, the default as text, the help.
    package let spec: OptionSpec
    /// The value from every occurrence given, in order (none when the option was not given).
    let value: @Sendable (_ given: [String]) throws(UsageError) -> Value
}

/// An option of any value type, as a command's spec lists it.
package protocol OptionDeclaration: Sendable {
    /// The untyped description the parser and the help use.
    var spec: OptionSpec { get }
}

extension CommandOption where Value == Bool {
    /// A flag: true when given (`--json`, `-q`).
    package static func flag(_ name: String, short: Character? = nil, help: String) -> CommandOption<Bool> {
        CommandOption(spec: OptionSpec(name: name, short: short, valueName: nil, help: help)) { !$0.isEmpty }
    }
}

extension CommandOption {
    /// An option with a value of `type`, `defaultValue` when not given; the last occurrence wins.
    package static func value(
        _ name: String, short: Character? = nil, _ type: OptionType<Value>, default defaultValue: Value, help: String
    ) -> CommandOption<Value> {
        let spec = OptionSpec(name: name, short: short, valueName: type.placeholder,
                              defaultValue: type.text(defaultValue), note: type.note, help: help)
        return CommandOption(spec: spec) { given throws(UsageError) in
            guard let last = given.last else { return defaultValue }
            return try type.read(last, "--\(name)")
        }
    }

    /// An option with a value of `type`, nil when not given (the help says what happens then); the last
    /// occurrence wins.
    package static func optional<Wrapped>(
        _ name: String, short: Character? = nil, _ type: OptionType<Wrapped>, help: String
    ) -> CommandOption<Wrapped?> {
        let spec = OptionSpec(name: name, short: short, valueName: type.placeholder, note: type.note, help: help)
        return CommandOption<Wrapped?>(spec: spec) { given throws(UsageError) in
            guard let last = given.last else { return nil }
            return try type.read(last, "--\(name)")
        }
    }

    /// An option with a value of `type` that must be given (`set --language`); the last occurrence wins.
    package static func required(
        _ name: String, short: Character? = nil, _ type: OptionType<Value>, help: String
    ) -> CommandOption<Value> {
        var spec = OptionSpec(name: name, short: short, valueName: type.placeholder, note: type.note, help: help)
        spec.isRequired = true
        return CommandOption(spec: spec) { given throws(UsageError) in
            guard let last = given.last else { throw UsageError("missing option --\(name)") }
            return try type.read(last, "--\(name)")
        }
    }

    /// A list of values of `type`: comma-separated (`--languages de,fr`), and the option may be repeated to add
    /// more (`--trust-uid 1000 --trust-uid 1001`). Blank items are skipped; an occurrence with no item is an
    /// error. Empty when not given.
    package static func list<Element>(
        _ name: String, short: Character? = nil, _ type: OptionType<Element>, help: String
    ) -> CommandOption<[Element]> {
        let note = ["Comma-separated, or the option repeated.", type.note].compactMap { $0 }.joined(separator: " ")
        let spec = OptionSpec(name: name, short: short, valueName: type.placeholder + ",...", note: note, help: help)
        return CommandOption<[Element]>(spec: spec) { given throws(UsageError) in
            var elements: [Element] = []
            for occurrence in given {
                let items = occurrence.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                    .filter { !$0.isEmpty }
                if items.isEmpty {
                    throw UsageError("--\(name) takes a comma-separated list of \(type.placeholder)s, not "
                                     + "'\(UsageError.escaped(occurrence))'")
                }
                for item in items { elements.append(try type.read(item, "--\(name)")) }
            }
            return elements
        }
    }
}

extension ParsedArguments {
    /// The value of `option`: parsed from what was given, else its default.
    /// - Throws: `UsageError` naming the option when a value given is not one of its type.
    package subscript<Value>(_ option: CommandOption<Value>) -> Value {
        get throws(UsageError) {
            try option.value(given(option))
        }
    }

    /// Whether `option` was given at all (even with its default value).
    package func isGiven(_ option: some OptionDeclaration) -> Bool {
        !given(option).isEmpty
    }

    private func given(_ option: some OptionDeclaration) -> [String] {
        precondition(spec.options.contains { $0.spec.name == option.spec.name },
                     "'--\(option.spec.name)' is not an option of \(spec.name)")
        return values[option.spec.name] ?? []
    }
}
