/// The CLDR language data that `LanguageTag` and `LanguageMatcher` use, read once from the compact tables that
/// `scripts/generate-language-data.py` writes into `LanguageData+CLDR.swift`.
enum LanguageData {
    /// A tag's likely script and region (CLDR likely subtags).
    struct Likely: Sendable, Hashable {
        var script: String
        var region: String
    }

    /// `zh-TW` → `Hant`, `TW`; keys are `language`, `language-Script` or `language-REGION`.
    static let likelySubtags: [String: Likely] = {
        var table: [String: Likely] = [:]
        for (key, value) in pairs(likelySubtagsTable) {
            let parts = value.split(separator: "-")
            table[key] = Likely(script: String(parts[0]), region: String(parts[1]))
        }
        return table
    }()

    /// `es-MX` → `es-419`: CLDR parent locales within one language.
    static let parents: [String: String] = Dictionary(pairs(parentLocalesTable)) { first, _ in first }

    /// `iw` → `he`: legacy language codes, lower case, and their replacements.
    static let aliases: [String: String] = Dictionary(pairs(languageAliasTable)) { first, _ in first }

    /// `en-001` → `en-GB`: the bundle language that stands in for a parent the bundle does not have.
    static let standIns: [String: String] = Dictionary(pairs(standInTable)) { first, _ in first }

    /// The `key=value` entries of a generated table.
    private static func pairs(_ table: String) -> [(String, String)] {
        table.split(whereSeparator: { $0 == " " || $0 == "\n" }).compactMap { entry in
            let parts = entry.split(separator: "=", maxSplits: 1)
            return parts.count == 2 ? (String(parts[0]), String(parts[1])) : nil
        }
    }
}
