/// Where a text is in a value: the value itself (or an entry's `NSStringLocalizedFormatKey`), one of a variable's
/// texts (a plural form, a width, a device of `NSStringDeviceSpecificRuleType`), on a device when the value varies by
/// device.
package struct TextPlace: Sendable, Hashable {
    /// The device whose text or entry it is, when the value varies by device.
    package var device: String?
    /// The variable whose text it is; `nil` for the value itself, or the entry's format.
    package var variable: String?
    /// The variable's case: a plural category (`one`), a width (`20`) or a device (`mac`).
    package var form: String?

    package init(device: String? = nil, variable: String? = nil, form: String? = nil) {
        self.device = device
        self.variable = variable
        self.form = form
    }

    /// `device 'mac', form 'one' of 'messages'`; empty for the value itself.
    package var description: String {
        var parts: [String] = []
        if let device { parts.append("device '\(DisplayText.escaped(device))'") }
        if let variable, let form {
            parts.append("form '\(DisplayText.escaped(form))' of '\(DisplayText.escaped(variable))'")
        }
        return parts.joined(separator: ", ")
    }
}

/// One argument that one specifier takes.
package struct ArgumentUse: Sendable, Hashable {
    /// The argument's number, from 1.
    package var argument: Int
    /// What the specifier reads it as; `nil` when it reads no value (a variable without a value type, a width
    /// or device variable).
    package var argumentClass: ArgumentClass?
    /// The specifier as written (`%2$d`, `%#@files@`, `%*d` for its width too).
    package var specifier: String
    /// Whether the specifier names its argument (`%2$d`, `%*1$d`): it does not count on its place in the text.
    package var isPositioned: Bool
    /// The text it is in.
    package var place: TextPlace
}

extension FormatSpecifiers {
    /// The arguments `entry` takes, each specifier's in the order the formatter meets them: in a text, a
    /// positioned specifier takes its position, and the others count on from argument 1 (a `*` width, then a `*`
    /// precision, then the conversion), as `String(format:)` numbers them; a `%#@name@` takes one, and in each
    /// of its variable's texts the plain specifiers print that same argument while positioned ones take their
    /// position in the whole format (as `StringsdictFormatter` formats them). Every text of a variable is walked
    /// (the one the argument picks is not known), and variables nest at most `StringsdictEntry.maximumNesting` deep.
    ///
    /// An entry that varies by device is read as its entry on `place.device` (else `other`'s); `place` is where
    /// the entry is, for the uses' places.
    package static func arguments(of entry: StringsdictEntry, at place: TextPlace = TextPlace()) -> [ArgumentUse] {
        ArgumentWalk(entry, at: place).uses
    }
}

/// The walk of `FormatSpecifiers.arguments(of:at:)`: the arguments an entry takes, and its specifications that
/// take none.
struct ArgumentWalk {
    let entry: StringsdictEntry
    /// Each argument each specifier takes.
    private(set) var uses: [ArgumentUse] = []
    /// Whether a text has a `%%`.
    private(set) var hasPercent = false
    /// The specifications that are none to `String(format:)` (`%I`, a final `%`), as written, and where.
    private(set) var unknown: [(specifier: String, place: TextPlace)] = []
    /// The argument the next unpositioned specifier outside a variable's text takes.
    private var next = 1

    /// Walks `entry` as shown on `place.device`.
    init(_ entry: StringsdictEntry, at place: TextPlace) {
        self.entry = entry.shown(on: place.device) ?? StringsdictEntry(format: "", variables: [:])
        walk(self.entry.format, place: place, ownArgument: nil, depth: 0)
    }

    /// Whether the entry is evidently a format: it takes an argument or writes `%%`.
    var isFormat: Bool { hasPercent || !uses.isEmpty }

    private mutating func walk(_ text: String, place: TextPlace, ownArgument: Int?, depth: Int) {
        for (specifier, written) in FormatSpecifier.all(in: text) {
            switch specifier.kind {
            case .conversion(let byte):
                for case .argument(let position)? in [specifier.width, specifier.precision] {
                    use(position ?? take(), .integer, written, isPositioned: position != nil, place)
                }
                use(specifier.position ?? ownArgument ?? take(), ArgumentClass(conversion: byte), written,
                    isPositioned: specifier.position != nil, place)
            case .variable:
                guard let name = specifier.variableName(in: text) else { continue }
                let argument = specifier.position ?? take()
                let variable = entry.variables[name]
                use(argument, variable?.argumentClass, written, isPositioned: specifier.position != nil, place)
                guard let variable, depth < StringsdictEntry.maximumNesting else { continue }
                // Variables in a text take further arguments; each text is walked from the same place, and the
                // walk goes on from where `other` (else the last text) left it.
                let start = next
                var after = next
                for (form, formText) in variable.texts {
                    next = start
                    walk(formText, place: TextPlace(device: place.device, variable: name, form: form),
                         ownArgument: argument, depth: depth + 1)
                    after = next
                    if form == PluralCategory.other.rawValue { break }
                }
                next = after
            case .percent:
                hasPercent = true
            case .unknown, .incomplete, .unterminatedVariable:
                unknown.append((written, place))
            }
        }
    }

    private mutating func take() -> Int {
        defer { next += 1 }
        return next
    }

    private mutating func use(_ argument: Int, _ argumentClass: ArgumentClass?, _ specifier: String,
                              isPositioned: Bool, _ place: TextPlace) {
        uses.append(ArgumentUse(argument: argument, argumentClass: argumentClass, specifier: specifier,
                                isPositioned: isPositioned, place: place))
    }
}

extension StringsdictEntry.Variable {
    /// The class of the argument the variable picks its text by: a plural's value type's; `nil` for the others.
    var argumentClass: ArgumentClass? {
        if case .plural(let valueType, _) = self { return ArgumentClass(valueType: valueType) }
        return nil
    }

    /// Each text with what picks it (a plural category, a width, a device), in a fixed order: plural forms by
    /// category (so `other` last), widths from the narrowest, devices by name.
    var texts: [(form: String, text: String)] {
        switch self {
        case .plural(_, let forms): forms.sorted { $0.key < $1.key }.map { ($0.key.rawValue, $0.value) }
        case .variableWidth(let widths): widths.sorted { $0.key < $1.key }.map { (String($0.key), $0.value) }
        case .deviceSpecific(let devices): devices.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        }
    }
}

extension StringsdictEntry {
    /// The entry shown on `device` (no device: as `other`): its device's entry, else `other`'s, when it varies by
    /// device; itself when it does not. `nil` when it varies by device but neither is there.
    package func shown(on device: String?) -> StringsdictEntry? {
        guard !devices.isEmpty else { return self }
        return devices[device ?? "other"] ?? devices["other"]
    }
}
