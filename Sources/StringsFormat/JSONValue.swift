/// A JSON value whose objects keep their members in order, so tables go on the wire in source order.
///
/// Integers that fit `Int64` are `.number`; every other JSON number is `.double`. Serialize with
/// `serialized()` (compact, one line, non-ASCII kept as UTF-8) and parse with `JSONValue(parsing:)`.
package indirect enum JSONValue: Sendable, Equatable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// An integer.
    case number(Int64)
    /// A number with a fraction or exponent, or an integer outside `Int64`; NaN and infinities are written as `null`.
    case double(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object, members in order; equality compares members in order.
    case object([(String, JSONValue)])

    /// Values are equal when they have the same case and contents; objects compare their members in order.
    package static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.number(let a), .number(let b)): a == b
        case (.double(let a), .double(let b)): a == b
        case (.string(let a), .string(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)):
            a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: false
        }
    }
}

extension JSONValue {
    /// The member named `key` of an object (the last one when a name repeats), or `nil`.
    package subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.last { $0.0 == key }?.1
    }

    /// The string, or `nil` for anything else.
    package var stringValue: String? {
        if case .string(let value) = self { value } else { nil }
    }

    /// The Boolean, or `nil` for anything else.
    package var boolValue: Bool? {
        if case .bool(let value) = self { value } else { nil }
    }

    /// The integer, or `nil` for anything else (a `.double` is never converted).
    package var int64Value: Int64? {
        if case .number(let value) = self { value } else { nil }
    }

    /// The elements of an array, or `nil` for anything else.
    package var arrayValue: [JSONValue]? {
        if case .array(let value) = self { value } else { nil }
    }

    /// The members of an object in order, or `nil` for anything else.
    package var objectMembers: [(String, JSONValue)]? {
        if case .object(let value) = self { value } else { nil }
    }

    /// Whether this is `null`.
    package var isNull: Bool {
        if case .null = self { true } else { false }
    }

    /// A string value, or `null` when `value` is `nil`.
    package static func string(orNull value: String?) -> JSONValue {
        value.map(JSONValue.string) ?? .null
    }

    /// An integer value from any integer type; traps when `value` does not fit `Int64` (epochs and seqs stay
    /// below 2^53, so every JSON reader gets them exactly).
    package static func integer(_ value: some BinaryInteger) -> JSONValue {
        .number(Int64(value))
    }

    /// An array of strings.
    package static func strings(_ values: [String]) -> JSONValue {
        .array(values.map(JSONValue.string))
    }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    /// `null`.
    package init(nilLiteral: ()) { self = .null }
    /// A Boolean.
    package init(booleanLiteral value: Bool) { self = .bool(value) }
    /// An integer.
    package init(integerLiteral value: Int64) { self = .number(value) }
    /// A double.
    package init(floatLiteral value: Double) { self = .double(value) }
    /// A string.
    package init(stringLiteral value: String) { self = .string(value) }
    /// An array.
    package init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// An object with the members in the order written.
    package init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(elements) }
}

extension JSONValue: CustomStringConvertible {
    /// The compact JSON text.
    package var description: String {
        String(decoding: serialized(), as: UTF8.self)
    }
}
