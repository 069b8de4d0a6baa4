import Foundation
import StringsFormat
import Testing

/// `LanguageMatcher` against the issue's table (the same bundle the daemon and `LiveStrings` tests use) and
/// against CLDR's own data in scripts/cldr.
@Suite struct LanguageMatcherTests {
    /// The bundle of the issue: `en zh-Hans zh-Hant es-419 es pt-BR pt-PT nb he id sr-Latn en-GB`.
    static let bundle = ["en", "zh-Hans", "zh-Hant", "es-419", "es", "pt-BR", "pt-PT", "nb", "he", "id",
                         "sr-Latn", "en-GB"]

    /// A request and the bundle languages that answer it, in order (the development language comes after).
    static let table: [(String, [String])] = [
        ("zh-CN", ["zh-Hans"]), ("zh-SG", ["zh-Hans"]), ("zh_cn", ["zh-Hans"]),
        ("zh-TW", ["zh-Hant"]), ("zh-HK", ["zh-Hant"]), ("zh-MO", ["zh-Hant"]), ("zh-Hant-TW", ["zh-Hant"]),
        ("es-MX", ["es-419", "es"]), ("es-US", ["es-419", "es"]), ("es-ES", ["es", "es-419"]),
        ("en-AU", ["en-GB", "en"]), ("en-IN", ["en-GB", "en"]), ("en-US", ["en", "en-GB"]),
        ("pt", ["pt-BR", "pt-PT"]), ("pt-AO", ["pt-PT", "pt-BR"]), ("pt-MZ", ["pt-PT", "pt-BR"]),
        ("no", ["nb"]), ("nb-NO", ["nb"]), ("iw", ["he"]), ("in", ["id"]),
        ("sr", []), ("sr-Cyrl", []), ("sr-Latn-RS", ["sr-Latn"]), ("sh", ["sr-Latn"]),
        ("de-CH", []), ("Base", []),
    ]

    @Test(arguments: table)
    func theIssuesTable(request: String, expected: [String]) throws {
        let matcher = LanguageMatcher(languages: Self.bundle.compactMap { LanguageTag($0) })
        let tag = try #require(LanguageTag(request))
        #expect(matcher.matches(for: tag).map(\.language.identifier) == expected)
    }

    @Test func eachMatchSaysWhy() throws {
        let matcher = LanguageMatcher(languages: Self.bundle.compactMap { LanguageTag($0) })
        func reasons(_ request: String) throws -> [String] {
            matcher.matches(for: try #require(LanguageTag(request))).map { "\($0.language): \($0.reason)" }
        }
        #expect(try reasons("es-MX") == ["es-419: parent locale es-419", "es: language and script es"])
        #expect(try reasons("zh-TW") == ["zh-Hant: same as zh-Hant-TW (likely subtags)"])
        #expect(try reasons("zh-HK") == ["zh-Hant: language and script zh-Hant"])
        #expect(try reasons("en-AU") == ["en-GB: stands in for en-001", "en: language and script en"])
        #expect(try reasons("pt-AO") == ["pt-PT: parent locale pt-PT", "pt-BR: another region of pt"])
        #expect(try reasons("en") == ["en: exact", "en-GB: another region of en"])
    }

    @Test func aBundleWithOnlyZhTWAnswersZhHantTW() throws {
        let matcher = LanguageMatcher(languages: ["en", "zh_TW"].compactMap { LanguageTag($0) })
        #expect(matcher.matches(for: try #require(LanguageTag("zh-Hant-TW"))).map(\.language.identifier) == ["zh-TW"])
        #expect(matcher.matches(for: try #require(LanguageTag("zh-HK"))).map(\.language.identifier) == ["zh-TW"])
        #expect(matcher.matches(for: try #require(LanguageTag("zh-CN"))).isEmpty)
    }

    @Test func srCyrlAnswersSrWhenPresent() throws {
        let matcher = LanguageMatcher(languages: ["sr-Latn", "sr-Cyrl"].compactMap { LanguageTag($0) })
        #expect(matcher.matches(for: try #require(LanguageTag("sr"))).map(\.language.identifier) == ["sr-Cyrl"])
    }

    @Test func theChainKeepsEachInputsPlace() throws {
        let matcher = LanguageMatcher(languages: ["de", "fr", "it", "en", "Base"].compactMap { LanguageTag($0) })
        let chain = matcher.chain(preferences: ["de-CH", "fr"].compactMap { LanguageTag($0) },
                                  selected: LanguageTag("it"), development: try #require(LanguageTag("en")))
        #expect(chain.map(\.identifier) == ["de", "fr", "it", "en", "Base"])
        let steps = matcher.resolve(preferences: [try #require(LanguageTag("de-CH"))], selected: nil,
                                    development: try #require(LanguageTag("en")))
        #expect(steps.map(\.source) == [.preference, .development, .base])
        #expect(steps.first?.reason == .script(try #require(LanguageTag("de"))))
    }

    @Test func languagesWithoutLikelySubtagsFallBackByTruncation() throws {
        let matcher = LanguageMatcher(languages: ["qaa", "qaa-x-test"].compactMap { LanguageTag($0) })
        let matches = matcher.matches(for: try #require(LanguageTag("qaa-x-test")))
        #expect(matches.map(\.language.identifier) == ["qaa-x-test", "qaa"])
        #expect(matches.map(\.reason) == [.exact, .general])
    }

    @Test(arguments: [("iw", "he"), ("in", "id"), ("ji", "yi"), ("jw", "jv"), ("mo", "ro"), ("no", "nb"),
                      ("tl", "fil"), ("sh", "sr-Latn"), ("sh-Cyrl", "sr-Cyrl"), ("iw_IL", "he-IL"), ("NO", "nb")])
    func legacyCodesAreReadAsTheirCurrentOnes(legacy: String, current: String) {
        #expect(LanguageTag(legacy)?.identifier == current)
    }

    // MARK: - CLDR's own data

    static func supplemental(_ file: String) throws -> [String: Any] {
        let data = try Data(contentsOf: GeneratedSwift.packageRoot.appendingPathComponent("scripts/cldr/\(file)"))
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return try #require(root["supplemental"] as? [String: Any])
    }

    @Test func everyLikelySubtagsEntryMaximizesAsCLDRSays() throws {
        let table = try #require(try Self.supplemental("likelySubtags.json")["likelySubtags"] as? [String: String])
        #expect(table.count > 150)
        for (key, value) in table.sorted(by: { $0.key < $1.key }) where !key.hasPrefix("und") {
            let tag = try #require(LanguageTag(key))
            #expect(LanguageMatcher.maximized(tag) == LanguageTag(value), "\(key)")
            // The maximal form is its own maximal form, and a bundle folder of that name answers the key.
            let maximal = try #require(LanguageTag(value))
            #expect(LanguageMatcher.maximized(maximal) == maximal, "\(value)")
            #expect(LanguageMatcher(languages: [maximal]).matches(for: tag).map(\.language) == [maximal], "\(key)")
        }
    }

    @Test func everyParentLocaleWithinALanguageIsAFallback() throws {
        let parents = try #require(try Self.supplemental("parentLocales.json")["parentLocales"] as? [String: Any])
        let table = try #require(parents["parentLocale"] as? [String: String])
        var checked = 0
        for (child, parent) in table.sorted(by: { $0.key < $1.key })
        where parent != "und" && child.split(separator: "-")[0] == parent.split(separator: "-")[0] {
            let childTag = try #require(LanguageTag(child))
            let parentTag = try #require(LanguageTag(parent))
            let matches = LanguageMatcher(languages: [parentTag]).matches(for: childTag)
            #expect(matches.map(\.language) == [parentTag], "\(child) → \(parent)")
            checked += 1
        }
        #expect(checked > 100)
    }

    @Test func scriptsAreNeverCrossed() throws {
        let table = try #require(try Self.supplemental("likelySubtags.json")["likelySubtags"] as? [String: String])
        // Every language with two scripts in the data: a folder in one script never answers the other.
        for (key, value) in table where key.split(separator: "-").count == 2 {
            let base = String(key.split(separator: "-")[0])
            guard let defaultValue = table[base], defaultValue.split(separator: "-")[1] != value.split(separator: "-")[1]
            else { continue }
            let other = try #require(LanguageTag(value))
            let request = try #require(LanguageTag(base))
            #expect(LanguageMatcher(languages: [other]).matches(for: request).isEmpty, "\(base) vs \(value)")
        }
    }

    @Test func theGeneratedSwiftIsUpToDate() throws {
        try GeneratedSwift.expectUpToDate(script: "generate-language-data.py", file: "LanguageData+CLDR.swift")
    }
}
