import BundleChanges
import HotStringsTestSupport
import StringsFormat
import Testing
@testable import BundleWatcher

/// The watcher's catalog compiler gives, for every version of a saved catalog, the tables a fresh compile gives,
/// keeps one cache per catalog, and drops it when the catalog goes.
@Suite struct CatalogCompilerTests {
    static func catalog(de: String = "Fertig", fr: String = "OK", source: String = "en", reversed: Bool = false)
        -> [UInt8] {
        var strings: [(key: String, localizations: [String: String])] = [
            ("Done", ["de": CatalogText.text(de), "fr": CatalogText.text(fr)]),
            ("%lld items", ["de": CatalogText.plural(["one": "%lld Eintrag", "other": "%lld Einträge"])]),
        ]
        if reversed { strings.reverse() }
        return Array(CatalogText.catalog(source: source, strings).utf8)
    }

    @Test func everyVersionGivesWhatAFreshCompileGives() throws {
        let compiler = CatalogCompiler()
        let versions = [Self.catalog(), Self.catalog(de: "Erledigt"), Self.catalog(de: "Erledigt", fr: "Fini"),
                        Self.catalog(source: "de"), Self.catalog(reversed: true), Self.catalog()]
        for bytes in versions {
            let catalog = try StringCatalog.parse(bytes)
            let tables = try compiler.tables(reading: bytes, file: "Settings.xcstrings")
            #expect(tables.tables.keys.map(\.identifier).sorted() == catalog.languages.sorted())
            for language in catalog.languages {
                #expect(tables.tables[LanguageTag(language)!] == catalog.compiled(language: language), "\(language)")
            }
        }
    }

    @Test func aBrokenVersionIsItsParseErrorAndTheCatalogIsForgottenWhenItGoes() throws {
        let compiler = CatalogCompiler()
        _ = try compiler.tables(reading: Self.catalog(), file: "A.xcstrings")
        _ = try compiler.tables(reading: Self.catalog(), file: "B.xcstrings")
        #expect(compiler.count == 2)
        let broken = Array(Self.catalog().dropLast(5))
        let expected = try #require(Result { () throws(ParseError) in try StringCatalog.parse(broken) }.failure)
        #expect(throws: expected) { try compiler.tables(reading: broken, file: "A.xcstrings") }
        #expect(compiler.count == 2, "the last good version of A stays")
        compiler.forget("A.xcstrings")
        #expect(compiler.count == 1)
    }

    @Test func aLanguageThatIsNoTagIsReportedAndLeftOut() throws {
        let bytes = Array(CatalogText.catalog([("Done", ["de": CatalogText.text("Fertig"),
                                                          "not a tag!": CatalogText.text("x")])]).utf8)
        let tables = try CatalogCompiler().tables(reading: bytes, file: "T.xcstrings")
        #expect(tables.tables.keys.map(\.identifier).sorted() == ["de", "en"])
        #expect(tables.problems.count == 1)
    }
}

extension Result {
    /// The error, or `nil` for a success.
    var failure: Failure? {
        if case .failure(let error) = self { error } else { nil }
    }
}
