import Foundation
import StringsFormat

extension FormatArgument {
    /// The argument `String(format:)` would see for `value`: integers as integers, floating-point numbers as
    /// doubles, strings (and anything else, by its description) as strings.
    init(_ value: any CVarArg) {
        switch value {
        case let value as Int: self = .int(Int64(value))
        case let value as Int64: self = .int(value)
        case let value as Int32: self = .int(Int64(value))
        case let value as Int16: self = .int(Int64(value))
        case let value as Int8: self = .int(Int64(value))
        case let value as UInt: self = .uint(UInt64(value))
        case let value as UInt64: self = .uint(value)
        case let value as UInt32: self = .uint(UInt64(value))
        case let value as UInt16: self = .uint(UInt64(value))
        case let value as UInt8: self = .uint(UInt64(value))
        case let value as Double: self = .double(value)
        case let value as Float: self = .double(Double(value))
        case let value as String: self = .string(value)
        case let value as NSString: self = .string(value as String)
        default: self = .string(String(describing: value))
        }
    }
}
