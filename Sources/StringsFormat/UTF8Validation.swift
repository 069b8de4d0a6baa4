/// UTF-8 validation and encoding, with an eight-bytes-at-a-time path for ASCII.
enum UTF8Validation {
    /// The offset and reason of the first byte that is not valid UTF-8 text, or `nil`.
    ///
    /// NUL bytes count as invalid: no text `.strings` file has one, and a NUL is the usual sign of
    /// UTF-16 read as UTF-8 or of a binary file.
    ///
    /// - Complexity: O(n), one pass.
    static func firstError(in text: UnsafeBufferPointer<UInt8>) -> (offset: Int, reason: String)? {
        guard let base = text.baseAddress else { return nil }
        let count = text.count
        var index = 0
        var checkedUpTo = 0
        while index < count {
            // Sixteen bytes of ASCII without NUL are skipped at once; otherwise the scalar loop below
            // runs to the end of that block before the fast path is tried again.
            if index >= checkedUpTo, index + 16 <= count {
                let first = WordScan.word(base, at: index)
                let second = WordScan.word(base, at: index + 8)
                let highBits: UInt64 = 0x8080_8080_8080_8080
                if (first | second) & highBits == 0, !WordScan.contains(first, 0), !WordScan.contains(second, 0) {
                    index += 16
                    continue
                }
                checkedUpTo = index + 16
            }
            let lead = base[index]
            if lead < 0x80 {
                if lead == 0 { return (index, "NUL byte in text (is the file binary, or UTF-16 without a BOM?)") }
                index += 1
            } else if lead < 0xE0 {
                guard lead >= 0xC2, index + 1 < count, base[index + 1] & 0xC0 == 0x80 else {
                    return (index, describeInvalidSequence(in: text, at: index))
                }
                index += 2
            } else if lead < 0xF0 {
                guard index + 2 < count else { return (index, describeInvalidSequence(in: text, at: index)) }
                let second = base[index + 1]
                guard second & 0xC0 == 0x80, base[index + 2] & 0xC0 == 0x80,
                      lead != 0xE0 || second >= 0xA0, lead != 0xED || second <= 0x9F else {
                    return (index, describeInvalidSequence(in: text, at: index))
                }
                index += 3
            } else {
                guard lead <= 0xF4, index + 3 < count else {
                    return (index, describeInvalidSequence(in: text, at: index))
                }
                let second = base[index + 1]
                guard second & 0xC0 == 0x80, base[index + 2] & 0xC0 == 0x80, base[index + 3] & 0xC0 == 0x80,
                      lead != 0xF0 || second >= 0x90, lead != 0xF4 || second <= 0x8F else {
                    return (index, describeInvalidSequence(in: text, at: index))
                }
                index += 4
            }
        }
        return nil
    }

    /// Says what is wrong with the sequence at `index`, which the fast check rejected.
    private static func describeInvalidSequence(in text: UnsafeBufferPointer<UInt8>, at index: Int) -> String {
        let lead = text[index]
        let hex = "0x" + String(lead, radix: 16, uppercase: true)
        let length: Int
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default: return "invalid UTF-8: byte \(hex) cannot start a character"
        }
        if index + length > text.count { return "invalid UTF-8: the file ends inside a character" }
        return "invalid UTF-8: malformed sequence starting with \(hex)"
    }

    /// Appends the UTF-8 encoding of a scalar value (which must not be a surrogate).
    @inline(__always)
    static func append(scalar: UInt32, to output: inout [UInt8]) {
        switch scalar {
        case 0..<0x80:
            output.append(UInt8(scalar))
        case 0x80..<0x800:
            output.append(UInt8(0xC0 | scalar >> 6))
            output.append(UInt8(0x80 | scalar & 0x3F))
        case 0x800..<0x10000:
            output.append(UInt8(0xE0 | scalar >> 12))
            output.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            output.append(UInt8(0x80 | scalar & 0x3F))
        default:
            output.append(UInt8(0xF0 | scalar >> 18))
            output.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            output.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            output.append(UInt8(0x80 | scalar & 0x3F))
        }
    }

    /// The number of bytes of the UTF-8 sequence that `lead` starts.
    @inline(__always)
    static func sequenceLength(lead: UInt8) -> Int {
        switch lead {
        case 0..<0xC0: 1
        case 0xC0..<0xE0: 2
        case 0xE0..<0xF0: 3
        default: 4
        }
    }
}

/// Eight-bytes-at-a-time byte search (SWAR): the scanner's fast path over long runs of text.
enum WordScan {
    /// The number of bytes in a scanned word.
    static let width = 8

    /// Loads eight bytes at `offset`, unaligned.
    @inline(__always)
    static func word(_ base: UnsafePointer<UInt8>, at offset: Int) -> UInt64 {
        UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self)
    }

    /// Whether any byte of `word` is below `limit` (at most 0x80): a line break or control character.
    @inline(__always)
    static func containsByte(_ word: UInt64, lessThan limit: UInt8) -> Bool {
        (word &- 0x0101_0101_0101_0101 &* UInt64(limit)) & ~word & 0x8080_8080_8080_8080 != 0
    }

    /// Whether any byte of `word` equals `byte`.
    @inline(__always)
    static func contains(_ word: UInt64, _ byte: UInt8) -> Bool {
        let spread = word ^ (0x0101_0101_0101_0101 &* UInt64(byte))
        return (spread &- 0x0101_0101_0101_0101) & ~spread & 0x8080_8080_8080_8080 != 0
    }
}

/// Finds lines and columns in UTF-8 text and maps text offsets back to the original bytes.
enum TextLocator {
    /// The 1-based line and column (in Unicode scalars) of `offset`; lines end at LF, CR or CR LF.
    static func location(of offset: Int, in text: UnsafeBufferPointer<UInt8>) -> SourceLocation {
        var line = 1
        var lineStart = 0
        var index = 0
        let end = min(offset, text.count)
        while index < end {
            let byte = text[index]
            if byte == 0x0A || (byte == 0x0D && !(index + 1 < text.count && text[index + 1] == 0x0A)) {
                line += 1
                lineStart = index + 1
            }
            index += 1
        }
        return SourceLocation(line: line, column: scalarCount(in: text, from: lineStart, to: end) + 1)
    }

    /// The number of scalars that start in `text[start..<end]`.
    static func scalarCount(in text: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Int {
        var count = 0
        for index in start..<end where text[index] & 0xC0 != 0x80 { count += 1 }
        return count
    }

    /// A `ParseError` for `offset` in the UTF-8 text, with the byte offset in the original input.
    static func error(
        _ reason: String, at offset: Int, in text: UnsafeBufferPointer<UInt8>, encoding: StringsEncoding, bomLength: Int
    ) -> ParseError {
        let location = location(of: offset, in: text)
        return ParseError(
            reason, line: location.line, column: location.column,
            byteOffset: originalOffset(of: offset, in: text, encoding: encoding, bomLength: bomLength)
        )
    }

    /// Rewrites an error thrown with a UTF-8 text offset so it names the original byte offset.
    static func remap(
        _ error: ParseError, in text: UnsafeBufferPointer<UInt8>, encoding: StringsEncoding, bomLength: Int
    ) -> ParseError {
        var error = error
        error.byteOffset = originalOffset(of: error.byteOffset, in: text, encoding: encoding, bomLength: bomLength)
        return error
    }

    private static func originalOffset(
        of offset: Int, in text: UnsafeBufferPointer<UInt8>, encoding: StringsEncoding, bomLength: Int
    ) -> Int {
        switch encoding {
        case .utf8, .utf8WithBOM, .binaryPropertyList:
            return bomLength + offset
        case .utf16BigEndian, .utf16LittleEndian, .utf16BigEndianWithBOM, .utf16LittleEndianWithBOM:
            var units = 0
            for index in 0..<min(offset, text.count) where text[index] & 0xC0 != 0x80 {
                units += text[index] >= 0xF0 ? 2 : 1
            }
            return bomLength + 2 * units
        }
    }
}
