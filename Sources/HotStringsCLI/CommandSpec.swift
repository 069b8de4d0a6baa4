/// What the parser and the help know of an option, whatever its value's type: made by a `CommandOption`, the one
/// declaration of the option.
package struct OptionSpec: Sendable {
    /// The long name without dashes (`json` for `--json`).
    package var name: String
    /// The one-letter short name (`q` for `-q`), if any.
    package var short: Character?
    /// The placeholder shown in help for an option that takes a value (`duration`); `nil` for a flag.
    package var valueName: String?
    /// The value used when the option is not given, as the user would write it.
    package var defaultValue: String?
    /// What the type adds to the help (the range, a plain number's unit, how lists are written), if anything.
    package var note: String?
    /// One sentence for `--help`.
    package var help: String
    /// Whether the command refuses to run without the option (the usage shows it without brackets).
    package var isRequired = false

    /// Whether the option is followed by a value.
    package var takesValue: Bool { valueName != nil }

    /// `-q, --quiet` or `--development-language <lang>`, as shown in help.
    var label: String {
        var label = short.map { "-\($0), " } ?? ""
        label += "--\(name)"
        if let valueName { label += " <\(valueName)>" }
        return label
    }
}

/// A positional argument of a command.
package struct ArgumentSpec: Sendable {
    /// The placeholder shown in help (`path`).
    package var name: String
    /// One sentence for `--help`.
    package var help: String
    /// Whether the argument may be given more than once; only the last argument may repeat.
    package var isRepeating: Bool = false
    /// Whether the argument may be left out.
    package var isOptional: Bool = false

    var usage: String {
        let base = isRepeating ? "<\(name)> ..." : "<\(name)>"
        return isOptional ? "[\(base)]" : base
    }
}

/// What a command is called, what it does and what it accepts: the source of its parser and its help.
package struct CommandSpec: Sendable {
    /// The subcommand's name (`lint`).
    package var name: String
    /// One line for the command list and the top of `--help`.
    package var abstract: String
    /// Paragraphs shown after the abstract in `--help`.
    package var discussion: String = ""
    /// The positional arguments, in order.
    package var arguments: [ArgumentSpec] = []
    /// The options, in the order help lists them (`--help` is added automatically).
    package var options: [any OptionDeclaration] = []
    /// The exit codes and what they mean, shown in `--help`.
    package var exitCodes: [(code: Int32, meaning: String)] = []

    /// The one-line synopsis: `hotstrings lint [--json] [--development-language <lang>] <path> ...`.
    var usage: String {
        var parts = ["\(CLI.name) \(name)"]
        for option in options.map(\.spec) {
            var part = "--\(option.name)"
            if let valueName = option.valueName { part += " <\(valueName)>" }
            parts.append(option.isRequired ? part : "[\(part)]")
        }
        parts += arguments.map(\.usage)
        return parts.joined(separator: " ")
    }

    /// The full `--help` text, ending with a newline.
    var help: String {
        var text = "OVERVIEW: \(abstract)\n\n"
        if !discussion.isEmpty { text += HelpFormatter.wrap(discussion, indent: 0) + "\n" }
        text += "USAGE: \(usage)\n"
        if !arguments.isEmpty {
            text += "\nARGUMENTS:\n"
            for argument in arguments {
                text += HelpFormatter.row(label: "<\(argument.name)>", help: argument.help)
            }
        }
        text += "\nOPTIONS:\n"
        for option in options.map(\.spec) {
            let suffix = option.isRequired ? "(required)" : option.defaultValue.map { "(default: \($0))" }
            let help = [option.help, option.note].compactMap { $0 }.joined(separator: " ")
            text += HelpFormatter.row(label: option.label, help: help, unbreakableSuffix: suffix)
        }
        text += HelpFormatter.row(label: "-h, --help", help: "Show help information.")
        if !exitCodes.isEmpty {
            text += "\nEXIT CODES:\n"
            for (code, meaning) in exitCodes {
                text += HelpFormatter.row(label: String(code), help: meaning)
            }
        }
        return text
    }
}

/// Lays out help text: labelled rows with wrapped descriptions, 80 columns wide.
enum HelpFormatter {
    static let width = 80
    static let labelColumn = 26

    /// `  label                   help text that wraps` with continuation lines aligned under the help.
    ///
    /// `unbreakableSuffix` (like `(default: en)`) ends the help and is never split across lines.
    static func row(label: String, help: String, unbreakableSuffix: String? = nil) -> String {
        let indent = String(repeating: " ", count: labelColumn)
        let lines = wrapLines(help, width: width - labelColumn, unbreakableSuffix: unbreakableSuffix)
        var text = "  " + label
        if text.count + 1 >= labelColumn {
            text += "\n" + indent
        } else {
            text += String(repeating: " ", count: labelColumn - text.count)
        }
        text += lines.joined(separator: "\n" + indent)
        return text + "\n"
    }

    /// Wraps each paragraph of `text` (paragraphs are separated by blank lines) to the width.
    static func wrap(_ text: String, indent: Int) -> String {
        let prefix = String(repeating: " ", count: indent)
        let paragraphs = text.components(separatedBy: "\n\n")
        return paragraphs.map { paragraph in
            wrapLines(paragraph, width: width - indent).map { prefix + $0 }.joined(separator: "\n") + "\n"
        }.joined(separator: "\n")
    }

    static func wrapLines(_ text: String, width: Int, unbreakableSuffix: String? = nil) -> [String] {
        var lines: [String] = []
        var line = ""
        let words = text.split(whereSeparator: \.isWhitespace).map(String.init) + (unbreakableSuffix.map { [$0] } ?? [])
        for word in words {
            if !line.isEmpty && line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += line.isEmpty ? word : " " + word
        }
        if !line.isEmpty || lines.isEmpty { lines.append(line) }
        return lines
    }
}
