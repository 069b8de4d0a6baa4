import Foundation
import HotStringsTestSupport
import StringsFormat
import Testing
@testable import HotStringsCLI

struct DumpTests {
    @Test func keysComeOutInSourceOrder() throws {
        let text = "\"zebra\" = \"1\";\n\"apple\" = \"2\";\n\"mango\" = \"3\";\n\"apple\" = \"4\";\n"
        try withFiles(["t.strings": text]) { root in
            let result = run(["dump", "\(root)/t.strings"])
            #expect(result.code == 0)
            #expect(result.stderr.isEmpty)
            #expect(result.stdout == """
                {
                  "zebra" : "1",
                  "apple" : "4",
                  "mango" : "3"
                }

                """)
        }
    }

    @Test func escapesAreValidJSONAndRoundTrip() throws {
        let source = #""q\"b\\" = "tab\there\nnew \U0001 \U001F caf\U00E9 🎉 /";"#
        let table = try StringsFile.parse(text: source)
        let result = run(["dump", "-"], stdin: source)
        #expect(result.code == 0)
        #expect(result.stdout == #"""
            {
              "q\"b\\" : "tab\there\nnew \u0001 \u001f café 🎉 /"
            }

            """#)
        let decoded = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: String]
        #expect(decoded == table.dictionary)
        #expect(decoded?["q\"b\\"] == "tab\there\nnew \u{1} \u{1F} café 🎉 /")
    }

    @Test(arguments: [
        ("plain", "\"plain\""),
        ("say \"hi\"", #""say \"hi\"""#),
        (#"C:\dir"#, #""C:\\dir""#),
        ("a\nb\rc\td\u{8}e\u{C}", #""a\nb\rc\td\be\f""#),
        ("\u{0}\u{1}\u{1F}\u{7F}", #""\u0000\u0001\u001f"#.appending("\u{7F}\"")),
        ("Grüße 你好 🎉 /", "\"Grüße 你好 🎉 /\""),
    ] as [(String, String)])
    func jsonStringEscaping(_ string: String, expected: String) throws {
        #expect(JSONWriter.quoted(string) == expected)
        let decoded = try JSONSerialization.jsonObject(with: Data("[\(expected)]".utf8)) as? [String]
        #expect(decoded == [string])
    }

    @Test func commentsOptionNestsValueAndComment() throws {
        let text = "/* Greets. */\n\"hello\" = \"Hallo\";\n\"bye\" = \"Tschüss\";\n"
        try withFiles(["t.strings": text]) { root in
            let result = run(["dump", "--comments", "\(root)/t.strings"])
            #expect(result.code == 0)
            #expect(result.stdout == """
                {
                  "hello" : {
                    "value" : "Hallo",
                    "comment" : "Greets."
                  },
                  "bye" : {
                    "value" : "Tschüss"
                  }
                }

                """)
        }
    }

    @Test func emptyTableIsAnEmptyObject() {
        let result = run(["dump", "-"], stdin: "/* nothing */")
        #expect(result.code == 0)
        #expect(result.stdout == "{}\n")
    }

    @Test func parseErrorGoesToStandardErrorAndFails() throws {
        let text = "\"a\" = \"b\"\n\"c\" = \"d\";"
        let expected = try #require(throws: ParseError.self) { try StringsFile.parse(text: text) }
        let fromStandardInput = run(["dump", "-"], stdin: text)
        #expect(fromStandardInput.code == 1)
        #expect(fromStandardInput.stdout.isEmpty)
        #expect(fromStandardInput.stderr == expected.formatted(file: "<stdin>") + "\n")
        try withFiles(["bad.strings": text]) { root in
            let fromFile = run(["dump", "\(root)/bad.strings"])
            #expect(fromFile.code == 1)
            #expect(fromFile.stderr == expected.formatted(file: "\(root)/bad.strings") + "\n")
        }
    }

    @Test(arguments: [
        ("/nonexistent/hotstrings.strings", "No such file or directory"),
        ("/", "Is a directory"),
    ])
    func unreadableFileIsNamedWithTheReason(_ path: String, reason: String) {
        let result = run(["dump", path])
        #expect(result.code == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "\(path): error: \(reason)\n")
    }

    @Test func sampleTableInUTF16DumpsLikeFoundationReadsIt() throws {
        let path = "\(sampleBundlePath)/en.lproj/Localizable.strings"
        let result = run(["dump", path])
        #expect(result.code == 0)
        let dumped = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: String]
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let foundation = try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: String]
        #expect(dumped == foundation)
        #expect(dumped?["Done"] == "Done")
        #expect(dumped?["map.cafe"] == "Café Corner")
        #expect(result.stdout.hasPrefix("{\n  \"greeting\" : \"Hello!\",\n  \"welcome.title\" : "))
    }
}
