import Foundation
import HotStringsTestSupport
import StringsFormat
import Testing
@testable import HotStringsCLI
@testable import HotStringsLint

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

    @Test func duplicateKeyIsAWarningNamingBothPlaces() throws {
        try withFiles(["dup.strings": "\"a\" = \"1\";\n\"b\" = \"2\";\n  \"a\" = \"3\";\n"]) { root in
            let result = run(["lint", "\(root)/dup.strings"])
            #expect(result.code == 0)
            #expect(result.lines == [
                "\(root)/dup.strings:3:3: warning: duplicate key 'a' (first defined at 1:1); the last value wins",
                "1 file, 2 keys, 0 errors, 1 warning",
            ])
        }
    }

    @Test(arguments: ["", "/* only a comment */\n", "\u{FEFF}"])
    func fileWithoutEntriesIsEmpty(_ text: String) throws {
        try withFiles(["empty.strings": text]) { root in
            let result = run(["lint", root])
            #expect(result.code == 0)
            #expect(result.lines == [
                "\(root)/empty.strings: warning: file is empty", "1 file, 0 keys, 0 errors, 1 warning",
            ])
        }
    }

    @Test func translationsAreComparedWithTheDevelopmentLanguage() throws {
        let files = [
            "App/en.lproj/Localizable.strings": "\"a\" = \"A\";\n\"b\" = \"B\";\n\"c\" = \"C\";\n",
            "App/de.lproj/Localizable.strings": "\"a\" = \"A\";\n\"z\" = \"Z\";\n",
            "App/fr.lproj/Localizable.strings": "\"a\" = \"A\";\n\"b\" = \"B\";\n\"c\" = \"C\";\n",
            "App/Base.lproj/Localizable.strings": "\"only.base\" = \"x\";\n",
            "App/de.lproj/Other.strings": "\"no.english.table\" = \"x\";\n",
            "NoEnglish/de.lproj/Localizable.strings": "\"x\" = \"y\";\n",
            "NoEnglish/fr.lproj/Localizable.strings": "\"q\" = \"y\";\n",
            "App/.hidden.lproj/Localizable.strings": "not even valid",
            "App/notes.txt": "not a strings file",
        ]
        try withFiles(files) { root in
            let result = run(["lint", root])
            let de = "\(root)/App/de.lproj/Localizable.strings"
            #expect(result.code == 0)
            #expect(result.lines == [
                "\(root)/App/.hidden.lproj: note: a hidden name: not served as a language folder",
                "\(de): warning: key 'b' is missing (present in en.lproj/Localizable.strings)",
                "\(de): warning: key 'c' is missing (present in en.lproj/Localizable.strings)",
                "\(de):2:1: warning: key 'z' is not in the development language (en)",
                "7 files, 12 keys, 0 errors, 3 warnings, 1 skipped",
            ])
        }
    }

    /// A `.strings` translation whose specifiers take other arguments than the development language's (`%d` as
    /// `%@`, a `%d` more or less) crashes or garbles the app that formats it: an error at the translated entry.
    /// Positions that reorder the same arguments, `%%` and length modifiers are no difference.
    @Test func stringsFormatSpecifiersThatDifferFromTheDevelopmentLanguageAreErrors() throws {
        let english = """
            "count" = "%d files";
            "pair" = "%@ sent %d messages";
            "percent" = "100%% done";
            "long" = "%ld bytes";
            "plain" = "Hello";
            "star" = "%*d";

            """
        let files = [
            "App/en.lproj/L.strings": english,
            "App/de.lproj/L.strings": """
                "count" = "%@ Dateien";
                "pair" = "%2$d Nachrichten von %1$@";
                "percent" = "100 %% fertig";
                "long" = "%lld Bytes";
                  "plain" = "Hallo %d";
                "star" = "%d";

                """,
            "App/fr.lproj/L.strings": english,
            "App/Base.lproj/L.strings": "\"count\" = \"%@\";\n",
        ]
        try withFiles(files) { root in
            let result = run(["lint", root])
            let de = "\(root)/App/de.lproj/L.strings"
            #expect(result.code == 1)
            #expect(result.lines == [
                "\(de):1:1: error: 'count': '%@' takes argument 1 as an object, where en's '%d' takes an integer",
                "\(de):5:3: warning: 'plain': '%d' takes argument 1, which en does not give (en takes none; write %% "
                    + "for a percent sign)",
                "\(de):6:1: warning: 'star': argument 2 (en's '%*d') is left out",
                "4 files, 19 keys, 1 error, 2 warnings",
            ])
        }
    }

    @Test func developmentLanguageMatchesTagsLooselyAndCanBeChanged() throws {
        let files = [
            "English.lproj/T.strings": "\"a\" = \"A\";\n",
            "pt_BR.lproj/T.strings": "\"a\" = \"A\";\n\"b\" = \"B\";\n",
        ]
        try withFiles(files) { root in
            #expect(run(["lint", root]).lines.first == "\(root)/pt_BR.lproj/T.strings:2:1: "
                + "warning: key 'b' is not in the development language (en)")
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

    @Test func jsonOutputDecodesAndItsCountsAddUp() throws {
        let files = [
            "en.lproj/L.strings": "\"a\" = \"A\";\n\"a\" = \"B\";\n\"b\" = \"C\";\n",
            "de.lproj/L.strings": "\"a\" = \"A\";\n\"b\" = ;\n",
            "fr.lproj/L.strings": "\"a\" = \"A\";\n",
        ]
        try withFiles(files) { root in
            let result = run(["lint", "--json", root, "\(root)/missing.strings"])
            #expect(result.code == 1)
            let json = try JSONDecoder().decode(LintJSON.self, from: Data(result.stdout.utf8))
            let all = json.files.flatMap(\.diagnostics)
            #expect(json.files.map(\.path) == ["de", "en", "fr"].map { "\(root)/\($0).lproj/L.strings" }
                + ["\(root)/missing.strings"])
            #expect(json.summary == LintJSON.Summary(
                files: 4, keys: json.files.reduce(0) { $0 + $1.keys }, errors: all.count { $0.severity == "error" },
                warnings: all.count { $0.severity == "warning" }))
            #expect(json.summary.errors == 2)
            #expect(json.summary.warnings == 2)
            #expect(json.files[0].diagnostics.first?.line == 2)
            #expect(json.files[1].diagnostics == [LintJSON.Diagnostic(
                severity: "warning", line: 2, column: 1,
                message: "duplicate key 'a' (first defined at 1:1); the last value wins", key: "a")])
            #expect(json.files[1].encoding == "UTF-8")
            #expect(json.files[2].language == "fr")
            #expect(json.files[2].table == "L")
            #expect(json.files[3].diagnostics.first?.message == "No such file or directory")
            #expect(!result.stdout.contains("\\/"))
        }
    }

    @Test func unreadablePathIsAnErrorWithTheSystemReason() {
        let result = run(["lint", "/nonexistent/hotstrings/x.strings"])
        #expect(result.code == 1)
        #expect(result.lines == [
            "/nonexistent/hotstrings/x.strings: error: No such file or directory",
            "1 file, 0 keys, 1 error, 0 warnings",
        ])
    }

    @Test func quietHidesWarningsAndWerrorFailsOnThem() throws {
        try withFiles(["e.strings": ""]) { root in
            let quiet = run(["lint", "-q", root])
            #expect(quiet.code == 0)
            #expect(quiet.lines == ["1 file, 0 keys, 0 errors, 1 warning"])
            #expect(run(["lint", "--werror", root]).code == 1)
        }
    }

    @Test func aFileGivenTwiceIsLintedOnce() throws {
        try withFiles(["a.strings": "\"k\" = \"v\";"]) { root in
            let result = run(["lint", root, "\(root)/a.strings", "\(root)/./a.strings"])
            #expect(result.lines == ["1 file, 1 key, 0 errors, 0 warnings"])
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
