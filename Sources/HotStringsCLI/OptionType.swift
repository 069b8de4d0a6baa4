import StringsFormat

/// How an option's text becomes a value, and how values are shown in help: the type half of a `CommandOption`.
package struct OptionType<Value: Sendable>: Sendable {
    /// The placeholder in usage and help (`duration`, `bytes`, `json|text`).
    var placeholder: String
    /// What help adds about the values (their range, the unit of a plain number), if anything.
    var note: String?
    /// Reads one value given for the option named `option` (`--settle`), or throws the usage error to print.
    var read: @Sendable (_ text: String, _ option: String) throws(UsageError) -> Value
    /// A value as the user would write it, for `(default: …)`.
    var text: @Sendable (Value) -> String
}

extension OptionType where Value == String {
    /// Any text but the empty one (a path, a table name).
    static func text(_ placeholder: String) -> OptionType {
        OptionType(placeholder: placeholder, note: nil, read: { text, option throws(UsageError) in
            if text.isEmpty { throw UsageError("\(option) takes a \(placeholder), not an empty value") }
            return text
        }, text: { $0 })
    }
}

extension OptionType where Value == LanguageTag {
    /// A language tag other than Base (`en`, `pt-BR`; `pt_br` reads as `pt-BR`).
    static var language: OptionType {
        OptionType(placeholder: "language", note: nil, read: { text, option throws(UsageError) in
            guard let language = LanguageTag(text), !language.isBase else {
                throw UsageError("\(option) takes a language tag such as en or pt-BR, not '\(UsageError.escaped(text))'")
            }
            return language
        }, text: { $0.identifier })
    }
}

extension OptionType where Value == UInt32 {
    /// A numeric user ID (`1000`).
    static var userID: OptionType {
        OptionType(placeholder: "uid", note: nil, read: { text, option throws(UsageError) in
            guard let userID = UInt32(text) else {
                throw UsageError("\(option) takes a numeric user ID such as 1000, not '\(UsageError.escaped(text))'")
            }
            return userID
        }, text: { String($0) })
    }

    /// File permissions in octal, at most 777 (`600`, `660`).
    static var permissions: OptionType {
        OptionType(placeholder: "octal", note: nil, read: { text, option throws(UsageError) in
            guard let mode = UInt32(text, radix: 8), mode <= 0o777 else {
                throw UsageError("\(option) takes octal permissions such as 600 or 660, not '\(UsageError.escaped(text))'")
            }
            return mode
        }, text: { String($0, radix: 8) })
    }
}

extension OptionType where Value == Int {
    /// A whole number in `range` (`bytes`, `count`); help shows the range unless it is every natural number.
    static func integer(_ placeholder: String, in range: ClosedRange<Int>) -> OptionType {
        let bounds = range.upperBound == .max ? "at least \(range.lowerBound)"
            : "from \(range.lowerBound) to \(range.upperBound)"
        let note = range == 0 ... .max ? nil : "A whole number \(bounds)."
        return OptionType(placeholder: placeholder, note: note, read: { text, option throws(UsageError) in
            guard let value = Int(text), range.contains(value) else {
                throw UsageError("\(option) takes a whole number \(bounds), not '\(UsageError.escaped(text))'")
            }
            return value
        }, text: { String($0) })
    }
}

extension OptionType {
    /// One of a few names (`json|text`), each standing for a value.
    static func choice(_ choices: [(name: String, value: Value)]) -> OptionType where Value: Equatable {
        let names = choices.map(\.name)
        let listed = names.dropLast().joined(separator: ", ") + " or " + names[names.count - 1]
        let placeholder = names.joined(separator: "|")
        return OptionType(placeholder: placeholder, note: nil, read: { text, option throws(UsageError) in
            guard let value = choices.first(where: { $0.name == text })?.value else {
                throw UsageError("\(option) takes \(listed), not '\(UsageError.escaped(text))'")
            }
            return value
        }, text: { value in choices.first { $0.value == value }?.name ?? "" })
    }
}

extension UsageError {
    /// A value from the command line as a usage error quotes it: escaped, so it cannot drive the terminal.
    static func escaped(_ text: String) -> String {
        DisplayText.escaped(text)
    }
}
