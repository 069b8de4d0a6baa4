import Foundation
import HotStringsTestSupport
import Testing
@testable import HotStringsLint

/// `LintReport.document` and `jsonText`: the shape of `lint --json` and the page's `/api/lint`.
struct LintJSONTests {
    @Test func theDocumentDecodesAndItsCountsAddUp() throws {
        let files = [
            "en.lproj/L.strings": "\"a\" = \"A\";\n\"a\" = \"B\";\n\"b\" = \"C\";\n",
            "de.lproj/L.strings": "\"a\" = \"A\";\n\"b\" = ;\n",
            "fr.lproj/L.strings": "\"a\" = \"A\";\n",
        ]
        try withFiles(files) { root in
            let report = Linter(developmentLanguage: "en").lint(paths: [root, "\(root)/missing.strings"])
            let text = report.jsonText(pretty: true)
            let json = try JSONDecoder().decode(LintJSON.self, from: Data(text.utf8))
            #expect(json == report.document)
            #expect(try JSONDecoder().decode(LintJSON.self, from: Data(report.jsonText(pretty: false).utf8)) == json)
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
            #expect(!text.contains("\\/"))
        }
    }
}
