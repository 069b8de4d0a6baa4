import Foundation
import HotStringsTestSupport
import HotStringsTestTraits
import StringsFormat
import Testing
@testable import HotStringsCLI

/// `hotstrings compile`: the files written parse back, with this package's parsers, to the catalog's model.
struct CompileTests {
    /// Compares every language's written files with `catalog.compiled(language:)`.
    static func expectRoundTrip(_ catalog: StringCatalog, table: String, in folder: String) throws {
        for language in catalog.languages {
            let compiled = catalog.compiled(language: language)
            let lproj = "\(folder)/\(language).lproj"
            let stringsBytes = try Data(contentsOf: URL(fileURLWithPath: "\(lproj)/\(table).strings"))
            let strings = try StringsFile.parse(Array(stringsBytes))
            #expect(strings.entries.map { [$0.key, $0.value, $0.comment] }
                == compiled.strings.entries.map { [$0.key, $0.value, $0.comment] }, "\(language)")
            let dictPath = "\(lproj)/\(table).stringsdict"
            if compiled.rules.isEmpty {
                #expect(!FileManager.default.fileExists(atPath: dictPath))
            } else {
                let rules = try StringsdictFile.parse(Array(Data(contentsOf: URL(fileURLWithPath: dictPath))))
                #expect(rules == compiled.rules, "\(language)")
            }
        }
    }

    @Test(.needsCorpusCatalog)
    func theIceCubesCatalogRoundTrips() throws {
        let path = try #require(corpusCatalogPath)
        let catalog = try StringCatalog.parse(Array(Data(contentsOf: URL(fileURLWithPath: path))))
        try withFiles([:]) { root in
            let result = run(["compile", path, "\(root)/out"])
            #expect(result.code == 0, "\(result.stderr)")
            #expect(result.stderr.isEmpty)
            #expect(result.lines.count == 19 * 2)  // every language has plural rules
            #expect(result.lines.contains("\(root)/out/pl.lproj/Localizable.stringsdict"))
            try Self.expectRoundTrip(catalog, table: "Localizable", in: "\(root)/out")
        }
    }

    @Test func trickyTextsRoundTrip() throws {
        let catalog = """
            {"sourceLanguage":"en","strings":{
              "q\\"b\\\\ <&> \\r\\n\\t\\u0001 */":{"comment":"has */ inside","localizations":{
                "de":{"stringUnit":{"state":"translated","value":"a\\"b\\\\c\\r\\nd\\te\\u001b & <x> 🎉"}}}},
              "n":{"localizations":{"de":{"variations":{"device":{
                "mac":{"stringUnit":{"value":"<Mac & co>"}},
                "other":{"variations":{"plural":{"one":{"stringUnit":{"value":"%d Ding\\r"}},
                                                 "other":{"stringUnit":{"value":"%d Dinge"}}}}}}}}}}
            }}
            """
        try withFiles(["T.xcstrings": catalog]) { root in
            let result = run(["compile", "\(root)/T.xcstrings", "\(root)/out"])
            #expect(result.code == 0, "\(result.stderr)")
            #expect(result.lines == ["\(root)/out/en.lproj/T.strings", "\(root)/out/de.lproj/T.strings",
                                     "\(root)/out/de.lproj/T.stringsdict"])
            var parsed = try StringCatalog.parse(Array(catalog.utf8))
            // A comment cannot hold "*/"; the writer breaks it, so compare against that.
            parsed.entries[0].comment = "has * / inside"
            try Self.expectRoundTrip(parsed, table: "T", in: "\(root)/out")
        }
    }

    @Test func errorsAndUsage() throws {
        try withFiles(["bad.xcstrings": "{\"sourceLanguage\":\"en\",\n \"strings\": {\"k\": 5}}"]) { root in
            let broken = run(["compile", "\(root)/bad.xcstrings", "\(root)/out"])
            #expect(broken.code == ExitCode.failure)
            #expect(broken.stderr == "\(root)/bad.xcstrings:2:19: error: the entry of a key must be a JSON object\n")
            #expect(!FileManager.default.fileExists(atPath: "\(root)/out"))
            let missing = run(["compile", "\(root)/none.xcstrings", "\(root)/out"])
            #expect(missing.code == ExitCode.failure)
            #expect(missing.stderr.hasPrefix("\(root)/none.xcstrings: error: "))
        }
        #expect(run(["compile", "only-one.xcstrings"]).code == ExitCode.usage)
        #expect(run(["compile", "a.strings", "out"]).code == ExitCode.usage)
        let help = run(["compile", "--help"])
        #expect(help.code == ExitCode.success)
        #expect(help.stdout.contains("hotstrings compile <catalog> <outdir>"))
    }
}
