import BundleChanges
import HotStringsTestSupport
import StringsFormat
import Testing
@testable import BundleWatcher

/// The watcher compiles a saved catalog's languages again only where what they are compiled from changed, and the
/// tables it gives are always those a fresh compile gives.
@Suite struct CatalogCompilerTests {
    static func catalog(de: String = "Fertig", fr: String = "OK", comment: String? = nil, source: String = "en",
                        reversed: Bool = false) throws -> StringCatalog {
        var strings: [(key: String, localizations: [String: String])] = [
            ("Done", ["de": CatalogText.text(de), "fr": CatalogText.text(fr)]),
            ("%lld items", ["de": CatalogText.plural(["one": "%lld Eintrag", "other": "%lld Einträge"])]),
        ]
        if reversed { strings.reverse() }
        var text = CatalogText.catalog(source: source, strings)
        if let comment {
            text = text.replacingOccurrences(of: "\"Done\" : {", with: "\"Done\" : {\n \"comment\" : \"\(comment)\",")
        }
        return try StringCatalog.parse(Array(text.utf8))
    }

    @Test func theChangedLanguagesAreThoseWhoseLocalizationsChanged() throws {
        let first = try Self.catalog()
        #expect(try Self.catalog(de: "Erledigt").changedLanguages(since: first) == ["de"])
        #expect(try Self.catalog(de: "Erledigt", fr: "Fini").changedLanguages(since: first) == ["de", "fr"])
        #expect(try Self.catalog().changedLanguages(since: first) == [])
        #expect(try Self.catalog(comment: "A button").changedLanguages(since: first) == nil,
                "comments are compiled into the .strings entries")
        #expect(try Self.catalog(reversed: true).changedLanguages(since: first) == nil, "the order is compiled too")
        #expect(try Self.catalog(source: "de").changedLanguages(since: first) == nil,
                "the source language serves keys")
    }

    @Test func everyVersionGivesWhatAFreshCompileGives() throws {
        let compiler = CatalogCompiler()
        let versions = [try Self.catalog(), try Self.catalog(de: "Erledigt"), try Self.catalog(de: "Erledigt", fr: "Fini"),
                        try Self.catalog(source: "de"), try Self.catalog(reversed: true), try Self.catalog()]
        for catalog in versions {
            let tables = compiler.tables(of: catalog, file: "Settings.xcstrings")
            #expect(tables.tables.keys.map(\.identifier).sorted() == catalog.languages.sorted())
            for language in catalog.languages {
                #expect(tables.tables[LanguageTag(language)!] == catalog.compiled(language: language), "\(language)")
            }
        }
    }
}
