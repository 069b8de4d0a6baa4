import Foundation
import HotStringsTestSupport
import HotStringsTestTraits
import Testing
@testable import StringsFormat

/// The IceCubesApp String Catalog of the shared corpus (733 keys, 19 languages, plural, device and substitution
/// variations), read by us and by `JSONSerialization`.
@Suite struct StringCatalogCorpusTests {
    static let catalogFile: URL? = corpusCatalogPath.map(URL.init(fileURLWithPath:))

    static func load() throws -> (catalog: StringCatalog, json: [String: Any]) {
        let data = try Data(contentsOf: try #require(catalogFile))
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return (try StringCatalog.parse(Array(data)), json)
    }

    @Test(.needsCorpusCatalog)
    func everyKeyAndLanguageMatchesJSONSerialization() throws {
        let (catalog, json) = try Self.load()
        #expect(catalog.sourceLanguage == "en")
        #expect(catalog.version == "1.0")
        let strings = try #require(json["strings"] as? [String: [String: Any]])
        #expect(catalog.entries.count == strings.count)
        #expect(catalog.entries.count == 733)
        #expect(catalog.languages.count == 19)
        var compared = 0
        for entry in catalog.entries {
            let reference = try #require(strings[entry.key])
            #expect(entry.comment == reference["comment"] as? String)
            #expect(entry.extractionState == reference["extractionState"] as? String)
            let localizations = reference["localizations"] as? [String: Any] ?? [:]
            #expect(Set(entry.localizations.keys) == Set(localizations.keys), "\(entry.key)")
            for (language, localization) in entry.localizations {
                #expect(Self.describe(localization) == Self.describe(localizations[language]),
                        "\(entry.key) \(language)")
                compared += 1
            }
        }
        #expect(compared == 12_751)  // every localization of every key
    }

    @Test(.needsCorpusCatalog)
    func compiledLanguagesHoldEveryKeyOnce() throws {
        let (catalog, _) = try Self.load()
        // Counted with Python's json module: plain string units and localizations with variations or
        // substitutions; English also serves its 91 keys without an `en` localization as the key itself.
        let expected = ["en": (716, 17), "pl": (611, 16), "uk": (611, 16), "de": (694, 21)]
        for (language, (plain, rules)) in expected {
            let compiled = catalog.compiled(language: language)
            #expect(compiled.strings.count == plain, "\(language)")
            #expect(compiled.rules.count == rules, "\(language)")
            #expect(Set(compiled.strings.keys).isDisjoint(with: compiled.rules.keys))
        }
        let english = catalog.compiled(language: "en")
        let untranslated = catalog.entries.filter { $0.localizations["en"] == nil }
        #expect(untranslated.count == 91)
        #expect(untranslated.allSatisfy { english.strings[$0.key] == $0.key })
        let neither = try #require(untranslated.first { $0.localizations["pl"] == nil })
        #expect(catalog.compiled(language: "pl").strings[neither.key] == nil)
    }

    @Test(.needsCorpusCatalog)
    func pluralDeviceAndSubstitutionRulesFormat() throws {
        let (catalog, _) = try Self.load()
        let polish = catalog.compiled(language: "pl")
        let formatter = StringsdictFormatter()
        // A plural group without `many`: 5 is `many` in Polish, so `other` is used.
        let posts = try #require(polish.rules["accessibility.tabs.timeline.unread-posts.label-%lld"])
        #expect(try formatter.format(posts, language: "pl", arguments: [.int(1)]) == "1 nowy post")
        #expect(try formatter.format(posts, language: "pl", arguments: [.int(3)]) == "3 nowe posty")
        #expect(try formatter.format(posts, language: "pl", arguments: [.int(5)]) == "5 nowych postów")
        // Substitutions with `%arg`: English gives argNum, Polish does not; both bind the right arguments.
        let key = "design.tag.n-posts-from-n-participants %lld %lld"
        let english = try #require(catalog.compiled(language: "en").rules[key])
        #expect(try formatter.format(english, language: "en", arguments: [.int(3), .int(1)])
            == "3 posts from 1 participants")
        let polishTag = try #require(polish.rules[key])
        #expect(try formatter.format(polishTag, language: "pl", arguments: [.int(2), .int(1)])
            == "2 posty od 1 uczestnika")
        // A substitution whose forms print another argument by position.
        let followers = try #require(polish.rules["account.label.followers %lld %@"])
        #expect(try formatter.format(followers, language: "pl", arguments: [.int(1), .string("1")])
            == "1 obserwujący")
        // Device variations without `other`: the formatter's device picks, else the first device.
        let platform = try #require(catalog.compiled(language: "en").rules["settings.display.section.platform"])
        #expect(Set(platform.devices.keys) == ["applevision", "ipad", "iphone", "mac"])
        #expect(try StringsdictFormatter(device: "mac").format(platform, language: "en", arguments: []) == "Mac")
        #expect(try formatter.format(platform, language: "en", arguments: []) == "Apple Vision")
    }

    @Test(.needsCorpusCatalog)
    func polishAndUkrainianPluralGroupsLackRequiredCategories() throws {
        let (catalog, _) = try Self.load()
        for (language, count) in [("pl", 17), ("uk", 12)] {
            var lacking = 0
            for entry in catalog.entries {
                guard let localization = entry.localizations[language] else { continue }
                var groups: [[PluralCategory: StringCatalog.Localization]] = []
                if case .plural(let cases)? = localization.variations { groups.append(cases) }
                for substitution in localization.substitutions.values {
                    if case .plural(let cases)? = substitution.variations { groups.append(cases) }
                }
                lacking += groups.count { $0[.many] == nil }
            }
            #expect(lacking == count, "\(language)")
        }
    }

    /// A localization as a comparable text, ours or Foundation's, so both sides are described the same way.
    static func describe(_ localization: StringCatalog.Localization) -> String {
        var parts: [String] = []
        if let unit = localization.stringUnit { parts.append("unit(\(unit.state?.rawValue ?? "-"),\(unit.value))") }
        if let variations = localization.variations { parts.append(describe(variations)) }
        for (name, substitution) in localization.substitutions.sorted(by: { $0.key < $1.key }) {
            let variations = substitution.variations.map(describe) ?? "-"
            parts.append("sub(\(name),\(substitution.argumentNumber ?? 0),\(substitution.formatSpecifier ?? "-"),"
                + "\(variations))")
        }
        return parts.joined(separator: ";")
    }

    static func describe(_ variations: StringCatalog.Variations) -> String {
        switch variations {
        case .plural(let cases):
            "plural{" + cases.sorted { $0.key < $1.key }.map { "\($0.key.rawValue):\(describe($0.value))" }
                .joined(separator: ",") + "}"
        case .device(let cases):
            "device{" + cases.sorted { $0.key < $1.key }.map { "\($0.key):\(describe($0.value))" }
                .joined(separator: ",") + "}"
        }
    }

    static func describe(_ json: Any?) -> String {
        guard let object = json as? [String: Any] else { return "?" }
        var parts: [String] = []
        if let unit = object["stringUnit"] as? [String: Any] {
            parts.append("unit(\(unit["state"] as? String ?? "-"),\(unit["value"] as? String ?? "?"))")
        }
        if let variations = object["variations"] as? [String: Any] { parts.append(describeVariations(variations)) }
        let substitutions = object["substitutions"] as? [String: [String: Any]] ?? [:]
        for (name, value) in substitutions.sorted(by: { $0.key < $1.key }) {
            let variations = (value["variations"] as? [String: Any]).map(describeVariations) ?? "-"
            parts.append("sub(\(name),\(value["argNum"] as? Int ?? 0),\(value["formatSpecifier"] as? String ?? "-"),"
                + "\(variations))")
        }
        return parts.joined(separator: ";")
    }

    static func describeVariations(_ json: [String: Any]) -> String {
        guard let (kind, value) = json.first, let cases = value as? [String: Any] else { return "?" }
        let order = PluralCategory.allCases.map(\.rawValue)
        let sorted = cases.sorted { kind == "plural"
            ? (order.firstIndex(of: $0.key) ?? 9) < (order.firstIndex(of: $1.key) ?? 9) : $0.key < $1.key }
        return "\(kind){" + sorted.map { "\($0.key):\(describe($0.value))" }.joined(separator: ",") + "}"
    }
}
