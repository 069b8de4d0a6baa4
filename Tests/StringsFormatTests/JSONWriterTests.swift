import Foundation
import Testing
@testable import StringsFormat

@Suite("JSON writing")
struct JSONWriterTests {
    static let escapes: [(String, String)] = [
        ("plain", #""plain""#),
        ("", #""""#),
        ("say \"hi\"", #""say \"hi\"""#),
        ("back\\slash", #""back\\slash""#),
        ("a/b", #""a/b""#),
        ("line\nbreak\r\n", #""line\nbreak\r\n""#),
        ("tab\there", #""tab\there""#),
        ("\u{8}\u{C}", #""\b\f""#),
        ("nul\u{0}byte", #""nul\u0000byte""#),
        ("\u{1}\u{1F}\u{1B}", #""\u0001\u001f\u001b""#),
        ("del\u{7F}", "\"del\u{7F}\""),
        ("sep\u{2028}para\u{2029}", #""sep\u2028para\u2029""#),
        ("Grüße € ✓", "\"Grüße € ✓\""),
        ("\u{2027}\u{202A}", "\"\u{2027}\u{202A}\""),  // neighbours of U+2028 share the E2 80 prefix
        ("emoji 👋🏽 family 👨‍👩‍👧", "\"emoji 👋🏽 family 👨‍👩‍👧\""),
        ("%1$@ has %2$d", #""%1$@ has %2$d""#),
    ]

    @Test("strings are escaped as JSON requires, non-ASCII kept as UTF-8", arguments: escapes)
    func escaping(input: String, expected: String) throws {
        let bytes = JSONValue.string(input).serialized()
        #expect(String(decoding: bytes, as: UTF8.self) == expected)
        #expect(!bytes.contains(0x0A))
        // Foundation reads back the same string, and so does our parser.
        let decoded = try JSONSerialization.jsonObject(with: Data(bytes), options: .fragmentsAllowed) as? String
        #expect(decoded == input)
        #expect(try JSONValue(parsing: bytes) == .string(input))
    }

    static let values: [(JSONValue, String)] = [
        (.null, "null"),
        (.bool(true), "true"),
        (.bool(false), "false"),
        (.number(0), "0"),
        (.number(-42), "-42"),
        (.number(.max), "9223372036854775807"),
        (.number(.min), "-9223372036854775808"),
        (.double(1.5), "1.5"),
        (.double(1), "1.0"),
        (.double(1e-7), "1e-07"),
        (.double(.nan), "null"),
        (.double(.infinity), "null"),
        (.array([]), "[]"),
        (.object([]), "{}"),
        ([1, "two", nil, [true]], #"[1,"two",null,[true]]"#),
        (["z": 1, "a": ["k": "v"], "m": []], #"{"z":1,"a":{"k":"v"},"m":[]}"#),
    ]

    @Test("values serialize compactly, object members in order", arguments: values)
    func serialization(value: JSONValue, expected: String) {
        #expect(String(decoding: value.serialized(), as: UTF8.self) == expected)
        #expect(value.description == expected)
    }

    @Test("integers of every size are written in decimal")
    func integers() {
        for value: UInt64 in [0, 7, 9, 10, 99, 100, 1 << 53, .max] {
            var out: [UInt8] = []
            JSONWriter.appendInteger(value, to: &out)
            #expect(String(decoding: out, as: UTF8.self) == String(value))
        }
    }

    @Test("every special byte is escaped at every position of the eight-byte scan")
    func escapingAtEveryPosition() {
        let specials: [(String, String)] = [
            ("\"", #"\""#), ("\\", #"\\"#), ("\n", #"\n"#), ("\u{0}", #"\u0000"#), ("\u{1F}", #"\u001f"#),
            ("\u{2028}", #"\u2028"#), ("\u{2029}", #"\u2029"#), ("\u{2026}", "\u{2026}"), (" ", " "),
            ("\u{7F}", "\u{7F}"),
        ]
        for (special, escaped) in specials {
            for length in [7, 8, 9, 16, 17, 24] {
                for position in 0..<length {
                    let input = String(repeating: "a", count: position) + special
                        + String(repeating: "b", count: length - position)
                    let expected = "\"" + String(repeating: "a", count: position) + escaped
                        + String(repeating: "b", count: length - position) + "\""
                    #expect(JSONValue.string(input).description == expected)
                }
            }
        }
    }

    @Test("a long string with scattered escapes survives a round trip through Foundation")
    func longString() throws {
        let piece = "abc\"def\\ghi\njkl\u{2028}mnö\u{1}"
        let input = String(repeating: piece, count: 2_000)
        let bytes = JSONValue.string(input).serialized()
        let decoded = try JSONSerialization.jsonObject(with: Data(bytes), options: .fragmentsAllowed) as? String
        #expect(decoded == input)
    }

    @Test("helpers build the values they name")
    func helpers() {
        #expect(JSONValue.string(orNull: nil) == .null)
        #expect(JSONValue.string(orNull: "x") == .string("x"))
        #expect(JSONValue.integer(UInt64(5)) == .number(5))
        #expect(JSONValue.strings(["a", "b"]) == .array([.string("a"), .string("b")]))
        let object: JSONValue = ["a": 1, "a": 2, "b": nil]
        #expect(object["a"] == .number(2))
        #expect(object["b"]?.isNull == true)
        #expect(object["c"] == nil)
        #expect(JSONValue.number(1)["a"] == nil)
        #expect(object != ["a": 2, "a": 1, "b": nil])
        #expect(JSONValue.number(1) != .double(1))
    }
}
