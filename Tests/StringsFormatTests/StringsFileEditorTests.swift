import Foundation
import Testing
@testable import StringsFormat

/// `StringsFileEditor`: an edit changes the value's bytes and nothing else, in every encoding, and the result
/// parses (ours and Foundation's) to the old table with that one key changed.
@Suite struct StringsFileEditorTests {
    static let hardValues = [
        #"He said "hi" \ and left"#, "line one\nline two\tand a tab", "🎉 party 👩‍👩‍👧 time", "%1$@ has %2$lld items",
        "Привет, мир", "こんにちは世界", "مرحبا بالعالم", "'single' and \"double\"", "\\n stays a backslash and n",
    ]

    // MARK: - Small cases

    @Test(arguments: [
        // (file, key, value, expected file)
        ("\"a\" = \"1\";\n\"b\" = \"2\";\n", "a", "x", "\"a\" = \"x\";\n\"b\" = \"2\";\n"),
        ("a = one;\n", "a", "two words", "a = \"two words\";\n"),
        ("\"a\"  =\t'old' ; // note\n", "a", "it's", "\"a\"  =\t'it\\'s' ; // note\n"),
        ("\"a\";\n", "a", "b", "\"a\" = \"b\";\n"),
        ("\"k\" = \"1\";\n\"k\" = \"2\";\n", "k", "3", "\"k\" = \"1\";\n\"k\" = \"3\";\n"),
        ("\"a\" = \"1\";", "a", "q\"\\\n\t\r\u{1B}", "\"a\" = \"q\\\"\\\\\\n\\t\\r\\U001B\";"),
        ("\"a\" = \"1\";\r\n", "new", "v", "\"a\" = \"1\";\r\n\"new\" = \"v\";\r\n"),
        ("\"a\" = \"1\";", "new", "v", "\"a\" = \"1\";\n\"new\" = \"v\";\n"),
        ("", "new", "v", "\"new\" = \"v\";\n"),
        ("// end without newline", "new", "v", "// end without newline\n\"new\" = \"v\";\n"),
        ("{\n  \"a\" = \"1\";\n}\n", "new", "v", "{\n  \"a\" = \"1\";\n\"new\" = \"v\";\n}\n"),
        ("{ \"a\" = \"1\"; }", "new", "v", "{ \"a\" = \"1\"; \n\"new\" = \"v\";\n}"),
    ])
    func setting(file: String, key: String, value: String, expected: String) throws {
        let result = try StringsFileEditor.setting(key, to: value, in: Array(file.utf8))
        #expect(String(decoding: result, as: UTF8.self) == expected)
        try Self.expectParses(result, to: Self.table(file).dictionary.merging([key: value]) { $1 })
    }

    /// Keys are their exact characters, as the table compares them, not Swift's canonically equivalent `==`.
    @Test func decomposedAndPrecomposedKeysAreTwoKeys() throws {
        let file = Array("\"e\u{301}\" = \"1\";\n\"\u{E9}\" = \"2\";\n".utf8)
        let result = try StringsFileEditor.setting("e\u{301}", to: "3", in: file)
        #expect(result == Array("\"e\u{301}\" = \"3\";\n\"\u{E9}\" = \"2\";\n".utf8))
        let removed = try StringsFileEditor.removing("\u{E9}", in: file)
        #expect(removed == Array("\"e\u{301}\" = \"1\";\n".utf8))
    }

    @Test func newEntryGetsItsComment() throws {
        let result = try StringsFileEditor.setting("new", to: "v", comment: "Shown */ on the button",
                                                   in: Array("\"a\" = \"1\";\n".utf8))
        #expect(String(decoding: result, as: UTF8.self)
                == "\"a\" = \"1\";\n/* Shown * / on the button */\n\"new\" = \"v\";\n")
        let entry = try #require(try StringsFile.parse(result).entries.last)
        #expect(entry.comment == "Shown * / on the button")
    }

    @Test(arguments: [
        // (file, key, expected file)
        ("/* A */\n\"a\" = \"1\";\n\n/* B */\n\"b\" = \"2\";\n\n/* C */\n\"c\" = \"3\";\n", "b",
         "/* A */\n\"a\" = \"1\";\n\n/* C */\n\"c\" = \"3\";\n"),
        ("\"a\" = \"1\";\r\n\"b\" = \"2\"; // remark\r\n\"c\" = \"3\";\r\n", "b", "\"a\" = \"1\";\r\n\"c\" = \"3\";\r\n"),
        ("\"a\" = \"1\"; \"b\" = \"2\"; \"c\" = \"3\";\n", "b", "\"a\" = \"1\"; \"c\" = \"3\";\n"),
        ("\"a\" = \"1\"; \"b\" = \"2\";\n", "b", "\"a\" = \"1\";\n"),
        ("\"b\" = \"1\";\n\"a\" = \"2\";\n\"b\" = \"3\";", "b", "\"a\" = \"2\";\n"),
        ("// header\n\n\"b\" = \"1\";\n\n\"a\" = \"2\";", "b", "// header\n\n\"a\" = \"2\";"),
        ("  \"only\" = \"1\";  ", "only", ""),
    ])
    func removing(file: String, key: String, expected: String) throws {
        let result = try StringsFileEditor.removing(key, in: Array(file.utf8))
        #expect(String(decoding: result, as: UTF8.self) == expected)
        var old = try Self.table(file).dictionary
        old[key] = nil
        try Self.expectParses(result, to: old)
    }

    @Test(arguments: [
        StringsEncoding.utf8WithBOM, .utf16LittleEndianWithBOM, .utf16BigEndianWithBOM, .utf16LittleEndian,
        .utf16BigEndian,
    ])
    func encodingAndByteOrderMarkStay(encoding: StringsEncoding) throws {
        let text = "/* Ünïcode */\n\"greeting\" = \"Hallo\";\n\"other\" = \"Welt\";\n"
        let edited = "/* Ünïcode */\n\"greeting\" = \"こんにちは 🎉\";\n\"other\" = \"Welt\";\n"
        let result = try StringsFileEditor.setting("greeting", to: "こんにちは 🎉", in: Self.encode(text, encoding))
        #expect(result == Self.encode(edited, encoding))
        #expect(try StringsFile.parse(result).encoding == encoding)
        let removed = try StringsFileEditor.removing("other", in: result)
        #expect(removed == Self.encode("/* Ünïcode */\n\"greeting\" = \"こんにちは 🎉\";\n", encoding))
    }

    // MARK: - Bad input

    @Test func badInputIsRefused() throws {
        let file = Array("\"a\" = \"1\";\n".utf8)
        #expect(throws: EditError.self) { try StringsFileEditor.setting("a", to: "x\u{0}y", in: file) }
        for (key, value) in [("a\u{0}", "x"), ("", "x"), ("a", "x\u{0}")] {
            do {
                _ = try StringsFileEditor.setting(key, to: value, in: file)
                Issue.record("accepted \(key.debugDescription) = \(value.debugDescription)")
            } catch {
                #expect(error.code == .invalidValue)
            }
        }
        do {
            _ = try StringsFileEditor.removing("missing", in: file)
            Issue.record("removed a missing key")
        } catch {
            #expect(error.code == .noSuchKey)
        }
    }

    @Test func unreadableFileSaysWhere() throws {
        do {
            _ = try StringsFileEditor.setting("a", to: "x", in: Array("\"a\" = \"1\";\n\"b\" = \"2\"\n\"c\" = \"3\";".utf8))
            Issue.record("edited a broken file")
        } catch {
            #expect(error.code == .unreadable)
            #expect(error.parseError?.line == 3)
            #expect(error.parseError?.column == 1)
        }
    }

    @Test func binaryPropertyListCannotBeEdited() throws {
        do {
            _ = try StringsFileEditor.setting("a", to: "x", in: Array("bplist00".utf8))
            Issue.record("edited a binary property list")
        } catch {
            #expect(error.code == .cannotEdit)
        }
    }

    // MARK: - Helpers

    static func table(_ text: String) throws -> StringsTable { try StringsFile.parse(Array(text.utf8)) }

    /// Both parsers read `bytes` as `expected`.
    static func expectParses(
        _ bytes: [UInt8], to expected: [String: String], sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws {
        #expect(try StringsFile.parse(bytes).dictionary == expected, sourceLocation: sourceLocation)
        guard !expected.isEmpty else { return }  // Foundation refuses an empty file (docs/FORMAT.md)
        let foundation = try PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil)
        #expect(foundation as? [String: String] == expected, sourceLocation: sourceLocation)
    }

    static func encode(_ text: String, _ encoding: StringsEncoding) -> [UInt8] {
        func utf16(bigEndian: Bool) -> [UInt8] {
            text.utf16.flatMap { unit in
                bigEndian ? [UInt8(unit >> 8), UInt8(unit & 0xFF)] : [UInt8(unit & 0xFF), UInt8(unit >> 8)]
            }
        }
        switch encoding {
        case .utf8, .binaryPropertyList: return Array(text.utf8)
        case .utf8WithBOM: return [0xEF, 0xBB, 0xBF] + Array(text.utf8)
        case .utf16LittleEndianWithBOM: return [0xFF, 0xFE] + utf16(bigEndian: false)
        case .utf16BigEndianWithBOM: return [0xFE, 0xFF] + utf16(bigEndian: true)
        case .utf16LittleEndian: return utf16(bigEndian: false)
        case .utf16BigEndian: return utf16(bigEndian: true)
        }
    }
}
