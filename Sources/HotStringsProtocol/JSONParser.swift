/// Why some bytes are not one JSON value, and where.
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

extension JSONValue {
    /// The deepest nesting of arrays and objects accepted, so a line of 60,000 `[` cannot exhaust the stack.
    package static let maximumDepth = 128

    /// Parses exactly one JSON value (RFC 8259), surrounded by optional whitespace.
    ///
    /// Strict: invalid UTF-8, raw control characters in strings, lone surrogate escapes, leading zeros,
    /// trailing commas and trailing content are errors. Object members keep their order (repeated names
    /// are kept too; the subscript reads the last one).
    ///
    /// - Throws: `JSONSyntaxError` naming the first problem.
    package init(parsing bytes: some Collection<UInt8>) throws(JSONSyntaxError) {
        let parsed: Result<JSONValue, JSONSyntaxError>? = bytes.withContiguousStorageIfAvailable { buffer in
            Result { () throws(JSONSyntaxError) -> JSONValue in try JSONParser.parse(buffer) }
        }
        if let parsed {
            self = try parsed.get()
        } else {
            self = try Array(bytes).withUnsafeBufferPointer { buffer throws(JSONSyntaxError) in
                try JSONParser.parse(buffer)
            }
        }
    }
}

/// A recursive-descent parser over a contiguous buffer.
struct JSONParser {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0
    var depth = 0

    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(JSONSyntaxError) -> JSONValue {
        var parser = JSONParser(bytes: bytes)
        parser.skipWhitespace()
        let value = try parser.parseValue()
        parser.skipWhitespace()
        guard parser.index == bytes.count else { throw parser.error("unexpected content after the value") }
        return value
    }

    func error(_ reason: String) -> JSONSyntaxError {
        JSONSyntaxError(reason, offset: index)
    }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    mutating func parseValue() throws(JSONSyntaxError) -> JSONValue {
        guard index < bytes.count else { throw error("unexpected end of input") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw error("unexpected character")
        }
    }

    mutating func expectLiteral(_ literal: StaticString) throws(JSONSyntaxError) {
        let length = literal.utf8CodeUnitCount
        guard bytes.count - index >= length else { throw error("invalid literal") }
        for offset in 0..<length where bytes[index + offset] != literal.utf8Start[offset] {
            throw error("invalid literal")
        }
        index += length
    }

    mutating func enterContainer() throws(JSONSyntaxError) {
        depth += 1
        guard depth <= JSONValue.maximumDepth else { throw error("nesting deeper than \(JSONValue.maximumDepth)") }
        index += 1
        skipWhitespace()
    }

    mutating func parseObject() throws(JSONSyntaxError) -> JSONValue {
        try enterContainer()
        defer { depth -= 1 }
        var members: [(String, JSONValue)] = []
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a member name") }
            let key = try parseString()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':'") }
            index += 1
            skipWhitespace()
            members.append((key, try parseValue()))
            skipWhitespace()
            guard index < bytes.count else { throw error("unterminated object") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                skipWhitespace()
            } else if bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(members)
            } else {
                throw error("expected ',' or '}'")
            }
        }
    }

    mutating func parseArray() throws(JSONSyntaxError) -> JSONValue {
        try enterContainer()
        defer { depth -= 1 }
        var elements: [JSONValue] = []
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            elements.append(try parseValue())
            skipWhitespace()
            guard index < bytes.count else { throw error("unterminated array") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                skipWhitespace()
            } else if bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(elements)
            } else {
                throw error("expected ',' or ']'")
            }
        }
    }

    /// Parses a string starting at its opening quote.
    mutating func parseString() throws(JSONSyntaxError) -> String {
        index += 1
        let start = index
        // Fast path: no escapes, so the bytes between the quotes are the string.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == JSONWriter.quote {
                let raw = UnsafeBufferPointer(rebasing: bytes[start..<index])
                guard let string = String(validating: raw, as: UTF8.self) else {
                    throw JSONSyntaxError("invalid UTF-8 in string", offset: start)
                }
                index += 1
                return string
            }
            if byte == JSONWriter.backslash { break }
            if byte < 0x20 { throw error("control character in string") }
            index += 1
        }
        guard index < bytes.count else { throw error("unterminated string") }
        var unescaped = Array(UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            if byte == JSONWriter.quote {
                guard let string = String(validating: unescaped, as: UTF8.self) else {
                    throw JSONSyntaxError("invalid UTF-8 in string", offset: start)
                }
                index += 1
                return string
            }
            if byte < 0x20 { throw error("control character in string") }
            if byte != JSONWriter.backslash {
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

    /// Reads the four hex digits after `\u` (and a low surrogate's escape after a high one).
    mutating func appendUnicodeEscape(to out: inout [UInt8]) throws(JSONSyntaxError) {
        let unit = try readHex4()
        var scalarValue = UInt32(unit)
        if (0xD800..<0xDC00).contains(unit) {
            guard bytes.count - index >= 6, bytes[index] == JSONWriter.backslash, bytes[index + 1] == UInt8(ascii: "u")
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

    mutating func readHex4() throws(JSONSyntaxError) -> UInt16 {
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

    mutating func parseNumber() throws(JSONSyntaxError) -> JSONValue {
        let start = index
        let isNegative = bytes[index] == UInt8(ascii: "-")
        if isNegative { index += 1 }
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
        if isIntegral, let integer = Int64(text) { return .number(integer) }
        guard let double = Double(text) else { throw JSONSyntaxError("invalid number", offset: start) }
        return .double(double)
    }

    func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
