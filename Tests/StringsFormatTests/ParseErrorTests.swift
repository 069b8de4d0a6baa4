import Foundation
import Testing
@testable import StringsFormat

/// One rejected input: the error's reason must contain `reason` and point at `line`:`column`.
struct Rejected: CustomTestStringConvertible, Sendable {
    let name: String
    let bytes: [UInt8]
    let reason: String
    let line: Int
    let column: Int
    /// What Foundation does: `false` where CoreFoundation silently accepts (a documented divergence).
    var foundationFails = true
    var testDescription: String { name }

    init(_ name: String, _ source: String, _ reason: String, _ line: Int, _ column: Int, foundationFails: Bool = true) {
        self.init(name, Array(source.utf8), reason, line, column, foundationFails: foundationFails)
    }

    init(_ name: String, _ bytes: [UInt8], _ reason: String, _ line: Int, _ column: Int, foundationFails: Bool = true) {
        self.name = name
        self.bytes = bytes
        self.reason = reason
        self.line = line
        self.column = column
        self.foundationFails = foundationFails
    }
}

@Suite struct ParseErrorTests {
    static let rejected: [Rejected] = [
        Rejected("missing semicolon at end", "\"a\" = \"b\"", "missing ';' after the value of 'a'", 1, 10),
        Rejected("missing semicolon before next key", "a = b\nc = d;", "missing ';' after the value of 'a', found 'c'",
                 2, 1),
        Rejected("missing equals", "\"a\" \"b\";", "expected '=' or ';' after the key 'a', found '\"'", 1, 5),
        Rejected("missing value", "a = ;", "unexpected ';' where a value should start", 1, 5),
        Rejected("value at end of file", "a =", "expected a value for 'a', found the end of the file", 1, 4),
        Rejected("key alone", "\"a\"", "expected '=' or ';' after the key 'a', found the end of the file", 1, 4),
        Rejected("unterminated quote", "a = \"b;\nc = d;", "unterminated quoted string", 1, 5),
        Rejected("unterminated key", "\n\n  \"abc", "unterminated quoted string", 3, 3),
        Rejected("backslash at end", "a = \"b\\", "unterminated escape sequence", 1, 7),
        Rejected("comment glued to an unquoted key", "a/*c*/;", "expected '=' or ';' after the key 'a/', found '*'",
                 1, 3),
        Rejected("unexpected character", "a = b;\n@ = c;", "expected a key, found '@'", 2, 1,
                 foundationFails: false),
        Rejected("control character", "a = b;\u{01}", "expected a key, found U+0001", 1, 7, foundationFails: false),
        Rejected("array at top", "(a, b)", "property list array", 1, 1),
        Rejected("XML plist", "<?xml version=\"1.0\"?><plist/>", "XML property lists are not supported", 1, 1),
        Rejected("dictionary value", "a = { b = c; };", "the value of 'a' is a dictionary", 1, 5,
                 foundationFails: false),
        Rejected("array value", "a = (b);", "the value of 'a' is an array", 1, 5, foundationFails: false),
        Rejected("data value", "a = <0fab>;", "the value of 'a' is data", 1, 5, foundationFails: false),
        Rejected("unclosed brace", "{ a = b;", "expected '}' to close the table", 1, 9),
        Rejected("junk after brace", "{ a = b; } c", "unexpected content after the closing '}'", 1, 12),
        // Where CoreFoundation stops silently and loses the rest of the file, we are loud.
        Rejected("stray semicolon", "\"a\" = \"1\";; \"b\" = \"2\";", "unexpected ';'", 1, 11, foundationFails: false),
        Rejected("trailing junk", "a = b; }", "expected a key, found '}'", 1, 8, foundationFails: false),
        Rejected("unterminated comment", "a = b;\n/* c = d;", "unterminated comment", 2, 1, foundationFails: false),
        Rejected("lone high surrogate escape", #"a = "\UD83Dx";"#, "high surrogate", 1, 6, foundationFails: false),
        Rejected("lone low surrogate escape", #"a = "x\UDE00";"#, "lone low surrogate", 1, 7, foundationFails: false),
        Rejected("high surrogate then non-low", #"a = "\UD83D\U0041";"#, "high surrogate", 1, 6,
                 foundationFails: false),
        // Encodings.
        Rejected("invalid UTF-8", Array("a = \"".utf8) + [0xFF] + Array("\";".utf8), "invalid UTF-8", 1, 6),
        Rejected("overlong UTF-8", Array("a = \"".utf8) + [0xC0, 0xAF] + Array("\";".utf8), "invalid UTF-8", 1, 6),
        Rejected("UTF-8 surrogate", Array("a = \"".utf8) + [0xED, 0xA0, 0x80] + Array("\";".utf8), "invalid UTF-8",
                 1, 6),
        Rejected("truncated UTF-8", Array("a = b; \"".utf8) + [0xE4, 0xBD], "the file ends inside a character", 1, 9),
        Rejected("invalid UTF-8 in a comment", Array("/* ".utf8) + [0x80] + Array(" */ a = b;".utf8),
                 "invalid UTF-8", 1, 4),
        Rejected("NUL byte in UTF-8", Array("a = \"x".utf8) + [0] + Array("y\";".utf8), "NUL byte", 1, 7,
                 foundationFails: false),
        Rejected("UTF-16LE lone surrogate", [0xFF, 0xFE] + utf16LE("a = \"") + [0x3D, 0xD8] + utf16LE("\";"),
                 "invalid UTF-16", 1, 6, foundationFails: false),
        Rejected("UTF-16 odd length", [0xFF, 0xFE] + utf16LE("a = b;") + [0x41], "odd number of bytes", 1, 7,
                 foundationFails: false),
    ]

    @Test(arguments: rejected)
    func rejects(_ example: Rejected) {
        #expect {
            try StringsFile.parse(example.bytes)
        } throws: { error in
            guard let error = error as? ParseError else { return false }
            #expect(error.reason.contains(example.reason), "reason was: \(error.reason)")
            #expect(error.line == example.line && error.column == example.column, "at \(error.line):\(error.column)")
            return true
        }
        let foundation = try? PropertyListSerialization.propertyList(from: Data(example.bytes), options: [], format: nil)
        if example.foundationFails {
            #expect(foundation as? [String: String] == nil, "Foundation accepts this")
        } else {
            #expect(foundation != nil, "Foundation now rejects this too: update docs/FORMAT.md")
        }
    }

    @Test func printsCompilerStyle() {
        let error = ParseError("missing ';'", line: 12, column: 7)
        #expect(error.formatted(file: "de.lproj/Localizable.strings")
                == "de.lproj/Localizable.strings:12:7: error: missing ';'")
        #expect(error.description == "12:7: error: missing ';'")
    }

    @Test func byteOffsetsPointIntoTheOriginalBytes() {
        let utf8 = Array("\u{FEFF}a = b;\n@".utf8)
        #expect(throws: ParseError.self) { try StringsFile.parse(utf8) }
        do {
            _ = try StringsFile.parse(utf8)
        } catch {
            #expect(error.byteOffset == 10)
        }
        let utf16 = [0xFF, 0xFE] + utf16LE("\"😀\" = b;\n@")
        do {
            _ = try StringsFile.parse(utf16)
            Issue.record("expected an error")
        } catch {
            #expect(error.byteOffset == 2 + 2 * 10)
            #expect(error.line == 2 && error.column == 1)
        }
    }
}

func utf16LE(_ text: String) -> [UInt8] { text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] } }
func utf16BE(_ text: String) -> [UInt8] { text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] } }

/// The differential fuzzer's findings (Fixtures/fuzz): each is a documented divergence where we throw.
@Suite struct FuzzFindingTests {
    static let findings = ["stray-continuation-byte", "utf16-lone-surrogate", "unclosed-brace-unterminated-string",
                           "bplist-signature-text"]

    @Test(arguments: findings)
    func throwsWhereFoundationRepairs(_ name: String) throws {
        let url = try #require(Bundle.module.url(forResource: "Fixtures/fuzz/\(name)", withExtension: "strings"))
        let bytes = Array(try Data(contentsOf: url))
        #expect(throws: ParseError.self) { try StringsFile.parse(bytes) }
        #expect(try PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil) is [String: Any],
                "Foundation now rejects this too: update docs/FORMAT.md")
    }
}

/// A binary plist that crashes Foundation (found by the fuzzer): ours must answer with a clean error.
@Test func aBinaryPlistThatCrashesFoundationIsACleanError() throws {
    let url = try #require(Bundle.module.url(forResource: "Fixtures/fuzz/bplist-set-crashes-foundation",
                                             withExtension: "strings"))
    #expect {
        try StringsFile.parse(Array(try Data(contentsOf: url)))
    } throws: { error in
        (error as? ParseError)?.reason.contains("is a set, not a string") == true
    }
}
