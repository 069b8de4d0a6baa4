// What "the same value" means between our JSONValue and what Foundation's JSONSerialization returns.
//
// - null is NSNull; true and false are Foundation's Boolean NSNumbers (objCType "c"), never numbers.
// - Numbers: an integer of ours (`.number`, it fit Int64) must equal Foundation's integer exactly; any other
//   pair (our `.double` for a fraction, an exponent or an integer beyond Int64; Foundation's double, UInt64
//   or NSDecimalNumber) is compared as doubles: equal, or both infinite with the same sign, or within a
//   relative 1e-12 (NSDecimalNumber keeps 38 digits and converts to Double on its own), or both below 1e-300
//   in magnitude (underflow to zero or a subnormal, decided differently).
// - Strings (and member names) are compared as Unicode scalars, not by canonical equivalence.
// - Objects: our members keep their order and repeated names; Foundation's dictionary keeps one member per
//   name, the last value, and merges names that are canonically equivalent (Swift String keys). So our
//   members are grouped the same way (Swift String equality), each group's last value must equal Foundation's
//   value, the number of groups must equal Foundation's count, and Foundation's key must be spelled, scalar
//   for scalar, like one of the names in its group (which spelling a dictionary keeps is not ours to fix).
// - Between two values of ours (the round trip through `serialized()`), the same rules apply with both sides
//   converted to Foundation's shapes, plus member order and repeated names must be kept exactly.
import Foundation

enum JSONEquality {
    /// Where `ours` and Foundation's `theirs` differ, or nil when they are the same value.
    static func difference(_ ours: JSONValue, _ theirs: Any, at path: String = "$") -> String? {
        switch ours {
        case .null:
            return theirs is NSNull ? nil : "\(path): ours null, Foundation \(describe(theirs))"
        case .bool(let bool):
            guard let number = theirs as? NSNumber, isBoolean(number), number.boolValue == bool else {
                return "\(path): ours \(bool), Foundation \(describe(theirs))"
            }
            return nil
        case .number(let integer):
            guard let number = theirs as? NSNumber, !isBoolean(number) else {
                return "\(path): ours \(integer), Foundation \(describe(theirs))"
            }
            if let exact = exactInteger(number) {
                return exact == integer ? nil : "\(path): ours \(integer), Foundation integer \(exact)"
            }
            return doublesMatch(Double(integer), double(number)) ? nil
                : "\(path): ours \(integer), Foundation \(describe(theirs))"
        case .double(let value):
            guard let number = theirs as? NSNumber, !isBoolean(number) else {
                return "\(path): ours \(value), Foundation \(describe(theirs))"
            }
            return doublesMatch(value, double(number)) ? nil : "\(path): ours \(value), Foundation \(describe(theirs))"
        case .string(let string):
            guard let other = theirs as? String else { return "\(path): ours a string, Foundation \(describe(theirs))" }
            return sameScalars(string, other) ? nil : "\(path): ours \(scalars(string)), Foundation \(scalars(other))"
        case .array(let elements):
            guard let others = theirs as? [Any] else { return "\(path): ours an array, Foundation \(describe(theirs))" }
            guard elements.count == others.count else {
                return "\(path): ours \(elements.count) elements, Foundation \(others.count)"
            }
            for (index, (element, other)) in zip(elements, others).enumerated() {
                if let difference = difference(element, other, at: "\(path)[\(index)]") { return difference }
            }
            return nil
        case .object(let members):
            guard let others = theirs as? [String: Any] else {
                return "\(path): ours an object, Foundation \(describe(theirs))"
            }
            var groups: [String: (spellings: [String], value: JSONValue)] = [:]
            for (name, value) in members {
                groups[name, default: ([], value)].spellings.append(name)
                groups[name]!.value = value
            }
            guard groups.count == others.count else {
                return "\(path): ours \(groups.count) distinct names, Foundation \(others.count)"
            }
            for (name, other) in others {
                guard let group = groups[name] else { return "\(path): name \(scalars(name)) only in Foundation" }
                guard group.spellings.contains(where: { sameScalars($0, name) }) else {
                    return "\(path): Foundation spells a name \(scalars(name)), ours \(group.spellings.map(scalars))"
                }
                if let difference = difference(group.value, other, at: "\(path).\(name)") { return difference }
            }
            return nil
        }
    }

    /// Where two values of ours differ, exactly: same cases (a `.number` is never a `.double`), members in
    /// order, strings scalar for scalar, doubles bit for bit except that 0.0 equals -0.0 and NaN equals NaN.
    static func difference(_ ours: JSONValue, _ again: JSONValue, at path: String = "$") -> String? {
        switch (ours, again) {
        case (.null, .null): return nil
        case (.bool(let a), .bool(let b)) where a == b: return nil
        case (.number(let a), .number(let b)) where a == b: return nil
        case (.double(let a), .double(let b)) where a == b || (a.isNaN && b.isNaN): return nil
        case (.string(let a), .string(let b)) where sameScalars(a, b): return nil
        case (.array(let a), .array(let b)) where a.count == b.count:
            for (index, (x, y)) in zip(a, b).enumerated() {
                if let difference = difference(x, y, at: "\(path)[\(index)]") { return difference }
            }
            return nil
        case (.object(let a), .object(let b)) where a.count == b.count:
            for (index, (x, y)) in zip(a, b).enumerated() {
                guard sameScalars(x.0, y.0) else {
                    return "\(path): member \(index) named \(scalars(x.0)), then \(scalars(y.0))"
                }
                if let difference = difference(x.1, y.1, at: "\(path).\(x.0)") { return difference }
            }
            return nil
        default:
            return "\(path): \(String(describing: ours).prefix(200)) became \(String(describing: again).prefix(200))"
        }
    }

    /// The value as `serialized()` promises to write it: non-finite doubles become `null`.
    static func writtenForm(of value: JSONValue) -> JSONValue {
        switch value {
        case .double(let double) where !double.isFinite: .null
        case .array(let elements): .array(elements.map(writtenForm))
        case .object(let members): .object(members.map { ($0.0, writtenForm(of: $0.1)) })
        default: value
        }
    }

    /// Foundation's Boolean NSNumbers report objCType "c"; its integers from JSON never do.
    static func isBoolean(_ number: NSNumber) -> Bool {
        !(number is NSDecimalNumber) && String(cString: number.objCType) == "c"
    }

    /// The exact Int64 an integer NSNumber holds, or nil for doubles, UInt64 beyond Int64 and non-integral decimals.
    static func exactInteger(_ number: NSNumber) -> Int64? {
        if let decimal = number as? NSDecimalNumber { return Int64(decimal.stringValue) }
        switch String(cString: number.objCType) {
        case "c", "s", "i", "l", "q": return number.int64Value
        case "C", "S", "I", "L", "Q": return Int64(exactly: number.uint64Value)
        default: return nil
        }
    }

    /// The number as a double: a decimal through its exact text (correctly rounded), others as they convert.
    static func double(_ number: NSNumber) -> Double {
        if let decimal = number as? NSDecimalNumber { return Double(decimal.stringValue) ?? .nan }
        switch String(cString: number.objCType) {
        case "C", "S", "I", "L", "Q": return Double(number.uint64Value)
        case "f", "d": return number.doubleValue
        default: return Double(number.int64Value)
        }
    }

    static func doublesMatch(_ a: Double, _ b: Double) -> Bool {
        if a == b { return true }
        if a.isNaN || b.isNaN || a.isInfinite || b.isInfinite { return false }
        if abs(a) < 1e-300 && abs(b) < 1e-300 { return true }
        return abs(a - b) <= 1e-12 * max(abs(a), abs(b))
    }

    static func sameScalars(_ a: String, _ b: String) -> Bool {
        a.unicodeScalars.elementsEqual(b.unicodeScalars)
    }

    static func scalars(_ text: String) -> String {
        text.debugDescription.prefix(80) + " [" + text.unicodeScalars.prefix(16).map { String($0.value, radix: 16) }
            .joined(separator: " ") + "]"
    }

    static func describe(_ value: Any) -> String {
        if let number = value as? NSNumber {
            let kind = number is NSDecimalNumber ? "decimal" : String(cString: number.objCType)
            return "\(type(of: value)) \(number) (\(kind))"
        }
        return "\(type(of: value)) \(String(describing: value).prefix(200))"
    }

    /// A short name for the shape of a value, for the explain output.
    static func kind(of value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "bool"
        case .number: "integer"
        case .double(let double): double.isFinite ? "double" : "non-finite double"
        case .string: "string"
        case .array(let elements): "array of \(elements.count)"
        case .object(let members): "object of \(members.count)"
        }
    }
}
