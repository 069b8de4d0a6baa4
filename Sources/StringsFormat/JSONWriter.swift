/// Appends compact JSON text to a byte buffer: the one serializer behind every line the server writes.
///
/// Strings are escaped as RFC 8259 requires (quote, backslash, U+0000–U+001F), plus U+2028 and U+2029,
/// which JavaScript before ES2019 and Python's `str.splitlines` treat as line breaks. Everything else,
/// including non-ASCII, is copied as UTF-8, so a line never contains a raw `\n` byte except its end.
package enum JSONWriter {
    static let quote = UInt8(ascii: "\"")
    static let backslash = UInt8(ascii: "\\")
    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Appends `string` as a quoted JSON string.
    ///
    /// - Complexity: O(n) in the UTF-8 length; runs without escapes are copied with one `memcpy`.
    @inline(__always)
    package static func appendQuoted(_ string: String, to out: inout [UInt8]) {
        out.append(quote)
        let written: Void? = string.utf8.withContiguousStorageIfAvailable { appendEscaped($0, to: &out) }
        if written == nil {
            var string = string
            string.withUTF8 { appendEscaped($0, to: &out) }
        }
        out.append(quote)
    }

    /// Appends the escaped contents of a valid UTF-8 buffer, without quotes.
    package static func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        let count = bytes.count
        var runStart = 0
        var index = 0
        let base = bytes.baseAddress
        while index < count {
            if let base, count - index >= 8 {
                // Eight bytes at a time until one may need an escape; the lowest flag is exact.
                let flags = escapeFlags(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
                if flags == 0 {
                    index += 8
                    continue
                }
                index += flags.trailingZeroBitCount >> 3
            }
            let byte = bytes[index]
            if byte >= 0x20 && byte != quote && byte != backslash && byte != 0xE2 {
                index += 1
                continue
            }
            var length = 1
            if byte == 0xE2 {
                // U+2028 and U+2029 are E2 80 A8 and E2 80 A9; any other E2 sequence is copied.
                guard index + 2 < count, bytes[index + 1] == 0x80, bytes[index + 2] & 0xFE == 0xA8 else {
                    index += 1
                    continue
                }
                length = 3
            }
            if runStart < index {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
            }
            switch byte {
            case quote: out.append(backslash); out.append(quote)
            case backslash: out.append(backslash); out.append(backslash)
            case 0x0A: out.append(backslash); out.append(UInt8(ascii: "n"))
            case 0x0D: out.append(backslash); out.append(UInt8(ascii: "r"))
            case 0x09: out.append(backslash); out.append(UInt8(ascii: "t"))
            case 0x08: out.append(backslash); out.append(UInt8(ascii: "b"))
            case 0x0C: out.append(backslash); out.append(UInt8(ascii: "f"))
            case 0xE2: appendUnicodeEscape(bytes[index + 2] == 0xA8 ? 0x2028 : 0x2029, to: &out)
            default: appendUnicodeEscape(UInt16(byte), to: &out)
            }
            index += length
            runStart = index
        }
        if runStart < count {
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<count]))
        }
    }

    /// The high bit set in each byte of `word` (little-endian) that is below 0x20, a quote, a backslash or
    /// 0xE2; bytes above the lowest flagged one may be flagged falsely, so only the lowest is to be trusted.
    @inline(__always)
    private static func escapeFlags(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        func zeroBytes(_ value: UInt64) -> UInt64 { (value &- ones) & ~value & highs }
        let control = (word &- ones &* 0x20) & ~word & highs
        return control | zeroBytes(word ^ (ones &* 0x22)) | zeroBytes(word ^ (ones &* 0x5C))
            | zeroBytes(word ^ (ones &* 0xE2))
    }

    private static func appendUnicodeEscape(_ unit: UInt16, to out: inout [UInt8]) {
        out.append(backslash)
        out.append(UInt8(ascii: "u"))
        out.append(hexDigits[Int(unit >> 12)])
        out.append(hexDigits[Int((unit >> 8) & 0xF)])
        out.append(hexDigits[Int((unit >> 4) & 0xF)])
        out.append(hexDigits[Int(unit & 0xF)])
    }

    /// Appends a decimal integer.
    package static func appendInteger(_ value: Int64, to out: inout [UInt8]) {
        if value < 0 {
            out.append(UInt8(ascii: "-"))
            appendInteger(value.magnitude, to: &out)
        } else {
            appendInteger(UInt64(value), to: &out)
        }
    }

    /// Appends a decimal unsigned integer.
    package static func appendInteger(_ value: UInt64, to out: inout [UInt8]) {
        if value < 10 {
            out.append(UInt8(ascii: "0") + UInt8(value))
            return
        }
        var digits: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)  // 32 bytes: room for 20 digits
        var count = 0
        var rest = value
        withUnsafeMutableBytes(of: &digits) { buffer in
            while rest > 0 {
                buffer[31 - count] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
                count += 1
            }
            out.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[(32 - count)...]))
        }
    }

    /// Appends a double in Swift's shortest round-tripping form, or `null` when it is not finite.
    package static func appendDouble(_ value: Double, to out: inout [UInt8]) {
        guard value.isFinite else {
            out.append(contentsOf: "null".utf8)
            return
        }
        // Swift's description is valid JSON for finite values: "1.0", "-0.0", "1e-05", "5e+20".
        out.append(contentsOf: value.description.utf8)
    }

    /// Appends a Boolean literal.
    package static func appendBool(_ value: Bool, to out: inout [UInt8]) {
        out.append(contentsOf: value ? "true".utf8 : "false".utf8)
    }

    /// Appends `"key":`.
    @inline(__always)
    package static func appendKey(_ key: String, to out: inout [UInt8]) {
        appendQuoted(key, to: &out)
        out.append(UInt8(ascii: ":"))
    }

    /// Appends an object of string members in order.
    package static func appendStringObject(_ entries: [(String, String)], to out: inout [UInt8]) {
        out.append(UInt8(ascii: "{"))
        var first = true
        for (key, value) in entries {
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            appendQuoted(key, to: &out)
            out.append(UInt8(ascii: ":"))
            appendQuoted(value, to: &out)
        }
        out.append(UInt8(ascii: "}"))
    }

    /// Appends an array of strings.
    package static func appendStringArray(_ strings: [String], to out: inout [UInt8]) {
        out.append(UInt8(ascii: "["))
        for (index, string) in strings.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            appendQuoted(string, to: &out)
        }
        out.append(UInt8(ascii: "]"))
    }

    /// Appends a string or `null`.
    package static func appendOptionalString(_ value: String?, to out: inout [UInt8]) {
        if let value { appendQuoted(value, to: &out) } else { out.append(contentsOf: "null".utf8) }
    }

    /// The bytes a string object will take at least, to reserve capacity once.
    package static func estimatedSize(of entries: [(String, String)]) -> Int {
        var size = 2
        for (key, value) in entries { size += key.utf8.count + value.utf8.count + 6 }
        return size
    }
}

extension JSONValue {
    /// The compact JSON text of this value (no trailing newline).
    package func serialized() -> [UInt8] {
        var out: [UInt8] = []
        write(to: &out)
        return out
    }

    /// Appends the compact JSON text of this value to `out`.
    package func write(to out: inout [UInt8]) {
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let value): JSONWriter.appendBool(value, to: &out)
        case .number(let value): JSONWriter.appendInteger(value, to: &out)
        case .double(let value): JSONWriter.appendDouble(value, to: &out)
        case .string(let value): JSONWriter.appendQuoted(value, to: &out)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                element.write(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                JSONWriter.appendKey(key, to: &out)
                value.write(to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }
}
