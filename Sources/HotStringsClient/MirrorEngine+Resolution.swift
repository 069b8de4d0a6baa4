/// The pure part of the engine: resolving keys through a chain and comparing resolved views.
extension MirrorEngine {
    /// The value of `key` in the first language of `chain` whose `table` has it.
    static func resolve(_ key: String, table: String, chain: [String],
                        in tables: [LocalizedTable: [String: String]]) -> String? {
        for language in chain {
            if let value = tables[LocalizedTable(language: language, table: table)]?[key] { return value }
        }
        return nil
    }

    /// Every table name's keys resolved through `chain`: the most preferred language's value wins.
    static func build(chain: [String], from tables: [LocalizedTable: [String: String]]) -> [String: [String: String]] {
        let rank = Dictionary(uniqueKeysWithValues: chain.enumerated().map { ($1, $0) })
        var layers: [String: [(rank: Int, entries: [String: String])]] = [:]
        for (id, entries) in tables {
            if let position = rank[id.language] { layers[id.table, default: []].append((position, entries)) }
        }
        var strings: [String: [String: String]] = [:]
        for (table, found) in layers {
            let ordered = found.sorted { $0.rank < $1.rank }
            // Start from the most preferred table (shared storage, no copy when it is the only one).
            var merged = ordered[0].entries
            for layer in ordered.dropFirst() {
                merged.merge(layer.entries) { kept, _ in kept }
            }
            if !merged.isEmpty { strings[table] = merged }
        }
        return strings
    }

    /// The keys whose value differs between `old` and `new` (present in one only, or with other values).
    static func differences(_ old: [String: [String: String]],
                            _ new: [String: [String: String]]) -> [String: Set<String>] {
        var keys: [String: Set<String>] = [:]
        for table in Set(old.keys).union(new.keys) {
            let before = old[table] ?? [:]
            let after = new[table] ?? [:]
            var changed: Set<String> = []
            for (key, value) in after where before[key] != value { changed.insert(key) }
            for key in before.keys where after[key] == nil { changed.insert(key) }
            if !changed.isEmpty { keys[table] = changed }
        }
        return keys
    }
}
