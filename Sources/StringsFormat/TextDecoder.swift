/// Turns the bytes of a text `.strings` file into validated UTF-8, whatever encoding they came in.
///
/// CoreFoundation converts the whole file before parsing, so a single bad byte anywhere (even in a
/// comment) fails the file; we do the same, but say where.
enum TextDecoder {
    /// Calls `body` with the file's text as valid UTF-8 (BOM removed) and the encoding it was in.
    ///
    /// Errors thrown by `body` carry offsets into the UTF-8 text; they are mapped back to byte offsets
    /// in `input` here.
    static func withUTF8Text<R>(
        _ input: UnsafeBufferPointer<UInt8>,
        _ body: (UnsafeBufferPointer<UInt8>, StringsEncoding) throws(ParseError) -> R
    ) throws(ParseError) -> R {
        let encoding = detectEncoding(input)
        switch encoding {
        case .utf8, .utf8WithBOM:
            let bomLength = encoding == .utf8WithBOM ? 3 : 0
            let text = UnsafeBufferPointer(rebasing: input[bomLength...])
            if let (offset, reason) = UTF8Validation.firstError(in: text) {
                throw TextLocator.error(reason, at: offset, in: text, encoding: encoding, bomLength: bomLength)
            }
            do throws(ParseError) {
                return try body(text, encoding)
            } catch {
                throw TextLocator.remap(error, in: text, encoding: encoding, bomLength: bomLength)
            }
        case .utf16LittleEndianWithBOM, .utf16BigEndianWithBOM, .utf16LittleEndian, .utf16BigEndian:
            let bomLength = (encoding == .utf16LittleEndianWithBOM || encoding == .utf16BigEndianWithBOM) ? 2 : 0
            let units = UnsafeBufferPointer(rebasing: input[bomLength...])
            let bigEndian = encoding == .utf16BigEndianWithBOM || encoding == .utf16BigEndian
            let utf8 = try transcodeUTF16(units, bigEndian: bigEndian, encoding: encoding, bomLength: bomLength)
            return try utf8.withUnsafeBufferPointer { (text) throws(ParseError) -> R in
                do throws(ParseError) {
                    return try body(text, encoding)
                } catch {
                    throw TextLocator.remap(error, in: text, encoding: encoding, bomLength: bomLength)
                }
            }
        case .binaryPropertyList:
            preconditionFailure("binary property lists are not text")
        }
    }

    /// Decides the encoding from the byte order mark, or from zero bytes where there is none.
    ///
    /// Without a BOM, text whose first or second byte is zero is UTF-16 (CoreFoundation's test); the
    /// byte order is where the zeros fall in the first 256 bytes: ASCII in UTF-16BE has its zero first.
    static func detectEncoding(_ input: UnsafeBufferPointer<UInt8>) -> StringsEncoding {
        if input.count >= 3, input[0] == 0xEF, input[1] == 0xBB, input[2] == 0xBF { return .utf8WithBOM }
        if input.count >= 2, input[0] == 0xFF, input[1] == 0xFE { return .utf16LittleEndianWithBOM }
        if input.count >= 2, input[0] == 0xFE, input[1] == 0xFF { return .utf16BigEndianWithBOM }
        guard input.count >= 2, input[0] == 0 || input[1] == 0 else { return .utf8 }
        var zerosAtEven = 0
        var zerosAtOdd = 0
        for index in 0..<min(input.count, 256) where input[index] == 0 {
            if index % 2 == 0 { zerosAtEven += 1 } else { zerosAtOdd += 1 }
        }
        return zerosAtEven > zerosAtOdd ? .utf16BigEndian : .utf16LittleEndian
    }

    /// Transcodes UTF-16 to UTF-8, rejecting lone surrogates, NUL characters and a dangling odd byte.
    private static func transcodeUTF16(
        _ units: UnsafeBufferPointer<UInt8>, bigEndian: Bool, encoding: StringsEncoding, bomLength: Int
    ) throws(ParseError) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(units.count + units.count / 2)
        let unitCount = units.count / 2
        var index = 0
        func unit(at index: Int) -> UInt32 {
            let first = UInt32(units[2 * index])
            let second = UInt32(units[2 * index + 1])
            return bigEndian ? first << 8 | second : second << 8 | first
        }
        func fail(_ reason: String) -> ParseError {
            output.withUnsafeBufferPointer { text in
                TextLocator.error(reason, at: text.count, in: text, encoding: encoding, bomLength: bomLength)
            }
        }
        while index < unitCount {
            var scalar = unit(at: index)
            index += 1
            if scalar >= 0xD800, scalar <= 0xDBFF {
                guard index < unitCount else { throw fail("invalid UTF-16: a high surrogate at the end of the file") }
                let low = unit(at: index)
                guard low >= 0xDC00, low <= 0xDFFF else {
                    throw fail("invalid UTF-16: high surrogate \(unicodeNotation(scalar)) not followed by a low one")
                }
                index += 1
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if scalar >= 0xDC00, scalar <= 0xDFFF {
                throw fail("invalid UTF-16: lone low surrogate \(unicodeNotation(scalar))")
            } else if scalar == 0 {
                throw fail("NUL character in text (is the file binary, or in another encoding?)")
            }
            UTF8Validation.append(scalar: scalar, to: &output)
        }
        if units.count % 2 != 0 {
            throw fail("invalid UTF-16: the file has an odd number of bytes")
        }
        return output
    }
}

/// `U+D83D`-style rendering of a code unit or scalar value, for messages.
func unicodeNotation(_ value: UInt32) -> String {
    let hex = String(value, radix: 16, uppercase: true)
    return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
}
