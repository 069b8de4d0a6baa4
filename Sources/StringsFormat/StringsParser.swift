/// The `.strings` grammar over validated UTF-8 text, following CoreFoundation's strings-file mode.
///
/// One pass, no backtracking beyond a few bytes, no recursion: time is linear in the input for any
/// input. Offsets in thrown errors are offsets into `text`; `TextDecoder` maps them to the input.
struct StringsParser {
    private let text: UnsafeBufferPointer<UInt8>
    private let base: UnsafePointer<UInt8>
    private let end: Int
    private var position = 0
    /// The table being built; strings are written straight into its UTF-8 buffer.
    private var table = StringsTable()
    private var comments = CommentTracker()
    /// The line being read (1-based) and the offset where it starts, kept current as bytes are consumed.
    private var line = 1
    private var lineStart = 0
    /// Where each entry is in `text`, in file order (repeats included), when an editor asked for them.
    private(set) var spans: [StringsEntrySpan]?
    /// The offset of the `}` closing a braced table, when there is one.
    private(set) var closingBrace: Int?

    init(text: UnsafeBufferPointer<UInt8>, recordingSpans: Bool = false) {
        self.text = text
        if recordingSpans { spans = [] }
        // An empty buffer may have no base address; any valid pointer will do as nothing is read.
        self.base = text.baseAddress ?? UnsafePointer(bitPattern: 1)!
        self.end = text.count
    }

    /// Reads the whole text as a strings table: bare `key = value;` entries, or the same in braces.
    mutating func parseTable() throws(ParseError) -> StringsTable {
        table.reserveCapacity(end / 64, bytes: end)
        guard try skipTrivia() else { return table }
        switch base[position] {
        case UInt8(ascii: "{"):
            position += 1
            try parseEntries(closedBy: UInt8(ascii: "}"))
            if try skipTrivia() { throw error("unexpected content after the closing '}'") }
        case UInt8(ascii: "("):
            throw error("expected a key, found '(': this is a property list array, not a strings table")
        case UInt8(ascii: "<"):
            if startsWith("<?xml") || startsWith("<plist") || startsWith("<!DOCTYPE") {
                throw error("XML property lists are not supported; write the table as text or a binary plist")
            }
            throw error("expected a key, found '<'")
        default:
            try parseEntries(closedBy: nil)
        }
        return table
    }

    // MARK: - Entries

    private mutating func parseEntries(closedBy closer: UInt8?) throws(ParseError) {
        while true {
            guard try skipTrivia() else {
                if closer != nil { throw error("expected '}' to close the table, found the end of the file") }
                return
            }
            if let closer, base[position] == closer {
                closingBrace = position
                position += 1
                return
            }
            let keyStart = position
            let keyLine = line
            let keyColumn = TextLocator.scalarCount(in: text, from: lineStart, to: keyStart) + 1
            let comment = comments.take(for: keyStart, in: text, storingInto: &table.utf8)
            let commentSpan = comments.takenSpan
            let key = try parseString(role: "a key")
            let keyEnd = position
            var valueSpan: Range<Int>?
            guard try skipTrivia() else {
                throw error("expected '=' or ';' after the key \(quoted(key)), found the end of the file")
            }
            let value: StoredRange
            switch base[position] {
            case UInt8(ascii: ";"):
                value = key
            case UInt8(ascii: "="):
                position += 1
                guard try skipTrivia() else {
                    throw error("expected a value for \(quoted(key)), found the end of the file")
                }
                let valueStart = position
                value = try parseValue(for: key)
                valueSpan = valueStart..<position
                guard try skipTrivia() else { throw error("missing ';' after the value of \(quoted(key))") }
                guard base[position] == UInt8(ascii: ";") else {
                    throw error("missing ';' after the value of \(quoted(key)), found \(describeCharacter())")
                }
            default:
                throw error("expected '=' or ';' after the key \(quoted(key)), found \(describeCharacter())")
            }
            position += 1
            var record = StringsTable.Record(
                keyStart: key.start, keyLength: key.length, valueStart: value.start, valueLength: value.length,
                line: UInt32(keyLine), column: UInt32(keyColumn)
            )
            if let comment { (record.commentStart, record.commentLength) = (comment.start, comment.length) }
            if spans != nil {
                spans!.append(StringsEntrySpan(key: string(key), entry: keyStart..<position, keyEnd: keyEnd,
                                               value: valueSpan, comment: commentSpan))
            }
            table.insert(record)
            comments.terminatorEnded(at: position)
        }
    }

    private mutating func parseValue(for key: StoredRange) throws(ParseError) -> StoredRange {
        switch base[position] {
        case UInt8(ascii: "{"):
            throw error("the value of \(quoted(key)) is a dictionary; a strings table holds only strings")
        case UInt8(ascii: "("):
            throw error("the value of \(quoted(key)) is an array; a strings table holds only strings")
        case UInt8(ascii: "<"):
            throw error("the value of \(quoted(key)) is data (<...>); a strings table holds only strings")
        default:
            return try parseString(role: "a value")
        }
    }

    // MARK: - Strings

    private mutating func parseString(role: String) throws(ParseError) -> StoredRange {
        let first = base[position]
        if first == UInt8(ascii: "\"") || first == UInt8(ascii: "'") {
            return try parseQuotedString(quote: first)
        }
        guard Self.isUnquotedCharacter(first) else {
            if first == UInt8(ascii: ";") {
                throw error("unexpected ';' where \(role) should start (a stray semicolon)")
            }
            throw error("expected \(role), found \(describeCharacter()); quote it")
        }
        let start = position
        while position < end, Self.isUnquotedCharacter(base[position]) { position += 1 }
        return store(from: start, to: position)
    }

    private mutating func parseQuotedString(quote: UInt8) throws(ParseError) -> StoredRange {
        let opening = position
        position += 1
        let start = position
        while true {
            while position + WordScan.width <= end {
                let word = WordScan.word(base, at: position)
                if WordScan.contains(word, quote) || WordScan.contains(word, UInt8(ascii: "\\"))
                    || WordScan.containsByte(word, lessThan: 0x0E) { break }
                position += WordScan.width
            }
            guard position < end else { break }
            let byte = base[position]
            if byte == quote {
                position += 1
                return store(from: start, to: position - 1)
            }
            if byte == UInt8(ascii: "\\") { return try parseEscapedRest(quote: quote, opening: opening, from: start) }
            if byte == 0x0A || byte == 0x0D { countLineBreak(at: position) }
            position += 1
        }
        throw error("unterminated quoted string", at: opening)
    }

    /// Continues a quoted string from its first backslash, resolving escapes into `scratch`.
    private mutating func parseEscapedRest(quote: UInt8, opening: Int, from start: Int) throws(ParseError)
        -> StoredRange {
        let storedStart = table.storedCount
        var runStart = start
        while position < end {
            let byte = base[position]
            if byte == quote {
                table.utf8.append(contentsOf: UnsafeBufferPointer(start: base + runStart, count: position - runStart))
                position += 1
                return StoredRange(start: storedStart, length: table.storedCount - storedStart)
            }
            guard byte == UInt8(ascii: "\\") else {
                if byte == 0x0A || byte == 0x0D { countLineBreak(at: position) }
                position += 1
                continue
            }
            table.utf8.append(contentsOf: UnsafeBufferPointer(start: base + runStart, count: position - runStart))
            let backslash = position
            position += 1
            guard position < end else { throw error("unterminated escape sequence at the end of the file", at: backslash) }
            try resolveEscape(startingAt: backslash)
            runStart = position
        }
        throw error("unterminated quoted string", at: opening)
    }

    /// Resolves the escape whose character is at `position` (just after the backslash).
    private mutating func resolveEscape(startingAt backslash: Int) throws(ParseError) {
        let byte = base[position]
        if byte == 0x0A || byte == 0x0D { countLineBreak(at: position) }
        position += 1
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "7"):
            // Up to three octal digits, accumulated in a byte as CoreFoundation does (so `\777` wraps),
            // then read as a NeXTSTEP character.
            var value = byte &- UInt8(ascii: "0")
            for _ in 0..<2 {
                guard position < end, base[position] >= UInt8(ascii: "0"), base[position] <= UInt8(ascii: "7") else {
                    break
                }
                value = value &<< 3 &+ (base[position] &- UInt8(ascii: "0"))
                position += 1
            }
            UTF8Validation.append(scalar: NeXTSTEPEncoding.scalarValue(for: value), to: &table.utf8)
        case UInt8(ascii: "U"):
            var unit = readHexUnit()
            if unit >= 0xDC00, unit <= 0xDFFF {
                throw error("\\U\(hex(unit)) is a lone low surrogate; write the pair \\UD8xx\\UDCxx", at: backslash)
            }
            if unit >= 0xD800, unit <= 0xDBFF {
                let resume = position
                if position + 1 < end, base[position] == UInt8(ascii: "\\"), base[position + 1] == UInt8(ascii: "U") {
                    position += 2
                    let low = readHexUnit()
                    if low >= 0xDC00, low <= 0xDFFF {
                        unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                    } else {
                        position = resume
                    }
                }
                guard unit >= 0x10000 else {
                    throw error("\\U\(hex(unit)) is a high surrogate without a \\U low surrogate after it", at: backslash)
                }
            }
            UTF8Validation.append(scalar: unit, to: &table.utf8)
        case UInt8(ascii: "a"): table.utf8.append(0x07)
        case UInt8(ascii: "b"): table.utf8.append(0x08)
        case UInt8(ascii: "f"): table.utf8.append(0x0C)
        case UInt8(ascii: "n"): table.utf8.append(0x0A)
        case UInt8(ascii: "r"): table.utf8.append(0x0D)
        case UInt8(ascii: "t"): table.utf8.append(0x09)
        case UInt8(ascii: "v"): table.utf8.append(0x0B)
        default:
            // Any other character stands for itself, whole (all of a multi-byte UTF-8 sequence).
            let length = UTF8Validation.sequenceLength(lead: byte)
            table.utf8.append(contentsOf: UnsafeBufferPointer(start: base + position - 1, count: length))
            position += length - 1
        }
    }

    /// Up to four hex digits after `\U`; none at all is U+0000, as in CoreFoundation.
    private mutating func readHexUnit() -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard position < end, let digit = Self.hexValue(base[position]) else { break }
            value = value << 4 | digit
            position += 1
        }
        return value
    }

    /// Copies `text[start..<stop]` into the table's buffer.
    private mutating func store(from start: Int, to stop: Int) -> StoredRange {
        let storedStart = table.storedCount
        table.utf8.append(contentsOf: UnsafeBufferPointer(start: base + start, count: stop - start))
        return StoredRange(start: storedStart, length: UInt32(stop - start))
    }

    // MARK: - Whitespace and comments

    /// Skips whitespace and comments; returns whether a token follows (false at the end of the text).
    ///
    /// Whitespace is U+0009–U+000D, space, U+2028 and U+2029 (CoreFoundation's set). An unterminated
    /// `/*` is an error here, where CoreFoundation silently treats it as the end of the file.
    private mutating func skipTrivia() throws(ParseError) -> Bool {
        while position < end {
            let byte = base[position]
            if byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) {
                if byte == 0x0A || byte == 0x0D { countLineBreak(at: position) }
                position += 1
            } else if byte == 0xE2, isLineOrParagraphSeparator(at: position) {
                position += 3
            } else if byte == UInt8(ascii: "/"), position + 1 < end, base[position + 1] == UInt8(ascii: "/") {
                let start = position
                position += 2
                while position < end {
                    let next = base[position]
                    if next == 0x0A || next == 0x0D || (next == 0xE2 && isLineOrParagraphSeparator(at: position)) { break }
                    position += 1
                }
                comments.record(.line, from: start, to: position, in: text)
            } else if byte == UInt8(ascii: "/"), position + 1 < end, base[position + 1] == UInt8(ascii: "*") {
                let start = position
                position += 2
                while true {
                    guard position + 1 < end else {
                        throw error("unterminated comment: '/*' without '*/'", at: start)
                    }
                    let next = base[position]
                    if next == UInt8(ascii: "*"), base[position + 1] == UInt8(ascii: "/") { break }
                    if next == 0x0A || next == 0x0D { countLineBreak(at: position) }
                    position += 1
                }
                position += 2
                comments.record(.block, from: start, to: position, in: text)
            } else {
                return true
            }
        }
        return false
    }

    /// Counts the LF or CR at `index` as a line break (CR LF counts once, at the LF).
    @inline(__always)
    private mutating func countLineBreak(at index: Int) {
        if base[index] == 0x0A || !(index + 1 < end && base[index + 1] == 0x0A) {
            line += 1
            lineStart = index + 1
        }
    }

    private func isLineOrParagraphSeparator(at index: Int) -> Bool {
        index + 2 < end && base[index + 1] == 0x80 && (base[index + 2] == 0xA8 || base[index + 2] == 0xA9)
    }

    // MARK: - Helpers

    private func startsWith(_ prefix: StaticString) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard position + count <= end else { return false }
        return (0..<count).allSatisfy { base[position + $0] == prefix.utf8Start[$0] }
    }

    private static func isUnquotedCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "$"), UInt8(ascii: "/"),
             UInt8(ascii: ":"), UInt8(ascii: "."), UInt8(ascii: "-"):
            true
        default:
            false
        }
    }

    private static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    private func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// The stored text at `range`, as a string.
    private func string(_ range: StoredRange) -> String {
        table.utf8.withUnsafeBufferPointer { buffer in
            String(decoding: UnsafeBufferPointer(rebasing: buffer[Int(range.start)..<Int(range.start + range.length)]),
                   as: UTF8.self)
        }
    }

    private func quoted(_ range: StoredRange) -> String {
        let key = string(range)
        // Short and escaped: the message reaches logs, `status` and clients, and the file may not be the reader's.
        return "'\(DisplayText.escaped(key, limit: 40))'"
    }

    /// The character at `position`, for messages: `'x'`, or `U+0007` for controls.
    private func describeCharacter() -> String {
        let length = UTF8Validation.sequenceLength(lead: base[position])
        let character = String(decoding: UnsafeBufferPointer(start: base + position, count: min(length, end - position)),
                               as: UTF8.self)
        guard let scalar = character.unicodeScalars.first else { return "the end of the file" }
        if scalar.properties.generalCategory == .control || scalar.properties.isWhitespace {
            return unicodeNotation(scalar.value)
        }
        return "'\(character)'"
    }

    private func error(_ reason: String, at offset: Int? = nil) -> ParseError {
        let offset = offset ?? position
        let location = TextLocator.location(of: offset, in: text)
        return ParseError(reason, line: location.line, column: location.column, byteOffset: offset)
    }
}

/// Where one entry is in the text, as offsets into the UTF-8 text the parser read: what an editor changes.
struct StringsEntrySpan {
    /// The key, escapes resolved.
    var key: String
    /// From the key's first byte to just after the `;`.
    var entry: Range<Int>
    /// Just after the key's last byte (its closing quote).
    var keyEnd: Int
    /// The value with its quotes; `nil` for `"key";`, whose value is its key.
    var value: Range<Int>?
    /// The translator comment the parser gave the entry, delimiters included.
    var comment: Range<Int>?
}

/// A run of bytes in the table's UTF-8 buffer.
struct StoredRange {
    var start: UInt32
    var length: UInt32
}
