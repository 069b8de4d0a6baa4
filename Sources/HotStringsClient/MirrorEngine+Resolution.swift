/// The pure part of the engine: resolving keys through a chain and comparing resolved views.
extension MirrorEngine {
    /// `entries` (one table name's resolved values) with `keys` resolved again through `chain`, and which of
    /// them changed value. Each table of the chain is looked up once, then each key is hashed once per step;
    /// when every key changed (the usual case), `keys` itself is the answer and no set is built.
    static func resolve(_ keys: Set<String>, table: String, chain: [String],
                        in tables: [LocalizedTable: [String: String]],
                        into entries: consuming [String: String]) -> (entries: [String: String], changed: Set<String>) {
        let layers = chain.compactMap { tables[LocalizedTable(language: $0, table: table)] }
        var unchanged: [String] = []
        for key in keys {
            var value: String?
            for layer in layers {
                if let found = layer[key] {
                    value = found
                    break
                }
            }
            let old = if let value { entries.updateValue(value, forKey: key) }
                else { entries.removeValue(forKey: key) }
            if old == value { unchanged.append(key) }
        }
        return (entries, unchanged.isEmpty ? keys : keys.subtracting(unchanged))
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
