import Foundation
import StringsFormat
import Testing
@testable import HotStringsCLI

/// `dump` and `lint` on String Catalogs.
struct CatalogCommandTests {
    static let catalog = """
        {"sourceLanguage":"en","version":"1.0","strings":{
          "%lld files":{"comment":"Files","localizations":{
            "en":{"variations":{"plural":{"one":{"stringUnit":{"state":"translated","value":"%lld file"}},
                                         "other":{"stringUnit":{"state":"translated","value":"%lld files"}}}}},
            "pl":{"variations":{"plural":{"one":{"stringUnit":{"state":"translated","value":"%lld plik"}},
                                         "few":{"stringUnit":{"state":"needs_review","value":"%lld pliki"}},
                                         "two":{"stringUnit":{"state":"translated","value":"%lld pliki"}}}}}}},
          "Hello":{"localizations":{"pl":{"stringUnit":{"state":"new","value":"Hello"}}}},
          "Bye":{"localizations":{"pl":{"stringUnit":{"state":"stale","value":"Pa"}}}}
        }}
        """

    @Test func dumpPrintsOneLanguage() throws {
        try withFiles(["T.xcstrings": Self.catalog]) { root in
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
        try withFiles(["T.xcstrings": Self.catalog]) { root in
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

    @Test func lintCountsStatesAndChecksPluralCategories() throws {
        try withFiles(["T.xcstrings": Self.catalog]) { root in
            let result = run(["lint", root])
            #expect(result.code == ExitCode.failure)  // Polish plural without 'other'
            let path = "\(root)/T.xcstrings"
            #expect(result.lines == [
                "\(path):2:3: error: key '%lld files', language 'pl': plural variations have no 'other' form",
                "\(path):2:3: warning: key '%lld files', language 'pl': plural variations lack 'many', "
                    + "which the language uses",
                "\(path):2:3: warning: key '%lld files', language 'pl': plural variations have 'two', "
                    + "which the language never uses",
                "\(path): warning: language 'pl': 1 new (new), 1 needs review (needs_review), 1 stale (stale)",
                "1 file, 3 keys, 1 error, 3 warnings",
            ])
        }
    }

    @Test func lintReportsASyntaxErrorWithItsPlace() throws {
        try withFiles(["T.xcstrings": "{\"sourceLanguage\":\"en\",\n\"strings\":{\"k\":{\"comment\":1}}}"]) { root in
            let result = run(["lint", "\(root)/T.xcstrings"])
            #expect(result.code == ExitCode.failure)
            #expect(result.lines.first == "\(root)/T.xcstrings:2:27: error: 'comment' must be a string")
        }
    }
}
