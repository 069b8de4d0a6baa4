import Testing
import StringsFormat

@Suite struct LanguageTagTests {
    /// Inputs (folder names without `.lproj`, or requested languages) and their canonical form.
    static let canonical: [(String, String)] = [
        ("en", "en"),
        ("EN", "en"),
        ("de-CH", "de-CH"),
        ("de_ch", "de-CH"),
        ("DE-ch", "de-CH"),
        ("pt_BR", "pt-BR"),
        ("pt-br", "pt-BR"),
        ("zh_Hans", "zh-Hans"),
        ("zh-hans", "zh-Hans"),
        ("ZH-HANT", "zh-Hant"),
        ("zh_hans_cn", "zh-Hans-CN"),
        ("sr-latn-rs", "sr-Latn-RS"),
        ("es-419", "es-419"),
        ("nb-NO", "nb-NO"),
        ("kab", "kab"),
        ("de-CH-1996", "de-CH-1996"),
        ("en-US-u-ca-gregory", "en-US-u-ca-gregory"),
        ("EN-us-U-CA-GREGORY", "en-US-u-ca-gregory"),
        ("en-x-us", "en-x-us"),
        ("English", "en"),
        ("english", "en"),
        ("German", "de"),
        ("French", "fr"),
        ("Spanish", "es"),
        ("Italian", "it"),
        ("Japanese", "ja"),
        ("Dutch", "nl"),
        ("Base", "Base"),
        ("base", "Base"),
        ("BASE", "Base"),
        ("Portuguese", "portuguese"),
    ]

    @Test(arguments: canonical)
    func canonicalForm(input: String, expected: String) throws {
        let tag = try #require(LanguageTag(input))
        #expect(tag.identifier == expected)
        #expect(tag.description == expected)
        #expect(tag == LanguageTag(expected))
    }

    static let rejected: [String] = [
        "", "-", "_", "en-", "-en", "en--US", "en__US", "en US", "en.lproj", "de/CH", "fr@x", "ça", "1", "12-AB",
        "en-ü", "*", String(repeating: "a", count: LanguageTag.maximumLength + 1),
    ]

    @Test(arguments: rejected)
    func rejectsGarbage(input: String) {
        #expect(LanguageTag(input) == nil)
    }

    @Test func acceptsTheLongestAllowedTag() {
        #expect(LanguageTag(String(repeating: "a", count: LanguageTag.maximumLength)) != nil)
    }

    static let fallbacks: [(String, [String])] = [
        ("en", ["en"]),
        ("de-CH", ["de-CH", "de"]),
        ("zh-Hans-CN", ["zh-Hans-CN", "zh-Hans", "zh"]),
        ("zh_Hant", ["zh-Hant", "zh"]),
        ("de-CH-1996", ["de-CH-1996", "de-CH", "de"]),
        ("en-US-u-ca-gregory", ["en-US-u-ca-gregory", "en-US-u-ca", "en-US", "en"]),
        ("German", ["de"]),
        ("Base", ["Base"]),
    ]

    @Test(arguments: fallbacks)
    func fallbackChain(input: String, expected: [String]) throws {
        let tag = try #require(LanguageTag(input))
        #expect(tag.fallbacks.map(\.identifier) == expected)
    }

    @Test func equalSpellingsHashAndOrderAlike() throws {
        let spellings = ["zh_hans", "ZH-HANS", "zh-Hans"].compactMap { LanguageTag($0) }
        #expect(spellings.count == 3)
        #expect(Set(spellings).count == 1)
        let sorted = ["fr", "Base", "de-CH", "de"].compactMap { LanguageTag($0) }.sorted()
        #expect(sorted.map(\.identifier) == ["Base", "de", "de-CH", "fr"])
    }

    @Test func baseAndLanguageSubtag() throws {
        #expect(LanguageTag.base.isBase)
        #expect(try #require(LanguageTag("base")).isBase)
        #expect(try #require(LanguageTag("en")).isBase == false)
        #expect(try #require(LanguageTag("zh-Hans-CN")).language == "zh")
        #expect(LanguageTag.base.language == "Base")
    }
}
