// Exact checks for divergences where Foundation reads past something we reject: the input is edited at our
// error the way Foundation reads it (cut there, or the offending bytes replaced by U+FFFD), and our parse of
// the edited input must then give exactly Foundation's table.
import Foundation

/// One edit of the input at the place our parser reported an error.
enum Rewrite: CaseIterable {
    /// A UTF-8 continuation byte without a lead byte: Foundation reads it as U+FFFD.
    case strayContinuationByte
    /// A lone surrogate code unit in UTF-16 text: Foundation keeps it (U+FFFD once bridged to Swift).
    case utf16LoneSurrogate
    /// A `\U` escape that leaves a lone surrogate: Foundation keeps it (U+FFFD once bridged to Swift).
    case escapedLoneSurrogate
    /// A table opened with `{` that ends without its `}`: Foundation returns what it read.
    case closeBrace
    /// Cut the input at the error: Foundation silently stopped there and returned what it had read.
    /// Declared last because cases are tried in declaration order and a cut applies to any error.
    case truncate

    /// The edited input, or nil when this edit does not apply to `error`.
    func apply(to bytes: [UInt8], at error: ParseError) -> [UInt8]? {
        let offset = error.byteOffset
        let text = TextLayout(bytes)
        if self == .closeBrace {
            guard offset == bytes.count, error.reason.hasPrefix("expected '}' to close the table") else { return nil }
            return bytes + text.encode(UInt32(UInt8(ascii: "}")))
        }
        guard offset >= 0, offset < bytes.count else { return nil }
        switch self {
        case .closeBrace:
            return nil
        case .truncate:
            return Array(bytes[..<offset])
        case .strayContinuationByte:
            guard text.unitSize == 1, error.reason.hasPrefix("invalid UTF-8"), (0x80...0xBF).contains(bytes[offset])
            else { return nil }
            // The whole run of such bytes at once: one U+FFFD each.
            let end = bytes[offset...].firstIndex { !(0x80...0xBF).contains($0) } ?? bytes.count
            let replacement = Array(Array(repeating: text.encode(0xFFFD), count: end - offset).joined())
            return Array(bytes[..<offset]) + replacement + Array(bytes[end...])
        case .utf16LoneSurrogate:
            // Every lone surrogate in the text at once (there may be thousands).
            guard text.unitSize == 2, error.reason.hasPrefix("invalid UTF-16") else { return nil }
            return text.replacingLoneSurrogates()
        case .escapedLoneSurrogate:
            guard error.reason.contains("\\U"), error.reason.contains("surrogate"),
                  text.unit(at: offset) == 0x5C, text.unit(at: offset + text.unitSize) == 0x55 else { return nil }
            var end = offset + 2 * text.unitSize
            for _ in 0..<4 {
                guard let unit = text.unit(at: end), unit < 0x80,
                      Character(Unicode.Scalar(UInt8(unit))).isHexDigit else {
                    break
                }
                end += text.unitSize
            }
            return bytes[..<offset] + "\\UFFFD".unicodeScalars.flatMap { text.encode($0.value) } + bytes[end...]
        }
    }

    /// The edits (from `rewrites`, tried in order, at most 256 edits) after which our parse gives exactly
    /// Foundation's table, or nil if there are none. At least one edit is made.
    static func explain(_ fuzzCase: FuzzCase, with rewrites: [Rewrite]) -> Set<Rewrite>? {
        guard let theirs = fuzzCase.foundationTable, var error = fuzzCase.ourError else { return nil }
        var used: Set<Rewrite> = []
        // UTF-16 without a BOM gets the BOM Foundation was given: our byte order guess looks at the first
        // 256 bytes, so a cut input could otherwise flip to the other byte order.
        var bytes = FuzzCase.foundationBytes(for: fuzzCase.bytes)
        if bytes.count != fuzzCase.bytes.count {
            switch Result(catching: { () throws(ParseError) in try StringsFile.parse(bytes) }) {
            case .success: return nil  // with the BOM we succeed, without it we threw: not explained here
            case .failure(let withBOM): error = withBOM
            }
        }
        for _ in 0..<256 {
            let current = bytes
            let edits = rewrites.lazy.compactMap { rewrite in
                rewrite.apply(to: current, at: error).map { (rewrite, $0) }
            }
            guard let (rewrite, edited) = edits.first(where: { $0.1 != current }) else { return nil }
            used.insert(rewrite)
            bytes = edited
            switch Result(catching: { () throws(ParseError) in try StringsFile.parse(bytes) }) {
            case .success(let table):
                // Keys that differ only in their lone surrogates are distinct in CoreFoundation but one key
                // once bridged to Swift, where one of their values survives: allow any of them.
                let collapsed = Set(table.duplicates.map(\.key).filter { $0.unicodeScalars.contains("\u{FFFD}") })
                let difference = FuzzCase.difference(table.dictionary, theirs, ignoringValuesOf: collapsed)
                if tracesRewrites { trace("  rewritten input parses; difference: \(difference ?? "none")") }
                return difference == nil ? used : nil
            case .failure(let next):
                if tracesRewrites { trace("  rewritten input: \(next) at byte \(next.byteOffset)") }
                error = next
            }
        }
        return nil
    }
}

/// `HOTSTRINGS_FUZZ_EXPLAIN=2` also traces each rewrite.
let tracesRewrites = ProcessInfo.processInfo.environment["HOTSTRINGS_FUZZ_EXPLAIN"] == "2"

func trace(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}

/// The code units of an input as our parser decodes it: UTF-8, or UTF-16 with or without a byte order mark.
struct TextLayout {
    let bytes: [UInt8]
    /// 1 for UTF-8, 2 for UTF-16.
    let unitSize: Int
    let isBigEndian: Bool

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        if bytes.starts(with: [0xFF, 0xFE]) {
            (unitSize, isBigEndian) = (2, false)
        } else if bytes.starts(with: [0xFE, 0xFF]) {
            (unitSize, isBigEndian) = (2, true)
        } else if !bytes.starts(with: [0xEF, 0xBB, 0xBF]), bytes.count >= 2, bytes[0] == 0 || bytes[1] == 0 {
            let withBOM = FuzzCase.foundationBytes(for: bytes)
            (unitSize, isBigEndian) = (2, withBOM.first == 0xFE)
        } else {
            (unitSize, isBigEndian) = (1, false)
        }
    }

    /// The code unit that starts at byte `offset`, if the input has one there.
    func unit(at offset: Int) -> UInt32? {
        guard offset >= 0, offset + unitSize <= bytes.count else { return nil }
        if unitSize == 1 { return UInt32(bytes[offset]) }
        let first = UInt32(bytes[offset])
        let second = UInt32(bytes[offset + 1])
        return isBigEndian ? first << 8 | second : second << 8 | first
    }

    /// The input with each lone UTF-16 surrogate replaced by U+FFFD (for UTF-16 input).
    func replacingLoneSurrogates() -> [UInt8] {
        var output = bytes
        var offset = bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) ? 2 : 0
        while let current = unit(at: offset) {
            if (0xD800...0xDBFF).contains(current), let next = unit(at: offset + 2), (0xDC00...0xDFFF).contains(next) {
                offset += 4
                continue
            }
            if (0xD800...0xDFFF).contains(current) {
                output.replaceSubrange(offset..<(offset + 2), with: encode(0xFFFD))
            }
            offset += 2
        }
        return output
    }

    /// Whether the text has a NUL character (a code unit 0 after any byte order mark).
    var containsNUL: Bool {
        let start = unitSize == 2 && (bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF])) ? 2 : 0
        return stride(from: start, to: bytes.count - unitSize + 1, by: unitSize).contains { unit(at: $0) == 0 }
    }

    /// A scalar (at most U+FFFF) in this input's encoding.
    func encode(_ scalar: UInt32) -> [UInt8] {
        if unitSize == 2 {
            let high = UInt8(truncatingIfNeeded: scalar >> 8)
            let low = UInt8(truncatingIfNeeded: scalar)
            return isBigEndian ? [high, low] : [low, high]
        }
        return Array(String(Unicode.Scalar(scalar) ?? "\u{FFFD}").utf8)
    }
}
