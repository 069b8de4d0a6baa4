import HotStringsTestSupport
import StringsFormat
import Testing
@testable import HotStringsLint

/// `CatalogLinter`: a String Catalog's syntax, plural categories and translation states.
struct CatalogLinterTests {
    @Test func statesAreCountedAndPluralCategoriesChecked() {
        let file = CatalogLinter.lint(Array(CatalogText.unfinishedPolish.utf8), path: "T.xcstrings")
        #expect(LintReport(files: [file]).findings() == [
            "T.xcstrings:2:3: error: key '%lld files', language 'pl': plural variations have no 'other' form",
            "T.xcstrings:2:3: warning: key '%lld files', language 'pl': plural variations lack 'many', "
                + "which the language uses",
            "T.xcstrings:2:3: warning: key '%lld files', language 'pl': plural variations have 'two', "
                + "which the language never uses",
            "T.xcstrings: warning: language 'pl': 1 new (new), 1 needs review (needs_review), 1 stale (stale)",
        ])
        #expect(file.catalog?.entries.count == 3)
    }

    @Test func aSyntaxErrorIsAnErrorAtItsPlace() {
        let text = "{\"sourceLanguage\":\"en\",\n\"strings\":{\"k\":{\"comment\":1}}}"
        let file = CatalogLinter.lint(Array(text.utf8), path: "T.xcstrings")
        #expect(LintReport(files: [file]).findings() == ["T.xcstrings:2:27: error: 'comment' must be a string"])
        #expect(file.diagnostics.first?.kind == .parseError)
        #expect(file.catalog == nil)
    }
}

/// What a malicious translator can put in a catalog or a `.stringsdict` (issue 20): variables that expand k⁸-fold
/// (finding 2) and catalog languages that are paths (finding 7) are errors.
struct HostileTableLintTests {
    @Test func theExpansionBombsAreErrors() throws {
        let linted = try LintedFolder(["en.lproj/Bomb.stringsdict": HostileTables.pluralBomb,
                                       "Bomb.xcstrings": HostileTables.catalogBomb])
        #expect(linted.findings.contains(
            "en.lproj/Bomb.stringsdict:4:3: error: entry 'bomb': variable 'a' nests more than 8 deep "
                + "(does it refer to itself?)"), "\(linted.findings)")
        #expect(linted.findings.contains { $0.hasPrefix("Bomb.xcstrings:1:")
            && $0.contains("error: key 'bomb', language 'en': variable 'a' nests more than 8 deep") },
            "\(linted.findings)")
        #expect(linted.summary.errors == 2 && linted.summary.warnings == 0, "\(linted.findings)")
    }

    @Test(arguments: HostileTables.escapingLanguages)
    func aLanguageThatIsNotATagIsAnError(language: String) {
        let catalog = HostileTables.catalog(language: language)
        let translated = CatalogLinter.lint(Array(catalog.utf8), path: "T.xcstrings")
        let shown = DisplayText.escaped(language)
        #expect(LintReport(files: [translated]).findings().contains(
            "T.xcstrings:2:3: error: key 'greeting': language '\(shown)' is not a language tag"),
            "\(translated.diagnostics)")
        let source = HostileTables.catalog(language: "fr", sourceLanguage: language)
        let file = CatalogLinter.lint(Array(source.utf8), path: "T.xcstrings")
        #expect(LintReport(files: [file]).findings().contains(
            "T.xcstrings: error: sourceLanguage '\(shown)' is not a language tag"), "\(file.diagnostics)")
    }
}
