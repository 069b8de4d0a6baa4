import Foundation
import Testing
@testable import StringsFormat

/// One accepted input and the dictionary it must produce (which Foundation must produce too).
struct Accepted: CustomTestStringConvertible, Sendable {
    let name: String
    let source: String
    let expected: [String: String]
    /// Whether Foundation agrees; false only for the documented divergences (docs/FORMAT.md).
    var foundationAgrees = true
    var testDescription: String { name }
}

/// Parses with Foundation, as the reference.
func referenceDictionary(_ bytes: [UInt8]) -> [String: String]? {
    try? PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil) as? [String: String]
}

@Suite struct GrammarTests {
    static let accepted: [Accepted] = [
        Accepted(name: "plain entry", source: #""greeting" = "Hello";"#, expected: ["greeting": "Hello"]),
        Accepted(name: "several entries", source: "\"a\" = \"1\";\n\"b\" = \"2\";\n", expected: ["a": "1", "b": "2"]),
        Accepted(name: "single quotes", source: #"'a' = 'it"s';"#, expected: ["a": "it\"s"]),
        Accepted(name: "no spaces", source: #""a"="1";"b"="2";"#, expected: ["a": "1", "b": "2"]),
        Accepted(name: "unquoted key and value", source: "a.b/c:d-e$f_g = h0;", expected: ["a.b/c:d-e$f_g": "h0"]),
        Accepted(name: "shorthand key;", source: #""OK";"#, expected: ["OK": "OK"]),
        Accepted(name: "raw newline inside quotes", source: "\"a\" = \"line1\nline2\";", expected: ["a": "line1\nline2"]),
        Accepted(name: "CR LF inside quotes", source: "\"a\" = \"x\r\ny\";", expected: ["a": "x\r\ny"]),
        Accepted(name: "empty strings", source: #""" = "";"#, expected: ["": ""]),
        Accepted(name: "last duplicate wins", source: "a = 1; a = 2;", expected: ["a": "2"]),
        Accepted(name: "whitespace U+0009-U+000D", source: "\t\u{0B}\u{0C}\r\na\n=\tb\r;", expected: ["a": "b"]),
        Accepted(name: "U+2028 and U+2029 are whitespace", source: "a\u{2028}=\u{2029}b;", expected: ["a": "b"]),
        Accepted(name: "block comments between tokens", source: "/*c*/a /*c*/=/*c*/b /*c*/;/*c*/", expected: ["a": "b"]),
        Accepted(name: "line comments", source: "// head\na = b; // tail\n// end", expected: ["a": "b"]),
        Accepted(name: "comment-like text in quotes", source: #""/*a*/" = "//b";"#, expected: ["/*a*/": "//b"]),
        Accepted(name: "slash in unquoted token", source: "a/b = c//d;", expected: ["a/b": "c//d"]),
        Accepted(name: "'/*/' does not close", source: "/*/ a = b; */ c = d;", expected: ["c": "d"]),
        Accepted(name: "braced table", source: "{ \"a\" = \"1\"; b = 2; }", expected: ["a": "1", "b": "2"]),
        Accepted(name: "empty braced table", source: "{}", expected: [:]),
        Accepted(name: "whitespace only", source: " \n\t", expected: [:]),
        Accepted(name: "comments only", source: "/* nothing */\n// here\n", expected: [:]),
        Accepted(name: "non-Latin text", source: "\"zh\" = \"你好，世界\"; \"emoji\" = \"👋🏽\";",
                 expected: ["zh": "你好，世界", "emoji": "👋🏽"]),
        // Escapes.
        Accepted(name: "C escapes", source: #"a = "\a\b\f\n\r\t\v";"#, expected: ["a": "\u{07}\u{08}\u{0C}\n\r\t\u{0B}"]),
        Accepted(name: "escaped quotes and backslash", source: #"a = "\"\'\\";"#, expected: ["a": "\"'\\"]),
        Accepted(name: "escaped raw newline", source: "a = \"x\\\ny\";", expected: ["a": "x\ny"]),
        Accepted(name: "other escapes stand for themselves", source: #"a = "\u\@\(\/\%\z";"#, expected: ["a": "u@(/%z"]),
        Accepted(name: "escaped non-ASCII character", source: #"a = "\é\😀";"#, expected: ["a": "é😀"]),
        Accepted(name: "\\U with four digits", source: #"a = "\U00e9\U00C9";"#, expected: ["a": "éÉ"]),
        Accepted(name: "\\U stops after four digits", source: #"a = "\U00e9ab";"#, expected: ["a": "éab"]),
        Accepted(name: "\\U with fewer digits", source: #"a = "\U41x\U7";"#, expected: ["a": "Ax\u{07}"]),
        Accepted(name: "\\U with no digits is U+0000", source: #"a = "\Ux";"#, expected: ["a": "\u{0}x"]),
        Accepted(name: "\\U surrogate pair", source: #"a = "\UD83D\UDE00";"#, expected: ["a": "😀"]),
        Accepted(name: "octal one digit", source: #"a = "\101\0";"#, expected: ["a": "A\u{0}"]),
        Accepted(name: "octal stops at three digits", source: #"a = "\1011";"#, expected: ["a": "A1"]),
        Accepted(name: "octal stops at a non-octal digit", source: #"a = "\18";"#, expected: ["a": "\u{01}8"]),
        Accepted(name: "octal high half is NeXTSTEP", source: #"a = "\351\200\247\341";"#, expected: ["a": "Ø\u{A0}§Æ"]),
        Accepted(name: "octal NeXTSTEP 0xFE has no character", source: #"a = "\376";"#, expected: ["a": "\u{0}"]),
        Accepted(name: "octal wraps like a C byte", source: #"a = "\777\501";"#, expected: ["a": "\u{0}A"]),
        // Documented divergences (docs/FORMAT.md): Foundation fails on these, we read them.
        Accepted(name: "empty file", source: "", expected: [:], foundationAgrees: false),
        Accepted(name: "UTF-8 BOM only", source: "\u{FEFF}", expected: [:], foundationAgrees: false),
    ]

    @Test(arguments: accepted)
    func accepts(_ example: Accepted) throws {
        let bytes = Array(example.source.utf8)
        let table = try StringsFile.parse(bytes)
        #expect(table.dictionary == example.expected)
        if example.foundationAgrees {
            #expect(referenceDictionary(bytes) == example.expected, "Foundation disagrees")
        } else {
            #expect(referenceDictionary(bytes) == nil, "Foundation now accepts this: update docs/FORMAT.md")
        }
    }

    @Test func keepsSourceOrderAndLocations() throws {
        let table = try StringsFile.parse(text: "b = 1;\n  \"a\" = 2;\n/* x */ c = 3; b = 4;")
        #expect(table.keys == ["b", "a", "c"])
        #expect(table["b"] == "4")
        #expect(table.entry(forKey: "a")?.location == SourceLocation(line: 2, column: 3))
        #expect(table.entry(forKey: "c")?.location == SourceLocation(line: 3, column: 9))
        #expect(table.entry(forKey: "b")?.location == SourceLocation(line: 3, column: 16))
        #expect(table.duplicates == [DuplicateKey(key: "b", first: SourceLocation(line: 1, column: 1),
                                                  duplicate: SourceLocation(line: 3, column: 16))])
    }

    @Test func columnsCountScalarsNotBytes() throws {
        let table = try StringsFile.parse(text: "/*é😀*/ a = b;\r\n\r\n  c = d;")
        #expect(table.entry(forKey: "a")?.location == SourceLocation(line: 1, column: 8))
        #expect(table.entry(forKey: "c")?.location == SourceLocation(line: 3, column: 3))
    }

    static let comments: [(source: String, key: String, comment: String?)] = [
        ("/* Title of the main screen */\n\"title\" = \"Home\";", "title", "Title of the main screen"),
        ("/*\n   multi\n   line\n*/\na = b;", "a", "multi\n   line"),
        ("// first\n// second\na = b;", "a", "first\nsecond"),
        ("// unrelated\n\n// related\na = b;", "a", "related"),
        ("/* file header */\n\na = b;", "a", nil),
        ("x = y; /* trailing remark on x */\na = b;", "a", nil),
        ("x = y; /* trailing */\n/* for a */\na = b;", "a", "for a"),
        ("a = b;", "a", nil),
        ("/* first */ /* last */ a = b;", "a", "last"),
        ("/* before */ a /* inside */ = b;", "a", "before"),
        ("/* No comment provided by engineer. */\na = b;", "a", "No comment provided by engineer."),
    ]

    @Test(arguments: comments)
    func keepsTranslatorComments(_ example: (source: String, key: String, comment: String?)) throws {
        let table = try StringsFile.parse(text: example.source)
        #expect(table.entry(forKey: example.key)?.comment == example.comment)
    }
}

@Suite struct DifferencesTests {
    @Test func comparesStoredBytes() throws {
        let old = try StringsFile.parse(text: "a = 1; b = 2; c = 3; \"é\" = x;")
        let new = try StringsFile.parse(text: "c = 3; b = 20; d = 4; \"e\\U0301\" = x;")
        let differences = new.differences(from: old)
        #expect(differences.added.map(\.key) == ["d", "e\u{301}"])
        #expect(differences.changed.map(\.key) == ["b"] && differences.changed.map(\.value) == ["20"])
        #expect(differences.removed == ["a", "é"])
        let same = new.differences(from: new)
        #expect(same.added.isEmpty && same.changed.isEmpty && same.removed.isEmpty)
    }
}
