import HotStringsTestSupport
import StringsFormat
import Testing
@testable import HotStringsLint

/// `Linter` on `.strings` files: syntax, duplicates, emptiness, and the comparison of each language with the
/// development language's.
struct LinterTests {
    @Test func aParseErrorIsAnErrorAtItsLineAndColumn() throws {
        let text = "\"a\" = \"b\";\n\"c\" = ;\n"
        let expected = try #require(throws: ParseError.self) { try StringsFile.parse(text: text) }
        let linted = try LintedFolder(["bad.strings": text, "good.strings": "\"k\" = \"v\";"])
        #expect(linted.findings == ["bad.strings:\(expected.line):\(expected.column): error: \(expected.reason)"])
        #expect(linted.report.files.first?.diagnostics.first?.kind == .parseError)
        #expect(linted.summary == LintJSON.Summary(files: 2, keys: 1, errors: 1, warnings: 0))
    }

    @Test func duplicateKeyIsAWarningNamingBothPlaces() throws {
        let linted = try LintedFolder(["dup.strings": "\"a\" = \"1\";\n\"b\" = \"2\";\n  \"a\" = \"3\";\n"],
                                      paths: ["dup.strings"])
        #expect(linted.findings == [
            "dup.strings:3:3: warning: duplicate key 'a' (first defined at 1:1); the last value wins",
        ])
        #expect(linted.summary == LintJSON.Summary(files: 1, keys: 2, errors: 0, warnings: 1))
    }

    @Test(arguments: ["", "/* only a comment */\n", "\u{FEFF}"])
    func fileWithoutEntriesIsEmpty(_ text: String) throws {
        let linted = try LintedFolder(["empty.strings": text])
        #expect(linted.findings == ["empty.strings: warning: file is empty"])
        #expect(linted.summary == LintJSON.Summary(files: 1, keys: 0, errors: 0, warnings: 1))
    }

    @Test func translationsAreComparedWithTheDevelopmentLanguage() throws {
        let linted = try LintedFolder([
            "App/en.lproj/Localizable.strings": "\"a\" = \"A\";\n\"b\" = \"B\";\n\"c\" = \"C\";\n",
            "App/de.lproj/Localizable.strings": "\"a\" = \"A\";\n\"z\" = \"Z\";\n",
            "App/fr.lproj/Localizable.strings": "\"a\" = \"A\";\n\"b\" = \"B\";\n\"c\" = \"C\";\n",
            "App/Base.lproj/Localizable.strings": "\"only.base\" = \"x\";\n",
            "App/de.lproj/Other.strings": "\"no.english.table\" = \"x\";\n",
            "NoEnglish/de.lproj/Localizable.strings": "\"x\" = \"y\";\n",
            "NoEnglish/fr.lproj/Localizable.strings": "\"q\" = \"y\";\n",
            "App/.hidden.lproj/Localizable.strings": "not even valid",
            "App/notes.txt": "not a strings file",
        ])
        let de = "App/de.lproj/Localizable.strings"
        #expect(linted.findings == [
            "App/.hidden.lproj: note: a hidden name: not served as a language folder",
            "\(de): warning: key 'b' is missing (present in en.lproj/Localizable.strings)",
            "\(de): warning: key 'c' is missing (present in en.lproj/Localizable.strings)",
            "\(de):2:1: warning: key 'z' is not in the development language (en)",
        ])
        #expect(linted.summary == LintJSON.Summary(files: 7, keys: 12, errors: 0, warnings: 3, skipped: 1))
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
        let linted = try LintedFolder([
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
        ])
        let de = "App/de.lproj/L.strings"
        #expect(linted.findings == [
            "\(de):1:1: error: 'count': '%@' takes argument 1 as an object, where en's '%d' takes an integer",
            "\(de):5:3: warning: 'plain': '%d' takes argument 1, which en does not give (en takes none; write %% "
                + "for a percent sign)",
            "\(de):6:1: warning: 'star': argument 2 (en's '%*d') is left out",
        ])
        #expect(linted.summary == LintJSON.Summary(files: 4, keys: 19, errors: 1, warnings: 2))
    }

    /// The development language matches folders as language tags: `English.lproj` is `en`, `pt-br` is
    /// `pt_BR.lproj`.
    @Test func developmentLanguageMatchesTagsLoosely() throws {
        let files = [
            "English.lproj/T.strings": "\"a\" = \"A\";\n",
            "pt_BR.lproj/T.strings": "\"a\" = \"A\";\n\"b\" = \"B\";\n",
        ]
        #expect(try LintedFolder(files).findings == [
            "pt_BR.lproj/T.strings:2:1: warning: key 'b' is not in the development language (en)",
        ])
        #expect(try LintedFolder(files, developmentLanguage: "pt-br").findings == [
            "English.lproj/T.strings: warning: key 'b' is missing (present in pt_BR.lproj/T.strings)",
        ])
    }

    @Test func unreadablePathIsAnErrorWithTheSystemReason() {
        let report = Linter(developmentLanguage: "en").lint(paths: ["/nonexistent/hotstrings/x.strings"])
        #expect(report.findings() == ["/nonexistent/hotstrings/x.strings: error: No such file or directory"])
        #expect(report.files.first?.diagnostics.first?.kind == .unreadable)
        #expect(report.document.summary == LintJSON.Summary(files: 1, keys: 0, errors: 1, warnings: 0))
    }

    @Test func aFileGivenTwiceIsLintedOnce() throws {
        let linted = try LintedFolder(["a.strings": "\"k\" = \"v\";"], paths: ["", "a.strings", "./a.strings"])
        #expect(linted.report.files.count == 1)
        #expect(linted.summary == LintJSON.Summary(files: 1, keys: 1, errors: 0, warnings: 0))
    }
}
