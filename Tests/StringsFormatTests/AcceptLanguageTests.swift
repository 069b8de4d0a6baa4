import StringsFormat
import Testing

/// `AcceptLanguage` reads RFC 9110's header strictly and boundedly, and `LanguageMatcher` turns it into a chain.
@Suite struct AcceptLanguageTests {
    static func preferences(_ header: String) throws -> [String] {
        try AcceptLanguage(parsing: header).preferences.map(\.identifier)
    }

    @Test(arguments: [
        ("de-CH, fr;q=0.8, *;q=0.1", ["de-CH", "fr"]),
        // Weights order the ranges; equal weights keep the header's order.
        ("fr;q=0.5, de, en;q=0.5, it;q=1.000", ["de", "it", "fr", "en"]),
        // Case, spaces and tabs around separators, empty list elements.
        (" EN-us ;\tQ=0.7 ,, ZH-hant ,", ["zh-Hant", "en-US"]),
        ("", []),
        ("*", []),
        ("de;q=0, fr", ["fr"]),
        ("fr;q=0.001", ["fr"]),
        ("i-klingon;q=0.5", ["i-klingon"]),
    ])
    func readsWeightsAndOrder(header: String, expected: [String]) throws {
        #expect(try Self.preferences(header) == expected)
    }

    @Test(arguments: [
        ("de;q=2", "'de;q=2': the weight must be q= and a number from 0 to 1 with at most three decimals"),
        ("de;q=0.1234", "'de;q=0.1234': the weight must be q= and a number from 0 to 1 with at most three decimals"),
        ("de;q=1.001", "'de;q=1.001': the weight must be q= and a number from 0 to 1 with at most three decimals"),
        ("de;q=", "'de;q=': the weight must be q= and a number from 0 to 1 with at most three decimals"),
        ("de;level=1", "'de;level=1': the weight must be q= and a number from 0 to 1 with at most three decimals"),
        ("de;q=0.5;q=0.4", "'de;q=0.5;q=0.4' has more than one parameter"),
        (";q=0.5", "';q=0.5' has no language range before ';'"),
        ("de-", "'de-' is not a language range (subtags of 1 to 8 letters or digits, the first letters only, "
            + "joined by '-')"),
        ("1de", "'1de' is not a language range (subtags of 1 to 8 letters or digits, the first letters only, "
            + "joined by '-')"),
        ("deutschland", "'deutschland' is not a language range (subtags of 1 to 8 letters or digits, the first "
            + "letters only, joined by '-')"),
        ("de_AT", "'de_AT' is not a language range (subtags of 1 to 8 letters or digits, the first letters only, "
            + "joined by '-')"),
        ("de\u{0}", "'de\\u{0}' is not a language range (subtags of 1 to 8 letters or digits, the first letters only, "
            + "joined by '-')"),
        ("Base", "'Base' is not a language tag"),
    ])
    func refusesWhatIsMalformedNamingIt(header: String, reason: String) {
        #expect(throws: AcceptLanguage.Problem(reason: reason)) { try AcceptLanguage(parsing: header) }
    }

    @Test func isBoundedInLengthAndRanges() throws {
        let long = String(repeating: "de, ", count: 1100)
        #expect(throws: AcceptLanguage.Problem(reason: "the header is 4400 bytes long; at most 4096 are read")) {
            try AcceptLanguage(parsing: long)
        }
        let many = (0..<65).map { _ in "fr" }.joined(separator: ",")
        #expect(throws: AcceptLanguage.Problem(reason: "the header has more than 64 language ranges")) {
            try AcceptLanguage(parsing: many)
        }
        #expect(try AcceptLanguage(parsing: (0..<64).map { _ in "fr" }.joined(separator: ",")).ranges.count == 64)
    }

    @Test func anyBytesAreAnErrorOrAHeaderNeverACrash() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("abzAZ019-_*;=q., \t\u{0}é".unicodeScalars)
        for _ in 0..<5_000 {
            let length = Int.random(in: 0..<40, using: &generator)
            var text = String.UnicodeScalarView()
            for _ in 0..<length { text.append(alphabet.randomElement(using: &generator)!) }
            let header = String(text)
            if let read = try? AcceptLanguage(parsing: header) {
                #expect(read.ranges.count <= AcceptLanguage.maximumRanges)
                #expect(read.ranges.allSatisfy { (0...1000).contains($0.quality) })
            }
        }
    }

    @Test func excludedRangesMatchTheirRegionsAndLeaveTheDevelopmentLanguage() throws {
        let matcher = LanguageMatcher(languages: ["en", "en-GB", "de", "fr", "pt-BR"].compactMap { LanguageTag($0) })
        let header = try AcceptLanguage(parsing: "en-AU, de-AT;q=0.9, fr;q=0.8, en;q=0, pt;q=0")
        #expect(header.excludes(LanguageTag("en-GB")!) && header.excludes(LanguageTag("pt-BR")!))
        #expect(!header.excludes(LanguageTag("de")!))
        let chain = matcher.resolve(acceptLanguage: header, selected: nil, development: LanguageTag("en")!)
        // The development language answers last as always, with its other regions.
        #expect(chain.map(\.language.identifier) == ["de", "fr", "en", "en-GB", "Base"])
        #expect(chain.map(\.source) == [.preference, .preference, .development, .development, .base])
        // Without the exclusion en-AU is answered by en-GB, then en.
        let open = matcher.resolve(acceptLanguage: try AcceptLanguage(parsing: "en-AU"), selected: nil,
                                   development: LanguageTag("de")!)
        #expect(open.map(\.language.identifier) == ["en-GB", "en", "de", "Base"])
    }
}
