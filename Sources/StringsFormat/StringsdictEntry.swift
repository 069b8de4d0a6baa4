/// One entry of a `.stringsdict`: a format with `%#@name@` variables and, per variable, the rule that picks
/// its text.
public struct StringsdictEntry: Sendable, Hashable {
    /// `NSStringLocalizedFormatKey`: the format, with `%#@name@` (or `%1$#@name@`) for each variable.
    public var format: String
    /// The variables by name.
    public var variables: [String: Variable]
    /// `NSStringDeviceSpecificRuleType` written on the entry itself (Apple's device-specific strings, and what
    /// Xcode compiles a catalog's device variations to): an entry per device (`iphone`, `mac`, `other` …), a
    /// plain text being an entry without variables. When it is not empty, the device's entry is formatted and
    /// `format` and `variables` are unused.
    public var devices: [String: StringsdictEntry] = [:]

    /// A variable and the rule that picks its text.
    public enum Variable: Sendable, Hashable {
        /// `NSStringPluralRuleType`: a text per CLDR category; `valueType` is `NSStringFormatValueTypeKey`
        /// (`d`, `ld`, `f`, `@` …), or empty when the entry leaves it out.
        case plural(valueType: String, forms: [PluralCategory: String])
        /// `NSStringVariableWidthRuleType`: a text per width (in characters, from the keys).
        case variableWidth([Int: String])
        /// `NSStringDeviceSpecificRuleType`: a text per device (`iphone`, `ipad`, `mac`, `other` …).
        case deviceSpecific([String: String])
    }

    /// Creates an entry.
    public init(format: String, variables: [String: Variable]) {
        self.format = format
        self.variables = variables
    }

    /// Reads an entry from its `.stringsdict` dictionary.
    /// - Throws: `FormatError` naming the key and what is wrong with it, also when its variables nest or expand
    ///   beyond `maximumNesting` or `maximumExpandedSize` (`checkExpansionBounds()`).
    public init(key: String, _ value: PropertyListValue) throws(FormatError) {
        guard let dictionary = value.dictionaryValue else {
            throw FormatError("entry '\(key)' is \(value.kind), not a dictionary")
        }
        if let devices = dictionary["NSStringDeviceSpecificRuleType"] {
            try self.init(key: key, devices: devices)
            return
        }
        guard let format = dictionary["NSStringLocalizedFormatKey"]?.stringValue else {
            throw FormatError("entry '\(key)' has no NSStringLocalizedFormatKey string")
        }
        var variables: [String: Variable] = [:]
        for (name, value) in dictionary where name != "NSStringLocalizedFormatKey" {
            guard let rule = value.dictionaryValue else { continue }  // comments and other keys Apple ignores
            variables[name] = try Self.variable(rule, entry: key, name: name)
        }
        self.init(format: format, variables: variables)
        do throws(FormatError) {
            try checkExpansionBounds()
        } catch {
            throw FormatError("entry '\(key)': \(error.reason)")
        }
    }

    private init(key: String, devices: PropertyListValue) throws(FormatError) {
        guard let cases = devices.dictionaryValue else {
            throw FormatError("entry '\(key)': NSStringDeviceSpecificRuleType is \(devices.kind), not a dictionary")
        }
        self.init(format: "", variables: [:])
        for (device, value) in cases {
            if let text = value.stringValue {
                self.devices[device] = StringsdictEntry(format: text, variables: [:])
            } else {
                self.devices[device] = try StringsdictEntry(key: "\(key)' device '\(device)", value)
            }
        }
    }

    /// Reads every entry of a `.stringsdict` whose top object is a dictionary of entries.
    /// - Throws: `FormatError` for the first entry that is not well formed.
    public static func entries(of plist: PropertyListValue) throws(FormatError) -> [String: StringsdictEntry] {
        guard let top = plist.dictionaryValue else {
            throw FormatError("the top object is \(plist.kind), not a dictionary of entries")
        }
        var entries: [String: StringsdictEntry] = [:]
        for (key, value) in top { entries[key] = try StringsdictEntry(key: key, value) }
        return entries
    }

    private static func variable(_ rule: [String: PropertyListValue], entry: String, name: String)
        throws(FormatError) -> Variable
    {
        let type = rule["NSStringFormatSpecTypeKey"]?.stringValue
        var texts: [String: String] = [:]
        for (key, value) in rule where !key.hasPrefix("NSString") {
            guard let text = value.stringValue else {
                throw FormatError("entry '\(entry)', variable '\(name)': '\(key)' is \(value.kind), not a string")
            }
            texts[key] = text
        }
        switch type {
        case "NSStringPluralRuleType":
            var forms: [PluralCategory: String] = [:]
            for (key, text) in texts {
                guard let category = PluralCategory(rawValue: key) else {
                    throw FormatError("entry '\(entry)', variable '\(name)': '\(key)' is not a plural category")
                }
                forms[category] = text
            }
            let valueType = rule["NSStringFormatValueTypeKey"]?.stringValue ?? ""
            return .plural(valueType: valueType, forms: forms)
        case "NSStringVariableWidthRuleType":
            var widths: [Int: String] = [:]
            for (key, text) in texts {
                guard let width = Int(key) else {
                    throw FormatError("entry '\(entry)', variable '\(name)': width '\(key)' is not a number")
                }
                widths[width] = text
            }
            return .variableWidth(widths)
        case "NSStringDeviceSpecificRuleType":
            return .deviceSpecific(texts)
        default:
            throw FormatError("entry '\(entry)', variable '\(name)': unknown NSStringFormatSpecTypeKey '\(type ?? "")'")
        }
    }
}

extension StringsdictEntry {
    /// The entry's dictionary as a `.stringsdict` holds it (what `init(key:_:)` reads back).
    public var propertyList: PropertyListValue {
        if !devices.isEmpty {
            let cases = devices.mapValues { variant in
                variant.variables.isEmpty && variant.devices.isEmpty ? .string(variant.format) : variant.propertyList
            }
            return .dictionary(["NSStringDeviceSpecificRuleType": .dictionary(cases)])
        }
        var members: [String: PropertyListValue] = ["NSStringLocalizedFormatKey": .string(format)]
        for (name, variable) in variables {
            var rule: [String: PropertyListValue]
            switch variable {
            case .plural(let valueType, let forms):
                rule = ["NSStringFormatSpecTypeKey": .string("NSStringPluralRuleType")]
                if !valueType.isEmpty { rule["NSStringFormatValueTypeKey"] = .string(valueType) }
                for (category, text) in forms { rule[category.rawValue] = .string(text) }
            case .variableWidth(let widths):
                rule = ["NSStringFormatSpecTypeKey": .string("NSStringVariableWidthRuleType")]
                for (width, text) in widths { rule[String(width)] = .string(text) }
            case .deviceSpecific(let texts):
                rule = ["NSStringFormatSpecTypeKey": .string("NSStringDeviceSpecificRuleType")]
                for (device, text) in texts { rule[device] = .string(text) }
            }
            members[name] = .dictionary(rule)
        }
        return .dictionary(members)
    }
}
