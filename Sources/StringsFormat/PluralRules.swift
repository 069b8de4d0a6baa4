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
    ///
    /// Matches `language` to its CLDR locale on every call; to categorize many numbers in one language,
    /// resolve the rules once with `PluralRuleSet(language:type:)`.
    public static func category(
        for operands: PluralOperands, language: String, type: PluralRuleType = .cardinal
    ) -> PluralCategory {
        PluralRuleSet(language: language, type: type).category(for: operands)
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

    fileprivate static func ruleSet(for language: String, in sets: [String: Int]) -> Int {
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

/// One language's plural rules of one type, matched to their CLDR locale once (see `PluralRules` for how a
/// language tag is matched), so that categorizing a number costs no string work: what a formatter keeps for
/// a table's language.
public struct PluralRuleSet: Sendable, Hashable {
    /// Counting or ranking rules.
    public let type: PluralRuleType
    /// The index of the generated rule set.
    private let index: Int

    /// The `type` rules of `language` (the root rules, where every number is `other`, for an unknown one).
    public init(language: String, type: PluralRuleType = .cardinal) {
        self.type = type
        switch type {
        case .cardinal: index = PluralRules.ruleSet(for: language, in: PluralRules.cardinalRuleSets)
        case .ordinal: index = PluralRules.ruleSet(for: language, in: PluralRules.ordinalRuleSets)
        }
    }

    /// The category of `operands`.
    public func category(for operands: PluralOperands) -> PluralCategory {
        switch type {
        case .cardinal: PluralRules.cardinalCategory(ruleSet: index, operands)
        case .ordinal: PluralRules.ordinalCategory(ruleSet: index, operands)
        }
    }
}
