import Testing
@testable import StringsFormat

@Suite("JSON parsing")
struct JSONParserTests {
    static let valid: [(String, JSONValue)] = [
        ("null", .null),
        (" true ", .bool(true)),
        ("\t\r\nfalse", .bool(false)),
        ("0", .number(0)),
        ("-0", .number(0)),
        ("123", .number(123)),
        ("-9223372036854775808", .number(.min)),
        ("9223372036854775808", .double(9_223_372_036_854_775_808)),
        ("1.25", .double(1.25)),
        ("1E3", .double(1000)),
        ("2e-2", .double(0.02)),
        (#""""#, .string("")),
        (#""a\"b\\c\/d\n\r\t\b\f""#, .string("a\"b\\c/d\n\r\t\u{8}\u{C}")),
        (#""\u0041\u00e9\u2028\u0000""#, .string("Aé\u{2028}\u{0}")),
        (#""\ud83d\udc4b""#, .string("👋")),
        ("\"raw ü 👋\"", .string("raw ü 👋")),
        ("[]", .array([])),
        ("[1, [2, []]]", [1, [2, []]]),
        (#"{"b":1,"a":{"c":null}}"#, ["b": 1, "a": ["c": nil]]),
        (#"{ "k" : "v" , "k" : "w" }"#, ["k": "v", "k": "w"]),
    ]

    @Test("valid JSON parses, object members in order", arguments: valid)
    func parsesValid(text: String, expected: JSONValue) throws {
        #expect(try JSONValue(parsing: Array(text.utf8)) == expected)
    }

    static let invalid: [(String, String)] = [
        ("", "unexpected end of input"),
        ("   ", "unexpected end of input"),
        ("nul", "invalid literal"),
        ("True", "unexpected character"),
        ("01", "leading zero in number"),
        ("-", "invalid number"),
        ("1.", "invalid number"),
        (".5", "unexpected character"),
        ("1e", "invalid number"),
        ("+1", "unexpected character"),
        ("NaN", "unexpected character"),
        ("[1,]", "unexpected character"),
        ("[1 2]", "expected ',' or ']'"),
        ("[1", "unterminated array"),
        (#"{"a":1,}"#, "expected a member name"),
        (#"{"a" 1}"#, "expected ':'"),
        (#"{"a":1"#, "unterminated object"),
        (#"{a:1}"#, "expected a member name"),
        (#"{"a":1}x"#, "unexpected content after the value"),
        ("{} {}", "unexpected content after the value"),
        (#""abc"#, "unterminated string"),
        (#""ab\"#, "unterminated string"),
        ("\"tab\there\"", "control character in string"),
        ("\"new\nline\"", "control character in string"),
        (#""\x41""#, "invalid escape"),
        (#""\u12""#, "invalid \\u escape"),
        (#""\u12G4""#, "invalid \\u escape"),
        (#""\ud83d""#, "lone surrogate escape"),
        (#""\ud83d\u0041""#, "lone surrogate escape"),
        (#""\udc4b""#, "lone surrogate escape"),
        ("'single'", "unexpected character"),
    ]

    @Test("invalid JSON is rejected with the reason", arguments: invalid)
    func rejectsInvalid(text: String, reason: String) {
        #expect(throws: JSONSyntaxError.self) { try JSONValue(parsing: Array(text.utf8)) }
        do {
            _ = try JSONValue(parsing: Array(text.utf8))
        } catch {
            #expect(error.reason == reason)
        }
    }

    @Test("invalid UTF-8 and binary garbage are rejected")
    func rejectsInvalidUTF8() {
        let cases: [[UInt8]] = [
            [0x22, 0xFF, 0x22],
            [0x22, 0xC3, 0x22],  // truncated two-byte sequence
            [0x22, 0xED, 0xA0, 0x80, 0x22],  // an encoded surrogate
            [0x22, 0x5C, 0x6E, 0xC0, 0xAF, 0x22],  // overlong "/" after an escape
            [0x22, 0xC3, 0x5C, 0x6E, 0x22],  // a sequence cut by an escape
            [0x22, 0xE2, 0x82, 0x5C, 0x75, 0x30, 0x30, 0x41, 0x43, 0x22],  // cut by a \u escape of its end
            [0x22, 0x61, 0xF4, 0x90, 0x80, 0x80, 0x22],  // above U+10FFFF, no escape
            [0x00, 0x01, 0x02, 0xFE],
            [0x7B, 0x00, 0x7D],
        ]
        for bytes in cases {
            #expect(throws: JSONSyntaxError.self) { try JSONValue(parsing: bytes) }
        }
    }

    @Test("non-ASCII text reads the same with and without escapes around it")
    func nonASCIIWithEscapes() throws {
        let text = "é終😀"
        for json in ["\"\(text)\"", "\"\\n\(text)\\t\"", "\"\(text)\\u00e9\\ud83d\\ude00\""] {
            let expected = json.replacingOccurrences(of: "\\n", with: "\n").replacingOccurrences(of: "\\t", with: "\t")
                .replacingOccurrences(of: "\\u00e9", with: "é").replacingOccurrences(of: "\\ud83d\\ude00", with: "😀")
                .dropFirst().dropLast()
            #expect(try JSONValue(parsing: Array(json.utf8)) == .string(String(expected)), "\(json)")
        }
    }

    @Test("nesting deeper than the limit is an error, not a stack overflow")
    func depthLimit() throws {
        let allowed = String(repeating: "[", count: JSONValue.maximumDepth)
            + String(repeating: "]", count: JSONValue.maximumDepth)
        #expect(throws: Never.self) { try JSONValue(parsing: Array(allowed.utf8)) }
        let deep = Array(repeating: UInt8(ascii: "["), count: 60_000)
        #expect(throws: JSONSyntaxError.self) { try JSONValue(parsing: deep) }
        let deepObjects = Array(String(repeating: #"{"a":"#, count: 10_000).utf8)
        #expect(throws: JSONSyntaxError.self) { try JSONValue(parsing: deepObjects) }
    }

    @Test("non-contiguous collections parse like arrays")
    func nonContiguous() throws {
        let bytes = Array(#"{"k":[1,"ü"]}"#.utf8)
        let value = try JSONValue(parsing: bytes.lazy.map { $0 })
        #expect(value == ["k": [1, "ü"]])
        #expect(try JSONValue(parsing: bytes[...]) == value)
    }

    @Test("the error names the byte offset")
    func errorOffset() {
        do {
            _ = try JSONValue(parsing: Array(#"{"a": tru}"#.utf8))
            Issue.record("expected an error")
        } catch {
            #expect(error.offset == 6)
            #expect(error.description == "invalid literal at byte 6")
        }
    }
}
