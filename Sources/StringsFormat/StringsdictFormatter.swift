/// Formats `.stringsdict` entries as Apple's `String.localizedStringWithFormat` does, without Foundation.
///
/// Each `%#@name@` takes the next argument (or the one its position names, `%2$#@name@`) and is replaced by
/// the text its rule picks:
/// - plural: the CLDR category of the argument in `language` (an `Int` has `v` = 0, a `Double` is read as
///   ICU reads it, a string as a decimal number as written); a present `zero` form wins for 0 whatever the
///   language, and a missing category falls back to `other` (an error when `other` is missing too);
/// - variable width: the text of the largest width not above `width`; the smallest width when all are
///   wider; the largest when `width` is `nil`;
/// - device specific: the text for `device`, else `other`, else the first device in alphabetical order; the
///   same for an entry whose devices are written on the entry itself (`StringsdictEntry.devices`).
///
/// The picked text is formatted in place: its unpositioned ordinary specifiers (`%d`, `%@`) print the
/// variable's own argument, and its own `%#@other@` variables take further arguments. Ordinary specifiers
/// outside variables work as in `String(format:)`.
public struct StringsdictFormatter: Sendable {
    /// The device `NSStringDeviceSpecificRuleType` picks for: `iphone`, `ipad`, `mac`, `appletv`, `applewatch`,
    /// `visionos`, `ipod`; `other` by default.
    public var device: String
    /// The display width `NSStringVariableWidthRuleType` picks for; `nil` picks the widest text.
    public var width: Int?

    /// The longest result in bytes: a format that would give more (widths of up to 1,000,000 each, `*` widths
    /// included, or huge string arguments) is a `FormatError`, so no translation makes a program allocate
    /// without bound.
    public static let maximumOutputSize = 4 * 1024 * 1024

    /// Creates a formatter for a device and width.
    public init(device: String = "other", width: Int? = nil) {
        self.device = device
        self.width = width
    }

    /// Formats `entry` with `arguments` under `language`'s plural rules.
    /// - Throws: `FormatError` naming an undefined variable, a missing form or argument, or a bad specifier, or
    ///   when the result would be longer than `maximumOutputSize`.
    public func format(_ entry: StringsdictEntry, language: String, arguments: [FormatArgument])
        throws(FormatError) -> String
    {
        try format(entry, pluralRules: PluralRuleSet(language: language), arguments: arguments)
    }

    /// Formats `entry` with `arguments` under `pluralRules` (the cardinal rules of the language the entry came
    /// from, resolved once for all its lookups).
    /// - Throws: `FormatError` naming an undefined variable, a missing form or argument, or a bad specifier, or
    ///   when the result would be longer than `maximumOutputSize`.
    public func format(_ entry: StringsdictEntry, pluralRules: PluralRuleSet, arguments: [FormatArgument])
        throws(FormatError) -> String
    {
        if !entry.devices.isEmpty {
            // Not empty, so there is a first device.
            let picked = entry.devices[device] ?? entry.devices["other"] ?? entry.devices.min { $0.key < $1.key }!.value
            return try format(picked, pluralRules: pluralRules, arguments: arguments)
        }
        let variables = EntryVariables(formatter: self, entry: entry, pluralRules: pluralRules)
        var printf = PrintfFormatter(arguments: arguments, variables: variables)
        return try printf.format(entry.format)
    }

    /// Formats a plain format string as `String(format:)` does.
    public static func format(_ format: String, arguments: [FormatArgument]) throws(FormatError) -> String {
        var printf = PrintfFormatter(arguments: arguments)
        return try printf.format(format)
    }

    /// An entry's variables, for the printf engine.
    private struct EntryVariables: PrintfVariables {
        let formatter: StringsdictFormatter
        let entry: StringsdictEntry
        let pluralRules: PluralRuleSet

        var hasVariables: Bool { true }

        func text(ofVariable name: String, for argument: FormatArgument) throws(FormatError) -> String {
            guard let variable = entry.variables[name] else {
                throw FormatError("variable '%#@\(name)@' is not defined in the entry")
            }
            return try formatter.text(of: variable, named: name, for: argument, pluralRules: pluralRules)
        }
    }

    private func text(of variable: StringsdictEntry.Variable, named name: String, for argument: FormatArgument,
                      pluralRules: PluralRuleSet) throws(FormatError) -> String
    {
        switch variable {
        case .plural(_, let forms):
            guard let operands = argument.pluralOperands else {
                throw FormatError("variable '\(name)' needs a number, not '\(argument)'")
            }
            if let zero = forms[.zero], operands.isInteger, operands.i == 0 { return zero }
            let category = pluralRules.category(for: operands)
            guard let text = forms[category] ?? forms[.other] else {
                throw FormatError("variable '\(name)' has neither a '\(category.rawValue)' nor an 'other' form")
            }
            return text
        case .variableWidth(let texts):
            let widths = texts.keys.sorted()
            guard let widest = widths.last, let narrowest = widths.first else {
                throw FormatError("variable '\(name)' has no widths")
            }
            guard let width else { return texts[widest]! }
            return texts[widths.last { $0 <= width } ?? narrowest]!
        case .deviceSpecific(let texts):
            if let text = texts[device] ?? texts["other"] { return text }
            guard let first = texts.keys.min() else { throw FormatError("variable '\(name)' has no devices") }
            return texts[first]!
        }
    }
}
