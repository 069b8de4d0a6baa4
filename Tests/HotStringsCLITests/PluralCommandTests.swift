import Foundation
import HotStringsTestSupport
import Testing
@testable import HotStringsCLI

/// `hotstrings plural` and `dump` of a `.stringsdict`, in memory.
struct PluralCommandTests {
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
        let text = StringsdictText.plist(StringsdictText.entry("files", [("one", "%d file"), ("other", "%d files")]))
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
        let broken = run(["dump", "--stringsdict", "-"], stdin: StringsdictText.plist("<key>x</key><dict/>"))
        #expect(broken.code == 1)
        #expect(broken.stderr == "<stdin>:4:1: error: entry 'x' has no NSStringLocalizedFormatKey string\n")
    }
}
