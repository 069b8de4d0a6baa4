import Testing
@testable import HotStringsLint

/// Language folders of one bundle that are one language: the watcher serves one, so the linter says which, as an
/// error naming both (issue 20, finding 12).
struct LanguageClashLintTests {
    @Test(arguments: [
        ("DE.lproj", "de.lproj", "de", "de.lproj"),
        ("de_DE.lproj", "de-de.lproj", "de-DE", "de-de.lproj"),
    ])
    func foldersOfOneLanguageAreAnErrorNamingBoth(_ first: String, _ second: String, _ language: String,
                                                   _ served: String) throws {
        let table = "\"a\" = \"A\";\n"
        let linted = try LintedFolder([
            "App/en.lproj/L.strings": table, "App/\(first)/L.strings": table, "App/\(second)/L.strings": table,
            "App/\(first)/M.strings": table,
        ])
        let unserved = served == first ? second : first
        let names = [first, second].sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        #expect(linted.findings == [
            "App/\(unserved)/L.strings: error: '\(names[0])' and '\(names[1])' are the same language "
                + "(\(language)): only '\(served)' is served, '\(unserved)' is not; merge it into '\(served)' or "
                + "remove it",
        ])
        #expect(linted.summary == LintJSON.Summary(files: 4, keys: 4, errors: 1, warnings: 0))
    }

    @Test func foldersOfOneLanguageInTwoBundlesDoNotClash() throws {
        let table = "\"a\" = \"A\";\n"
        let linted = try LintedFolder(["One/de.lproj/L.strings": table, "Two/DE.lproj/L.strings": table])
        #expect(linted.findings == [])
        #expect(linted.summary.files == 2)
    }
}
