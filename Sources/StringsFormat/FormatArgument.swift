/// One argument of a format string: what `String(format:)` would receive as a `CVarArg`.
public enum FormatArgument: Sendable, Hashable {
    /// A signed integer (`%d %i %ld %lld`, and a plural variable's number).
    case int(Int64)
    /// An unsigned integer (`%u %lu %x %o`).
    case uint(UInt64)
    /// A floating-point number (`%f %e %g`); a plural variable reads it as ICU reads a double.
    case double(Double)
    /// A string or object description (`%@ %s`); a plural variable reads it as a decimal number as written.
    case string(String)

    /// The argument as a signed integer, as `printf` would reinterpret it; a string is read as a number.
    var integerValue: Int64 {
        switch self {
        case .int(let value): value
        case .uint(let value): Int64(truncatingIfNeeded: value)
        case .double(let value): value.isFinite && value.magnitude < 9.2e18 ? Int64(value) : 0
        case .string(let text):
            // A decimal number as written ("1.0", a plural variable's argument) prints its integer part.
            Int64(text) ?? Double(text).map { $0.isFinite && $0.magnitude < 9.2e18 ? Int64($0) : 0 } ?? 0
        }
    }

    /// The argument's plural operands.
    var pluralOperands: PluralOperands? {
        switch self {
        case .int(let value): PluralOperands(Int(truncatingIfNeeded: value))
        case .uint(let value): PluralOperands(value)
        case .double(let value): PluralOperands(value)
        case .string(let text): try? PluralOperands(parsing: text)
        }
    }
}

/// Why a format string and its arguments could not be formatted.
public struct FormatError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, naming the specifier or variable.
    public var reason: String
    /// Creates an error.
    public init(_ reason: String) { self.reason = reason }
    /// The reason.
    public var description: String { reason }
}
