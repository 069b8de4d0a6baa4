// The documented, intentional differences between JSONValue(parsing:) and Foundation's JSONSerialization.
//
// Each divergence is one predicate over a ProtocolFuzzCase. A case where the parsers disagree passes only if
// a predicate here explains it; keep each as narrow as the behaviour it documents, so that the fuzzer still
// catches everything else. Where Foundation reads something RFC 8259 forbids, the check is exact: the input
// is rewritten the way Foundation reads it (see `JSONRewrite`) and our parse of that must give its value.
import Foundation

struct ProtocolDivergence: Sendable {
    let name: String
    let explains: @Sendable (ProtocolFuzzCase) -> Bool

    /// The first divergence that explains `fuzzCase`, if any.
    static func explaining(_ fuzzCase: ProtocolFuzzCase) -> ProtocolDivergence? {
        intended.first { $0.explains(fuzzCase) }
    }

    static let intended: [ProtocolDivergence] = [
        // Our nesting limit: arrays and objects deeper than JSONValue.maximumDepth (128) are refused, so a line
        // of 60,000 '[' cannot exhaust the daemon's stack. Foundation allows 512.
        ProtocolDivergence(name: "nesting deeper than 128") { fuzzCase in
            guard let error = fuzzCase.ourError, let theirs = fuzzCase.foundationValue else { return false }
            return error.reason.hasPrefix("nesting deeper than") && depth(of: theirs) > JSONValue.maximumDepth
        },
        // A number beyond Double's range (1e400, -2e308): RFC 8259 section 6 lets a parser limit the range. We
        // round it to an infinity as strtod, JavaScript's JSON.parse and Python's json do (and write it back as
        // null); Foundation refuses the whole text. Checked exactly: with each such number of the input written
        // as 1e308 (or -1e308), Foundation must accept the text and give our value with the same replacement.
        ProtocolDivergence(name: "number beyond Double") { fuzzCase in
            guard let value = fuzzCase.ourValue, fuzzCase.foundationFailed, containsNonFinite(value) else {
                return false
            }
            let tamed = JSONRewrite.clampingHugeNumbers(fuzzCase.bytes)
            guard let theirs = try? JSONSerialization.jsonObject(with: Data(tamed), options: [.fragmentsAllowed])
            else { return false }
            // Foundation's value may also lack a U+FEFF that starts a run of a string (a divergence below).
            let readings = [value] + JSONRewrite.segmentByteOrderMarks.variants(of: fuzzCase.bytes).compactMap {
                try? JSONValue(parsing: $0)
            }
            return readings.contains { JSONEquality.difference(clampingInfinities($0), theirs) == nil }
        },
        // A trailing comma before ']' or '}' ([1,] and {"a":1,}): RFC 8259 forbids it and so do we; Foundation
        // reads past it. Checked exactly: without those commas, our value must be Foundation's.
        ProtocolDivergence(name: "trailing comma accepted by Foundation") { fuzzCase in
            JSONRewrite.explains(fuzzCase, requiring: .trailingCommas)
        },
        // A raw U+FEFF at the start of a string, or right after an escape in one: Foundation drops it (it turns
        // each run of raw bytes into a String on its own, and that conversion strips a leading byte order
        // mark); an escaped \uFEFF it keeps. A Foundation bug: the character is content, and we keep it.
        // Checked exactly: without those characters, our value must be Foundation's.
        ProtocolDivergence(name: "Foundation drops U+FEFF starting a run of a string") { fuzzCase in
            if let value = fuzzCase.ourValue, let theirs = fuzzCase.foundationValue {
                let rewritten = JSONRewrite.withoutSegmentByteOrderMarks(fuzzCase.bytes)
                guard rewritten != fuzzCase.bytes, let expected = try? JSONValue(parsing: rewritten) else {
                    return false
                }
                return JSONEquality.difference(value, theirs) != nil && JSONEquality.difference(expected, theirs) == nil
            }
            return JSONRewrite.explains(fuzzCase, requiring: .segmentByteOrderMarks)
        },
        // UTF-16 and UTF-32 text (told by a byte order mark or the zeros in the first four bytes) and a UTF-8
        // byte order mark: Foundation transcodes, as RFC 8259 section 8.1 allows but does not require; the
        // protocol is UTF-8 without a BOM, so we refuse. Checked exactly: our parse of the text transcoded to
        // UTF-8 without the mark must be Foundation's value.
        ProtocolDivergence(name: "UTF-16, UTF-32 or a BOM accepted by Foundation") { fuzzCase in
            JSONRewrite.explains(fuzzCase, requiring: .transcoding)
        },
    ]

    /// The nesting depth of a Foundation value: 0 for a scalar, 1 for `[]`.
    static func depth(of value: Any) -> Int {
        if let array = value as? [Any] { return 1 + (array.map(depth).max() ?? 0) }
        if let object = value as? [String: Any] { return 1 + (object.values.map(depth).max() ?? 0) }
        return 0
    }

    static func containsNonFinite(_ value: JSONValue) -> Bool {
        switch value {
        case .double(let double): !double.isFinite
        case .array(let elements): elements.contains(where: containsNonFinite)
        case .object(let members): members.contains { containsNonFinite($0.1) }
        default: false
        }
    }

    static func clampingInfinities(_ value: JSONValue) -> JSONValue {
        switch value {
        case .double(let double) where double.isInfinite: .double(double < 0 ? -1e308 : 1e308)
        case .array(let elements): .array(elements.map(clampingInfinities))
        case .object(let members): .object(members.map { ($0.0, clampingInfinities($0.1)) })
        default: value
        }
    }
}

/// Edits an input the way Foundation reads it, so that a divergence can be checked value for value.
enum JSONRewrite: CaseIterable {
    /// Transcode UTF-16 or UTF-32 (by BOM or by the zeros in the first four bytes) to UTF-8; drop a UTF-8 BOM.
    case transcoding
    /// Remove a raw U+FEFF that starts a string or follows an escape in one.
    case segmentByteOrderMarks
    /// Remove each ',' (outside strings) whose next non-whitespace byte is ']' or '}'.
    case trailingCommas

    /// Whether rewriting the input with `required` (and any of the others, in the order declared) makes our
    /// parse succeed with Foundation's value.
    static func explains(_ fuzzCase: ProtocolFuzzCase, requiring required: JSONRewrite) -> Bool {
        guard fuzzCase.ourError != nil, let theirs = fuzzCase.foundationValue else { return false }
        var candidates = [(bytes: fuzzCase.bytes, usesRequired: false)]
        for rewrite in allCases {
            candidates += candidates.flatMap { candidate in
                rewrite.variants(of: candidate.bytes).map { ($0, candidate.usesRequired || rewrite == required) }
            }
        }
        return candidates.contains { candidate in
            guard candidate.usesRequired, let value = try? JSONValue(parsing: candidate.bytes) else { return false }
            return JSONEquality.difference(value, theirs) == nil
        }
    }

    /// The inputs this rewrite makes of `bytes`; empty when it changes nothing.
    func variants(of bytes: [UInt8]) -> [[UInt8]] {
        let rewritten: [UInt8]
        switch self {
        case .transcoding: return Self.transcodings(of: bytes)
        case .segmentByteOrderMarks: rewritten = Self.withoutSegmentByteOrderMarks(bytes)
        case .trailingCommas: rewritten = Self.withoutTrailingCommas(bytes)
        }
        return rewritten == bytes ? [] : [rewritten]
    }

    /// The UTF-8 texts the input may be, read as Foundation might read it; empty for plain UTF-8.
    static func transcodings(of bytes: [UInt8]) -> [[UInt8]] {
        let marks: [([UInt8], [String.Encoding])] = [
            ([0xEF, 0xBB, 0xBF], [.utf8]),
            ([0x00, 0x00, 0xFE, 0xFF], [.utf32BigEndian]),
            ([0xFF, 0xFE, 0x00, 0x00], [.utf32LittleEndian, .utf16LittleEndian]),
            ([0xFF, 0xFE], [.utf16LittleEndian]),
            ([0xFE, 0xFF], [.utf16BigEndian]),
        ]
        var texts: [[UInt8]] = []
        for (mark, encodings) in marks where bytes.starts(with: mark) {
            for encoding in encodings {
                if let text = String(data: Data(bytes.dropFirst(mark.count)), encoding: encoding) {
                    texts.append(Array(text.utf8))
                }
            }
        }
        if texts.isEmpty, bytes.prefix(4).contains(0) {
            let encodings: [String.Encoding] = [
                .utf16LittleEndian, .utf16BigEndian, .utf32LittleEndian, .utf32BigEndian,
            ]
            for encoding in encodings {
                if let text = String(data: Data(bytes), encoding: encoding) { texts.append(Array(text.utf8)) }
            }
        }
        return texts
    }

    /// The input with every number token outside strings that overflows Double written as 1e308 or -1e308.
    static func clampingHugeNumbers(_ bytes: [UInt8]) -> [UInt8] {
        let numberBytes = Set(Array("+-0123456789.eE".utf8))
        var out: [UInt8] = []
        var isInString = false
        var isEscaped = false
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if isInString {
                if isEscaped { isEscaped = false } else if byte == 0x5C { isEscaped = true } else if byte == 0x22 {
                    isInString = false
                }
            } else if byte == 0x22 {
                isInString = true
            } else if byte == UInt8(ascii: "-") || (0x30...0x39).contains(byte) {
                var end = index
                while end < bytes.count, numberBytes.contains(bytes[end]) { end += 1 }
                let token = bytes[index..<end]
                if let double = Double(String(decoding: token, as: UTF8.self)), double.isInfinite {
                    out.append(contentsOf: (double < 0 ? "-1e308" : "1e308").utf8)
                } else {
                    out.append(contentsOf: token)
                }
                index = end
                continue
            }
            out.append(byte)
            index += 1
        }
        return out
    }

    /// The input without the raw U+FEFF (EF BB BF) that starts a string or directly follows an escape in one.
    ///
    /// Foundation builds a string from each run of raw bytes between escapes, and that conversion takes a
    /// leading U+FEFF for a byte order mark and drops it (one only: a second one stays).
    static func withoutSegmentByteOrderMarks(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var isInString = false
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            out.append(byte)
            index += 1
            var startsRun = false
            if !isInString {
                if byte == 0x22 {
                    isInString = true
                    startsRun = true
                }
            } else if byte == 0x22 {
                isInString = false
            } else if byte == 0x5C, index < bytes.count {
                let escaped = bytes[index]
                let length = escaped == UInt8(ascii: "u") ? 5 : 1
                out.append(contentsOf: bytes[index..<min(index + length, bytes.count)])
                index = min(index + length, bytes.count)
                startsRun = true
            }
            if startsRun, bytes[index...].starts(with: [0xEF, 0xBB, 0xBF]) { index += 3 }
        }
        return out
    }

    static func withoutTrailingCommas(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var isInString = false
        var isEscaped = false
        for (index, byte) in bytes.enumerated() {
            if isInString {
                if isEscaped { isEscaped = false } else if byte == 0x5C { isEscaped = true } else if byte == 0x22 {
                    isInString = false
                }
            } else if byte == 0x22 {
                isInString = true
            } else if byte == UInt8(ascii: ",") {
                let next = bytes[(index + 1)...].first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
                if next == UInt8(ascii: "]") || next == UInt8(ascii: "}") { continue }
            }
            out.append(byte)
        }
        return out
    }
}
