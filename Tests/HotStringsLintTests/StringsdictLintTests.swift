import HotStringsTestSupport
import Testing
@testable import HotStringsLint

/// `Linter` on `.stringsdict` files: entries that cannot format, and plural categories that do not fit the language.
struct StringsdictLintTests {
    @Test func brokenEntriesAndCategoryProblemsAreFound() throws {
        let english = StringsdictText.plist(
            StringsdictText.entry("files", [("one", "%d file"), ("other", "%d files")])
            + StringsdictText.entry("count", [("one", "%d thing")])
            + StringsdictText.entry("nested", format: "%#@n@ %#@ghost@", [("other", "%d")]))
        let russian = StringsdictText.plist(
            StringsdictText.entry("files", [("one", "%d файл"), ("two", "%d файла"), ("other", "%d файлов")])
            + StringsdictText.entry("count", valueType: "@",
                                    [("one", "%@"), ("few", "%@"), ("many", "%@"), ("other", "%@")]))
        let linted = try LintedFolder(["en.lproj/L.stringsdict": english, "ru.lproj/L.stringsdict": russian])
        let en = "en.lproj/L.stringsdict"
        let ru = "ru.lproj/L.stringsdict"
        #expect(linted.findings == [
            "\(en):9:1: error: 'count': variable 'n' has no 'other' form",
            "\(en):14:1: warning: 'nested': variable 'n' lacks 'one', which 'en' needs",
            "\(en):14:1: error: 'nested': '%#@ghost@' is not defined in the entry",
            "\(ru):4:1: warning: 'files': variable 'n' has 'two', which 'ru' does not use (it uses one, few, "
                + "many, other)",
            "\(ru):4:1: warning: 'files': variable 'n' lacks 'few', 'many', which 'ru' needs",
            "\(ru):9:1: error: 'count': '%#@n@' takes argument 1 as an object, where en's '%#@n@' takes an "
                + "integer",
            "\(ru):9:1: error: 'count', form 'one' of 'n': '%@' takes argument 1 as an object, where en's '%#@n@' "
                + "takes an integer (also in form 'few' of 'n', form 'many' of 'n', form 'other' of 'n')",
        ])
        #expect(linted.summary == LintJSON.Summary(files: 2, keys: 5, errors: 4, warnings: 3))
    }
}
