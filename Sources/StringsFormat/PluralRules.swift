/// A CLDR plural category.
public enum PluralCategory: String, Sendable, Hashable, CaseIterable, Comparable {
    case zero, one, two, few, many, other

    /// CLDR's order: zero, one, two, few, many, other.
    public static func < (lhs: Self, rhs: Self) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// Which CLDR rules to apply: counting ("1 file", cardinal) or ranking ("1st", ordinal).
public enum PluralRuleType: String, Sendable, Hashable, CaseIterable {
    case cardinal, ordinal
}

/// CLDR's plural rules for every CLDR locale, generated from the pinned CLDR data by
/// `scripts/generate-plural-rules.py` (the rule sets live in `PluralRules+CLDR.swift`).
///
/// A language tag is matched the way CLDR inherits locale data: the tag as given (with `_` read as `-`,
/// case-insensitively), then with its last subtag removed, and so on (`pt-PT-x` → `pt-PT`; `zh-Hant-TW` →
/// `zh-Hant` → `zh`); a few legacy codes map to their current ones (`iw` → `he`, `in` → `id`, `ji` → `yi`);
/// anything else, including `Base` and the empty tag, uses the root rules, where every number is `other`.
public enum PluralRules {
    /// The category of `operands` in `language` under the `type` rules.
    public static func category(
        for operands: PluralOperands, language: String, type: PluralRuleType = .cardinal
    ) -> PluralCategory {
        switch type {
        case .cardinal:
            cardinalCategory(ruleSet: ruleSet(for: language, in: cardinalRuleSets), operands)
        case .ordinal:
            ordinalCategory(ruleSet: ruleSet(for: language, in: ordinalRuleSets), operands)
        }
    }

    /// The category of an integer in `language`.
    public static func category(for value: Int, language: String, type: PluralRuleType = .cardinal)
        -> PluralCategory
    {
        category(for: PluralOperands(value), language: language, type: type)
    }

    /// The categories `language` uses under the `type` rules, in CLDR order; always includes `other`.
    public static func categories(language: String, type: PluralRuleType = .cardinal) -> [PluralCategory] {
        switch type {
        case .cardinal: cardinalCategories[ruleSet(for: language, in: cardinalRuleSets)]
        case .ordinal: ordinalCategories[ruleSet(for: language, in: ordinalRuleSets)]
        }
    }

    /// The CLDR locale whose rules `language` uses (`pt-BR` → `pt`, `xx` → `und`).
    public static func ruleLocale(for language: String, type: PluralRuleType = .cardinal) -> String {
        let sets = type == .cardinal ? cardinalRuleSets : ordinalRuleSets
        return matchingLocale(for: language, in: sets) ?? "und"
    }

    private static let legacyCodes = ["iw": "he", "in": "id", "ji": "yi"]

    private static func ruleSet(for language: String, in sets: [String: Int]) -> Int {
        sets[matchingLocale(for: language, in: sets) ?? "und"] ?? 0
    }

    private static func matchingLocale(for language: String, in sets: [String: Int]) -> String? {
        var subtags = language.split(whereSeparator: { $0 == "-" || $0 == "_" }).map { $0.lowercased() }
        if let first = subtags.first, let current = legacyCodes[first] { subtags[0] = current }
        while !subtags.isEmpty {
            let candidate = canonicalTag(subtags)
            if sets[candidate] != nil { return candidate }
            subtags.removeLast()
        }
        return nil
    }

    /// `pt-pt` → `pt-PT`, `zh-hant` → `zh-Hant`: CLDR's spelling of a lowercased tag.
    private static func canonicalTag(_ subtags: [String]) -> String {
        subtags.enumerated().map { index, subtag in
            guard index > 0 else { return subtag }
            if subtag.count == 2 { return subtag.uppercased() }
            if subtag.count == 4 { return subtag.prefix(1).uppercased() + subtag.dropFirst() }
            return subtag
        }.joined(separator: "-")
    }
}
