import HotStringsProtocol
import StringsFormat

/// A key's format rule as a lookup resolves it: the rule and the language of the table it came from, whose
/// plural rules format it (a `de` lookup that falls back to `en` formats with English rules).
struct ResolvedRule: Sendable, Equatable {
    /// The `.stringsdict` entry.
    var entry: StringsdictEntry
    /// The canonical language of the table that had the key.
    var language: String
    /// That language's cardinal plural rules, matched once when the view is built rather than on every format.
    var pluralRules: PluralRuleSet
}

extension MirrorEngine {
    /// The rules of a payload's `rules` member, by key; a rule that is not a well-formed entry is left out (its
    /// plain text in `entries` stays the value).
    static func rules(from payload: [(String, JSONValue)]) -> [String: StringsdictEntry] {
        var rules: [String: StringsdictEntry] = [:]
        for (key, json) in payload {
            guard let plist = PropertyListValue(json: json),
                  let entry = try? StringsdictEntry(key: key, plist) else { continue }
            rules[key] = entry
        }
        return rules
    }

    /// Each table name's rules as lookups through `chain` find them: a key has a rule when the first language of
    /// the chain that has the key has a rule for it.
    /// - Complexity: O(r × c) for r rules and a chain of c languages; plain strings cost nothing.
    static func resolveRules(chain: [String], tables: [LocalizedTable: [String: String]],
                             rules: [LocalizedTable: [String: StringsdictEntry]]) -> [String: [String: ResolvedRule]] {
        guard !rules.isEmpty else { return [:] }
        let rank = Dictionary(chain.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        var resolved: [String: [String: ResolvedRule]] = [:]
        var pluralRules: [String: PluralRuleSet] = [:]
        for (id, entries) in rules {
            guard let position = rank[id.language] else { continue }
            let languageRules = pluralRules[id.language] ?? PluralRuleSet(language: id.language)
            pluralRules[id.language] = languageRules
            for (key, entry) in entries {
                let earlier = chain[..<position].contains { language in
                    tables[LocalizedTable(language: language, table: id.table)]?[key] != nil
                }
                guard !earlier else { continue }
                resolved[id.table, default: [:]][key] = ResolvedRule(entry: entry, language: id.language,
                                                                        pluralRules: languageRules)
            }
        }
        return resolved
    }

    /// The keys whose resolved rule differs between `old` and `new`, by table name.
    static func ruleDifferences(_ old: [String: [String: ResolvedRule]],
                                _ new: [String: [String: ResolvedRule]]) -> [String: Set<String>] {
        var keys: [String: Set<String>] = [:]
        for table in Set(old.keys).union(new.keys) {
            let before = old[table] ?? [:]
            let after = new[table] ?? [:]
            for key in Set(before.keys).union(after.keys) where before[key] != after[key] {
                keys[table, default: []].insert(key)
            }
        }
        return keys
    }
}

extension PropertyListValue {
    /// A JSON object of strings and objects (a rule on the wire) as the property list it came from; nil for
    /// anything else.
    package init?(json: JSONValue) {
        switch json {
        case .string(let text):
            self = .string(text)
        case .object(let members):
            var dictionary: [String: PropertyListValue] = [:]
            for (key, member) in members {
                guard let value = PropertyListValue(json: member) else { return nil }
                dictionary[key] = value
            }
            self = .dictionary(dictionary)
        default:
            return nil
        }
    }
}
