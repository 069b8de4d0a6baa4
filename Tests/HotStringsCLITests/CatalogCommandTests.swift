import Foundation
import HotStringsTestSupport
import StringsFormat
import Testing
@testable import HotStringsCLI

/// `dump` on String Catalogs.
struct CatalogCommandTests {
    @Test func dumpPrintsOneLanguage() throws {
        try withFiles(["T.xcstrings": CatalogText.unfinishedPolish]) { root in
            let result = run(["dump", "--language", "en", "\(root)/T.xcstrings"])
            #expect(result.code == 0, "\(result.stderr)")
            #expect(result.stdout == """
                {
                  "%lld files" : {
                    "NSStringLocalizedFormatKey" : "%#@plural@",
                    "plural" : {
                      "NSStringFormatSpecTypeKey" : "NSStringPluralRuleType",
                      "NSStringFormatValueTypeKey" : "lld",
                      "one" : "%lld file",
                      "other" : "%lld files"
                    }
                  },
                  "Hello" : "Hello",
                  "Bye" : "Bye"
                }

                """)
        }
    }

    @Test func dumpPrintsEveryLanguageAndChecksTheLanguage() throws {
        try withFiles(["T.xcstrings": CatalogText.unfinishedPolish]) { root in
            let all = run(["dump", "\(root)/T.xcstrings"])
            #expect(all.code == 0)
            let decoded = try JSONSerialization.jsonObject(with: Data(all.stdout.utf8)) as? [String: [String: Any]]
            #expect(decoded?.keys.sorted() == ["en", "pl"])
            #expect(decoded?["pl"]?["Bye"] as? String == "Pa")
            let missing = run(["dump", "--language", "fr", "\(root)/T.xcstrings"])
            #expect(missing.code == ExitCode.failure)
            #expect(missing.stderr
                == "hotstrings dump: error: \(root)/T.xcstrings has no language 'fr' (it has en, pl)\n")
        }
        #expect(run(["dump", "--language", "en", "x.strings"]).code == ExitCode.usage)
    }
}
