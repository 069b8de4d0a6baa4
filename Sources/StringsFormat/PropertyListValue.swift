/// A property list object, as `PropertyListSerialization` returns it: dictionary, array, string, integer,
/// real, Boolean, date or data.
public enum PropertyListValue: Sendable, Hashable {
    /// `<dict>`: keys are unique; a key written twice keeps its last value, as CoreFoundation does.
    case dictionary([String: PropertyListValue])
    /// `<array>`.
    case array([PropertyListValue])
    /// `<string>` (and `<key>` text).
    case string(String)
    /// `<integer>`: a signed 64-bit value.
    case integer(Int64)
    /// `<real>`.
    case real(Double)
    /// `<true/>` or `<false/>`.
    case boolean(Bool)
    /// `<date>`: seconds since 2001-01-01T00:00:00Z, Foundation's reference date.
    case date(Double)
    /// `<data>`: the decoded Base64 bytes.
    case data([UInt8])

    /// The string, if this is a string.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The dictionary, if this is a dictionary.
    public var dictionaryValue: [String: PropertyListValue]? {
        if case .dictionary(let value) = self { return value }
        return nil
    }

    /// The elements, if this is an array.
    public var arrayValue: [PropertyListValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// What this object is, with an article, for error messages: "a dictionary", "a string".
    public var kind: String {
        switch self {
        case .dictionary: "a dictionary"
        case .array: "an array"
        case .string: "a string"
        case .integer: "an integer"
        case .real: "a real number"
        case .boolean: "a Boolean"
        case .date: "a date"
        case .data: "data"
        }
    }
}
