import Foundation
import Testing
@testable import HotStringsCLI

/// `hotstrings plural`, `dump` of a `.stringsdict`, and `lint` of `.stringsdict` files, in memory.
struct PluralCommandTests {
    static func plist(_ entries: String) -> String {
        #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n<plist version=\"1.0\">\n<dict>\n" + entries
            + "</dict>\n</plist>\n"
    }

    static func entry(_ key: String, format: String = "%#@n@", valueType: String = "d", _ forms: [(String, String)])
        -> String {
        "<key>\(key)</key>\n<dict>\n<key>NSStringLocalizedFormatKey</key><string>\(format)</string>\n"
            + "<key>n</key><dict><key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>"
            + "<key>NSStringFormatValueTypeKey</key><string>\(valueType)</string>"
            + forms.map { "<key>\($0.0)</key><string>\($0.1)</string>" }.joined() + "</dict>\n</dict>\n"
    }

    @Test func pluralPrintsEachNumbersCategory() {
        #expect(run(["plural", "ru", "1", "2", "5", "1.5", "21"]).lines
            == ["1 one", "2 few", "5 many", "1.5 other", "21 one"])
        #expect(run(["plural", "en", "1", "1.0"]).lines == ["1 one", "1.0 other"])
        #expect(run(["plural", "--ordinal", "en", "1", "2", "3", "11", "--", "-22"]).lines
            == ["1 one", "2 two", "3 few", "11 other", "-22 two"])
        #expect(run(["plural", "--categories", "ar"]).lines
            == ["zero one two few many other (cardinal rules of 'ar')"])
        #expect(run(["plural", "pt-PT", "1c6"]).lines == ["1c6 many"])
    }

    @Test func pluralRejectsWhatIsNotANumber() {
        let bad = run(["plural", "en", "one"])
        #expect(bad.code == 64 && bad.stderr.contains("'one' is not a decimal number"))
        #expect(run(["plural", "en"]).code == 64)
        #expect(run(["plural", "--help"]).stdout.contains("USAGE: hotstrings plural"))
    }

    @Test func dumpPrintsAStringsdictsWholeStructure() throws {
        let text = Self.plist(Self.entry("files", [("one", "%d file"), ("other", "%d files")]))
        try withFiles(["en.lproj/L.stringsdict": text]) { root in
            let result = run(["dump", "\(root)/en.lproj/L.stringsdict"])
            #expect(result.code == 0)
            #expect(result.stdout == """
                {
                  "files" : {
                    "NSStringLocalizedFormatKey" : "%#@n@",
                    "n" : {
                      "NSStringFormatSpecTypeKey" : "NSStringPluralRuleType",
                      "NSStringFormatValueTypeKey" : "d",
                      "one" : "%d file",
                      "other" : "%d files"
                    }
                  }
                }

                """)
        }
        let broken = run(["dump", "--stringsdict", "-"], stdin: Self.plist("<key>x</key><dict/>"))
        #expect(broken.code == 1)
        #expect(broken.stderr == "<stdin>:4:1: error: entry 'x' has no NSStringLocalizedFormatKey string\n")
    }

    @Test func lintFindsBrokenEntriesAndCategoryProblems() throws {
        let english = Self.plist(
            Self.entry("files", [("one", "%d file"), ("other", "%d files")])
            + Self.entry("count", [("one", "%d thing")])
            + Self.entry("nested", format: "%#@n@ %#@ghost@", [("other", "%d")]))
        let russian = Self.plist(
            Self.entry("files", [("one", "%d файл"), ("two", "%d файла"), ("other", "%d файлов")])
            + Self.entry("count", valueType: "@", [("one", "%@"), ("few", "%@"), ("many", "%@"), ("other", "%@")]))
        try withFiles(["en.lproj/L.stringsdict": english, "ru.lproj/L.stringsdict": russian]) { root in
            let result = run(["lint", root])
            #expect(result.code == 1)
            let en = "\(root)/en.lproj/L.stringsdict"
            let ru = "\(root)/ru.lproj/L.stringsdict"
            #expect(result.lines == [
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
                "2 files, 5 keys, 4 errors, 3 warnings",
            ])
        }
    }
}
