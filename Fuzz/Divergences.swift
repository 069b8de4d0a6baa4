// The documented, intentional differences between StringsFile.parse and Foundation.
//
// Each divergence is one predicate over a FuzzCase. A case where the parsers disagree passes only if some
// predicate here explains it; keep each predicate as narrow as the behaviour it documents, so that the
// fuzzer still catches everything else. `knownFindings` lists differences found by fuzzing that are NOT
// intended, already reported (their inputs are in Tests/StringsFormatTests/Fixtures/fuzz/), and silenced
// here only so that a run can look for new ones.
import Foundation

struct Divergence {
    let name: String
    let explains: (FuzzCase) -> Bool

    /// The first divergence that explains `fuzzCase`, if any.
    static func explaining(_ fuzzCase: FuzzCase) -> Divergence? {
        (intended + knownFindings).first { $0.explains(fuzzCase) }
    }

    // (UTF-16 without a byte order mark, which Foundation on Linux cannot read, is not a divergence here:
    // FuzzCase.foundationBytes gives Foundation the same text with a BOM instead.)
    static let intended: [Divergence] = [
        // An empty file, or one holding only a byte order mark, is an empty table for us; Foundation refuses
        // zero-length data and zero-length text. (Whitespace and comments alone are an empty table in both.)
        Divergence(name: "empty table") { fuzzCase in
            let byteOrderMarks: [[UInt8]] = [[], [0xEF, 0xBB, 0xBF], [0xFF, 0xFE], [0xFE, 0xFF]]
            return fuzzCase.ourTable?.isEmpty == true && fuzzCase.foundationFailed
                && byteOrderMarks.contains(fuzzCase.bytes)
        },
        // Where CoreFoundation silently stops (`;;`, a character that cannot start a key, junk after the
        // closing brace, an unterminated `/*` taken as the end of the file, the odd last byte of UTF-16 text)
        // and returns what it read so far, we throw at that place. Checked exactly: our parse of the bytes
        // before our error must equal Foundation's table (cutting again if it throws at an earlier place).
        Divergence(name: "CF stops silently where we throw") { fuzzCase in
            Rewrite.explain(fuzzCase, with: [.truncate]) != nil
        },
        // A value that is a dictionary, array or data: Foundation returns it nested; a strings table holds
        // only strings, so we throw.
        Divergence(name: "non-string value") { fuzzCase in
            guard fuzzCase.ourError != nil, case .other(let value) = fuzzCase.foundation else { return false }
            guard let dictionary = value as? [AnyHashable: Any] else { return false }
            return dictionary.contains { !($0.key.base is String) || !($0.value is String) }
        },
        // A top-level string, array or data (`"text"`, `(a, b)`, `<0fa1>`): Foundation returns it; it is not
        // a strings table, so we throw.
        Divergence(name: "top level is not a dictionary") { fuzzCase in
            guard fuzzCase.ourError != nil, case .other(let value) = fuzzCase.foundation else { return false }
            return !(value is [AnyHashable: Any])
        },
        // `\U` escapes that leave a lone UTF-16 surrogate: Foundation keeps the surrogate (U+FFFD once bridged
        // to Swift), we throw. Checked exactly: with each such escape written `\UFFFD`, we give Foundation's table.
        Divergence(name: "lone surrogate from \\U") { fuzzCase in
            Rewrite.explain(fuzzCase, with: [.escapedLoneSurrogate, .truncate])?.contains(.escapedLoneSurrogate) == true
        },
        // A NUL character in text (a 0 byte in UTF-8, a 0 code unit in UTF-16: a binary file, or the wrong
        // encoding): we throw, wherever it is and whatever else is wrong; Foundation keeps it as U+0000 in a
        // string, or stops, or fails.
        Divergence(name: "NUL character in text") { fuzzCase in
            fuzzCase.ourError != nil && TextLayout(fuzzCase.bytes).containsNUL
        },
        // Binary property lists that Foundation reads but we refuse: a key written twice (CoreFoundation keeps
        // the first, the text format the last), a non-ASCII byte in an ASCII string, a lone UTF-16
        // surrogate, a value that is not a string, string objects that overlap (our bound on the work).
        Divergence(name: "stricter binary property list") { fuzzCase in
            guard fuzzCase.bytes.starts(with: Array("bplist0".utf8)), let error = fuzzCase.ourError else {
                return false
            }
            let refusals = ["appears twice", "non-ASCII byte", "lone surrogate", "not a string", "objects overlap"]
            return refusals.contains { error.reason.contains($0) } && !fuzzCase.foundationFailed
        },
        // XML property lists (and anything else starting with '<'): Foundation parses XML with its own rules,
        // or reads `<...>` as data; we are a strings-table parser and throw, whatever the error we find first.
        Divergence(name: "XML property list") { fuzzCase in
            guard fuzzCase.ourError != nil else { return false }
            var bytes = fuzzCase.bytes[...]
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
            return bytes.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) } == UInt8(ascii: "<")
        },
    ]

    /// Known findings are checked with every rewrite allowed (an input may show several), and each names
    /// the rewrite that must have been needed.
    static let knownFindings: [Divergence] = [
        // Fixture fuzz/stray-continuation-byte.strings. Foundation on Linux reads a UTF-8 continuation byte
        // without a lead byte (0x80-0xBF) as U+FFFD and parses on; we throw "invalid UTF-8" (other malformed
        // UTF-8 fails in both). Probably meant, but not documented: for the lead to decide.
        Divergence(name: "stray UTF-8 continuation byte (CF: U+FFFD)") { fuzzCase in
            Rewrite.explain(fuzzCase, with: Rewrite.allCases)?.contains(.strayContinuationByte) == true
        },
        // Fixture fuzz/utf16-lone-surrogate.strings. In UTF-16 text, Foundation keeps a lone surrogate code
        // unit (U+FFFD once bridged to Swift); we throw "invalid UTF-16". For the lead to decide.
        Divergence(name: "lone surrogate in UTF-16 text (CF keeps it)") { fuzzCase in
            Rewrite.explain(fuzzCase, with: Rewrite.allCases)?.contains(.utf16LoneSurrogate) == true
        },
        // Fixture fuzz/unclosed-brace-unterminated-string.strings (`{"}`). When a `{` table ends in an
        // unterminated string, Foundation returns the entries before it (here none); without the string, a
        // missing `}` fails in both. For the lead to decide.
        Divergence(name: "unclosed '{' table (CF returns what it read)") { fuzzCase in
            Rewrite.explain(fuzzCase, with: Rewrite.allCases)?.contains(.closeBrace) == true
        },
        // Fixture fuzz/bplist-signature-text.strings (`bplist00 = x;`). Text that starts with `bplist0` but is
        // not a binary plist: Foundation falls back to reading it as text, we throw a binary plist error.
        // Checked as text: with a space in front (which we read as text), the case must be explained.
        Divergence(name: "text starting with 'bplist0' (CF reads it as text)") { fuzzCase in
            guard fuzzCase.bytes.starts(with: Array("bplist0".utf8)), fuzzCase.foundationTable != nil,
                  let error = fuzzCase.ourError, error.reason.hasPrefix("binary property list") else { return false }
            let text = [UInt8(ascii: " ")] + fuzzCase.bytes
            let ours = Result { () throws(ParseError) in try StringsFile.parse(text) }
            return FuzzCase(bytes: text, ours: ours, foundation: fuzzCase.foundation).unexplainedDifference() == nil
        },
    ]
}

/// Inputs that make Foundation itself hang or crash; each one is a finding recorded in
/// Tests/StringsFormatTests/Fixtures/fuzz/. Foundation is not asked about them, so fuzzing goes on
/// (our parser still runs on them and must not crash).
enum FoundationHazards {
    static func reasonToSkip(_ bytes: [UInt8]) -> String? {
        // A binary plist with a set in it crashes Foundation on Linux while it bridges the set to Swift
        // (Fixtures/fuzz/bplist-set-crashes-foundation.strings). We reject any binary plist holding a
        // value that is not a string, and Foundation's answer for those is never compared, so it is
        // not asked about them at all.
        guard bytes.starts(with: Array("bplist0".utf8)) else { return nil }
        let ours = Result { () throws(ParseError) in try StringsFile.parse(bytes) }
        guard case .failure(let error) = ours, error.reason.contains("not a string") else { return nil }
        return "a binary plist with a non-string value (sets crash Foundation's bridging)"
    }
}
