import Foundation
import HotStringsTestSupport
import StringsFormat
import Testing
@testable import HotStringsCLI
@testable import HotStringsLint

/// How `lint` prints what the linter found: lines, escaping, the summary, caps, `--json`, `-q`, `--werror`, exit
/// codes. What it finds is tested on the linter itself, in HotStringsLintTests.
struct LintTests {
    @Test func parseErrorIsReportedWithLineAndColumnAndFails() throws {
        let text = "\"a\" = \"b\";\n\"c\" = ;\n"
        let expected = try #require(throws: ParseError.self) { try StringsFile.parse(text: text) }
        #expect(expected.line == 2)
        try withFiles(["bad.strings": text, "good.strings": "\"k\" = \"v\";"]) { root in
            let result = run(["lint", root])
            #expect(result.code == 1)
            #expect(result.lines == [
                expected.formatted(file: "\(root)/bad.strings"),
                "2 files, 1 key, 1 error, 0 warnings",
            ])
        }
    }

    /// A file name holding a newline is shown escaped: each diagnostic stays one line (issue 10, finding 7).
    @Test func fileNamesAreShownEscaped() throws {
        try withFiles(["Bad\nname.strings": "\"c\" = ;\n"]) { root in
            let result = run(["lint", root])
            #expect(result.code == 1)
            #expect(result.lines.count == 2, "\(result.lines)")
            #expect(result.lines.first?.hasPrefix("\(root)/Bad\\nname.strings:1:") == true, "\(result.lines)")
        }
    }

    /// `--development-language` is the language the linter compares against (how loosely it matches is
    /// `LinterTests`').
    @Test func developmentLanguageCanBeChanged() throws {
        let files = [
            "English.lproj/T.strings": "\"a\" = \"A\";\n",
            "pt_BR.lproj/T.strings": "\"a\" = \"A\";\n\"b\" = \"B\";\n",
        ]
        try withFiles(files) { root in
            #expect(run(["lint", "--development-language", "pt-br", root]).lines.first
                == "\(root)/English.lproj/T.strings: warning: key 'b' is missing (present in pt_BR.lproj/T.strings)")
        }
    }

    @Test func longListsOfMissingKeysAreCutShortInTextButNotInJSON() throws {
        let english = (1...25).map { "\"key\($0)\" = \"v\";\n" }.joined()
        try withFiles(["en.lproj/L.strings": english, "de.lproj/L.strings": "\"key1\" = \"w\";\n"]) { root in
            let result = run(["lint", root])
            let de = "\(root)/de.lproj/L.strings"
            #expect(result.lines.count == 20 + 2)
            #expect(result.lines[19] == "\(de): warning: key 'key21' is missing (present in en.lproj/L.strings)")
            #expect(result.lines[20] == "\(de): warning: ...and 4 more missing keys")
            #expect(result.lines[21] == "2 files, 26 keys, 0 errors, 24 warnings")

            let json = try JSONDecoder().decode(LintJSON.self, from: Data(run(["lint", "--json", root]).stdout.utf8))
            let diagnostics = try #require(json.files.first { $0.path == de }).diagnostics
            #expect(diagnostics.map(\.key) == (2...25).map { "key\($0)" })
            #expect(json.summary.warnings == 24)
        }
    }

    @Test func quietHidesWarningsAndWerrorFailsOnThem() throws {
        try withFiles(["e.strings": ""]) { root in
            let quiet = run(["lint", "-q", root])
            #expect(quiet.code == 0)
            #expect(quiet.lines == ["1 file, 0 keys, 0 errors, 1 warning"])
            #expect(run(["lint", "--werror", root]).code == 1)
        }
    }

    @Test func sampleBundleLintsCleanWithOneWarning() throws {
        let result = run(["lint", sampleBundlePath])
        #expect(result.code == 0)
        #expect(result.stderr.isEmpty)
        #expect(result.lines == [
            "\(sampleBundlePath)/de.lproj/Localizable.strings: warning: key 'files.header' is missing "
                + "(present in en.lproj/Localizable.strings)",
            "16 files, 104 keys, 0 errors, 1 warning",
        ])
        let output = run(["lint", "--json", sampleBundlePath]).stdout
        let json = try JSONDecoder().decode(LintJSON.self, from: Data(output.utf8))
        let english = try #require(json.files.first { $0.path.hasSuffix("/en.lproj/Localizable.strings") })
        #expect(english.encoding == StringsEncoding.utf16LittleEndianWithBOM.rawValue)
        #expect(Set(json.files.compactMap(\.language)) == ["Base", "de", "en", "fr", "pt-BR", "zh-Hans"])
    }
}
