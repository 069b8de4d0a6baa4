/// Why some bytes are not the JSON expected, and where.
package struct JSONSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, e.g. "unterminated string".
    package var reason: String
    /// The byte offset where the problem was found.
    package var offset: Int

    /// Creates an error.
    package init(_ reason: String, offset: Int) {
        self.reason = reason
        self.offset = offset
    }

    /// "reason at byte N".
    package var description: String { "\(reason) at byte \(offset)" }
}

/// A JSON number as written: an integer that fits `Int64`, or any other number as a `Double`.
package enum JSONNumber: Sendable, Hashable {
    case integer(Int64)
    case double(Double)
}

/// The one JSON reader of the project (RFC 8259, strict): a cursor over a contiguous buffer that reads one
/// token or container step at a time, so the protocol can build a `JSONValue` tree and the String Catalog
/// reader can decode straight into its model with the byte offset of every value.
///
/// Strict: invalid UTF-8, raw control characters in strings, lone surrogate escapes, leading zeros and
/// trailing commas are errors. Containers nest at most `maximumDepth` deep, so hostile input cannot exhaust
/// the stack; every method does work linear in the bytes it consumes.
package struct JSONScanner {
    /// The deepest nesting of arrays and objects accepted, so a line of 60,000 `[` cannot exhaust the stack.
    package static let maximumDepth = 128

    static let quote = UInt8(ascii: "\"")
    static let backslash = UInt8(ascii: "\\")

    /// The input.
    package let bytes: UnsafeBufferPointer<UInt8>
    /// The offset of the next byte to read.
    package private(set) var index = 0
    /// How many containers are open.
    package private(set) var depth = 0

    /// Whether the caller has checked that all of `bytes` is valid UTF-8, so strings need no check of their own.
    let isValidUTF8: Bool

    /// Starts reading at the beginning of `bytes`; `isValidUTF8` says the caller has validated them all
    /// (one pass over the file is cheaper than one check per string).
    package init(_ bytes: UnsafeBufferPointer<UInt8>, isValidUTF8: Bool = false) {
        self.bytes = bytes
        self.isValidUTF8 = isValidUTF8
    }

    /// An error at the current offset.
    package func error(_ reason: String) -> JSONSyntaxError {
        JSONSyntaxError(reason, offset: index)
    }

    /// The byte at the cursor after whitespace, or `nil` at the end.
    package mutating func peek() -> UInt8? {
        skipWhitespace()
        return index < bytes.count ? bytes[index] : nil
    }

    /// Moves the cursor `count` bytes on, past something the caller has checked (a byte order mark).
    package mutating func skip(_ count: Int) {
        index = min(index + count, bytes.count)
    }

    /// Checks that only whitespace is left.
    package mutating func finish() throws(JSONSyntaxError) {
        skipWhitespace()
        guard index == bytes.count else { throw error("unexpected content after the value") }
    }

    mutating func skipWhitespace() {
        let count = bytes.count
        while index < count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D:
                index += 1
                // Pretty-printed JSON (a String Catalog) is mostly indentation: skip it eight spaces at a time.
                while index + 8 <= count,
                      UnsafeRawPointer(bytes.baseAddress! + index).loadUnaligned(as: UInt64.self) == Self.eightSpaces {
                    index += 8
                }
            default: return
            }
        }
    }

    private static let eightSpaces: UInt64 = 0x2020_2020_2020_2020

    // MARK: Containers

    /// Reads the `{` that opens an object.
    package mutating func beginObject() throws(JSONSyntaxError) {
        guard peek() == UInt8(ascii: "{") else { throw error("expected an object") }
        try enterContainer()
    }

    /// Reads the `[` that opens an array.
    package mutating func beginArray() throws(JSONSyntaxError) {
        guard peek() == UInt8(ascii: "[") else { throw error("expected an array") }
        try enterContainer()
    }

    /// Reads up to the next member's value: returns its name (with the cursor before the value) and the name's
    /// offset, or `nil` after the closing `}`. `isFirst` is the caller's flag for this object, set false here.
    package mutating func nextMember(isFirst: inout Bool) throws(JSONSyntaxError) -> (name: String, offset: Int)? {
        guard try nextMemberStart(isFirst: &isFirst) else { return nil }
        let offset = index
        return (try readMemberName(), offset)
    }

    /// Whether another member follows, with the cursor then on its name's opening quote (so a caller can look at
    /// the member's bytes before reading it); `false` after the closing `}`.
    package mutating func nextMemberStart(isFirst: inout Bool) throws(JSONSyntaxError) -> Bool {
        guard try continueContainer(closing: UInt8(ascii: "}"), isFirst: &isFirst, what: "object") else {
            return false
        }
        guard index < bytes.count, bytes[index] == Self.quote else { throw error("expected a member name") }
        return true
    }

    /// Reads a member's name and the `:` after it, leaving the cursor before the value.
    package mutating func readMemberName() throws(JSONSyntaxError) -> String {
        let name = try readString()
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':'") }
        index += 1
        return name
    }

    /// Whether the bytes at the cursor begin with `expected`.
    /// - Complexity: O(n) in `expected.count`, 32 bytes at a time (a catalog compares most of its bytes so).
    package func hasPrefix(_ expected: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = expected.count
        guard bytes.count - index >= count else { return false }
        guard count >= 32, let base = bytes.baseAddress, let other = expected.baseAddress else {
            return ByteKeyIndex.bytesEqual(bytes, index, expected, 0, count: count)
        }
        let left = UnsafeRawPointer(base + index)
        let right = UnsafeRawPointer(other)
        func differs(_ offset: Int) -> UInt64 {
            var difference: UInt64 = 0
            for word in 0..<4 {
                difference |= left.loadUnaligned(fromByteOffset: offset + 8 * word, as: UInt64.self)
                    ^ right.loadUnaligned(fromByteOffset: offset + 8 * word, as: UInt64.self)
            }
            return difference
        }
        var offset = 0
        while offset + 32 <= count {
            guard differs(offset) == 0 else { return false }
            offset += 32
        }
        return differs(count - 32) == 0  // the last 32 bytes, overlapping what was compared
    }

    /// Moves the cursor to `offset`, at or after the start of a value the caller has looked at (a value it read
    /// before, or the same bytes as a value read from an earlier version of the input); nesting is unchanged.
    package mutating func move(to offset: Int) {
        precondition(offset >= 0 && offset <= bytes.count, "offset outside the input")
        index = offset
    }

    /// Whether another element follows (the cursor is then before it); `false` after the closing `]`.
    package mutating func nextElement(isFirst: inout Bool) throws(JSONSyntaxError) -> Bool {
        try continueContainer(closing: UInt8(ascii: "]"), isFirst: &isFirst, what: "array")
    }

    private mutating func enterContainer() throws(JSONSyntaxError) {
        depth += 1
        guard depth <= Self.maximumDepth else { throw error("nesting deeper than \(Self.maximumDepth)") }
        index += 1
    }

    private mutating func continueContainer(closing: UInt8, isFirst: inout Bool, what: String)
        throws(JSONSyntaxError) -> Bool
    {
        skipWhitespace()
        if isFirst {
            isFirst = false
            guard index < bytes.count, bytes[index] == closing else { return true }  // the value reports an end
        } else {
            guard index < bytes.count else { throw error("unterminated \(what)") }
            if bytes[index] != closing {
                guard bytes[index] == UInt8(ascii: ",") else {
                    throw error("expected ',' or '\(Character(Unicode.Scalar(closing)))'")
                }
                index += 1
                skipWhitespace()
                return true  // `[1,]` and `{"a":1,}` fail reading the element or name that must follow
            }
        }
        index += 1
        depth -= 1
        return false
    }

    /// Skips one value of any kind, checking it as strictly as reading it would.
    package mutating func skipValue() throws(JSONSyntaxError) {
        switch peek() {
        case UInt8(ascii: "{"):
            try beginObject()
            var isFirst = true
            while try nextMember(isFirst: &isFirst) != nil { try skipValue() }
        case UInt8(ascii: "["):
            try beginArray()
            var isFirst = true
            while try nextElement(isFirst: &isFirst) { try skipValue() }
        case Self.quote: _ = try readString()
        case UInt8(ascii: "t"), UInt8(ascii: "f"): _ = try readBool()
        case UInt8(ascii: "n"): try readNull()
        case nil: throw error("unexpected end of input")
        default: _ = try readNumber()
        }
    }

    // MARK: Scalars

    /// Reads `true` or `false`.
    package mutating func readBool() throws(JSONSyntaxError) -> Bool {
        switch peek() {
        case UInt8(ascii: "t"): try expectLiteral("true"); return true
        case UInt8(ascii: "f"): try expectLiteral("false"); return false
        default: throw error("expected true or false")
        }
    }

    /// Reads `null`.
    package mutating func readNull() throws(JSONSyntaxError) {
        guard peek() == UInt8(ascii: "n") else { throw error("expected null") }
        try expectLiteral("null")
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONSyntaxError) {
        let length = literal.utf8CodeUnitCount
        guard bytes.count - index >= length else { throw error("invalid literal") }
        for offset in 0..<length where bytes[index + offset] != literal.utf8Start[offset] {
            throw error("invalid literal")
        }
        index += length
    }

    /// Reads a string, escapes resolved.
    package mutating func readString() throws(JSONSyntaxError) -> String {
        guard peek() == Self.quote else { throw error("expected a string") }
        index += 1
        let start = index
        // Fast path: no escapes, so the bytes between the quotes are the string.
        var allBits: UInt8 = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == Self.quote {
                let raw = UnsafeBufferPointer(rebasing: bytes[start..<index])
                index += 1
                return try Self.string(raw, isASCII: allBits < 0x80, isValid: isValidUTF8, offset: start)
            }
            if byte == Self.backslash { break }
            if byte < 0x20 { throw error("control character in string") }
            allBits |= byte
            index += 1
        }
        guard index < bytes.count else { throw error("unterminated string") }
        var unescaped = Array(UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            if byte == Self.quote {
                // The escapes make valid UTF-8 (a lone surrogate is an error) and split the text only at ASCII, so
                // the string is valid when the bytes as written are (they hold no NUL: control characters are
                // errors, and `\u0000` is an escape).
                _ = try Self.string(UnsafeBufferPointer(rebasing: bytes[start..<index]), isASCII: false,
                                    isValid: isValidUTF8, offset: start, making: false)
                index += 1
                return String(decoding: unescaped, as: UTF8.self)
            }
            if byte < 0x20 { throw error("control character in string") }
            if byte != Self.backslash {
                unescaped.append(byte)
                index += 1
                continue
            }
            index += 1
            guard index < bytes.count else { break }
            let escaped = bytes[index]
            index += 1
            switch escaped {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): unescaped.append(escaped)
            case UInt8(ascii: "n"): unescaped.append(0x0A)
            case UInt8(ascii: "r"): unescaped.append(0x0D)
            case UInt8(ascii: "t"): unescaped.append(0x09)
            case UInt8(ascii: "b"): unescaped.append(0x08)
            case UInt8(ascii: "f"): unescaped.append(0x0C)
            case UInt8(ascii: "u"): try appendUnicodeEscape(to: &unescaped)
            default:
                index -= 1
                throw error("invalid escape")
            }
        }
        throw error("unterminated string")
    }

    /// The string of some UTF-8 `bytes`, checked unless they are ASCII or known valid.
    ///
    /// Not `String(validating:as:)`: it is generic and not specialized, and looking up its metadata on every call
    /// cost a quarter of reading a String Catalog.
    /// `making: false` only checks.
    private static func string(_ bytes: UnsafeBufferPointer<UInt8>, isASCII: Bool, isValid: Bool, offset: Int,
                               making: Bool = true) throws(JSONSyntaxError) -> String
    {
        guard isASCII || isValid || UTF8Validation.firstError(in: bytes) == nil else {
            throw JSONSyntaxError("invalid UTF-8 in string", offset: offset)
        }
        return making ? String(decoding: bytes, as: UTF8.self) : ""
    }

    /// Reads the four hex digits after `\u` (and a low surrogate's escape after a high one).
    private mutating func appendUnicodeEscape(to out: inout [UInt8]) throws(JSONSyntaxError) {
        let unit = try readHex4()
        var scalarValue = UInt32(unit)
        if (0xD800..<0xDC00).contains(unit) {
            guard bytes.count - index >= 6, bytes[index] == Self.backslash, bytes[index + 1] == UInt8(ascii: "u")
            else { throw error("lone surrogate escape") }
            index += 2
            let low = try readHex4()
            guard (0xDC00..<0xE000).contains(low) else { throw error("lone surrogate escape") }
            scalarValue = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
        } else if (0xDC00..<0xE000).contains(unit) {
            throw error("lone surrogate escape")
        }
        guard let scalar = Unicode.Scalar(scalarValue) else { throw error("invalid escape") }
        out.append(contentsOf: UTF8.encode(scalar)!)
    }

    private mutating func readHex4() throws(JSONSyntaxError) -> UInt16 {
        guard bytes.count - index >= 4 else { throw error("invalid \\u escape") }
        var value: UInt16 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error("invalid \\u escape")
            }
            value = value << 4 | UInt16(digit)
            index += 1
        }
        return value
    }

    /// Reads a number.
    package mutating func readNumber() throws(JSONSyntaxError) -> JSONNumber {
        guard let first = peek(), first == UInt8(ascii: "-") || isDigit(first) else {
            throw error(index < bytes.count ? "unexpected character" : "unexpected end of input")
        }
        let start = index
        if first == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw error("invalid number") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) { throw error("leading zero in number") }
        } else {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        var isIntegral = true
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isIntegral = false
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("invalid number") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            isIntegral = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("invalid number") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        if isIntegral, let integer = Int64(text) { return .integer(integer) }
        guard let double = Double(text) else { throw JSONSyntaxError("invalid number", offset: start) }
        return .double(double)
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
