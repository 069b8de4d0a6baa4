/// Which keys a fallback answers, for the missing-key reports (`MissRecorder`).
extension MirrorEngine {
    /// The keys of the view's table `name` that a language other than the best match of the current language
    /// answers, each with that language's position in the chain plus one (what `FrozenTable` keeps as a key's
    /// origin); empty when the best match answers every key.
    ///
    /// `de-CH` answered by `de` (its best match) is no fallback, by `en` it is. `Base` counts as the development
    /// language: a key it answers is a fallback only when the best match is another language. With no best
    /// match (a language the bundle does not have), every key is a fallback.
    /// - Complexity: O(1) when the best match's table has as many keys as the view's; else one probe per key
    ///   and one per layer for the keys the best match lacks.
    func fallbackOrigins(table name: String) -> [String: UInt8] {
        guard let strings = view.strings[name], !strings.isEmpty else { return [:] }
        let best = view.bestMatch
        let bestEntries = best.flatMap { tables[LocalizedTable(language: $0, table: name)] } ?? [:]
        guard bestEntries.count < strings.count else { return [:] }
        let layers = chain.enumerated().compactMap { index, language -> (origin: UInt8, entries: [String: String])? in
            guard language != best, let entries = tables[LocalizedTable(language: language, table: name)] else {
                return nil
            }
            let isDevelopmentBase = language == LanguageTags.base && best == developmentLanguage
            // Origin 0 (none) for `Base` standing in for the best match, or beyond what a byte can name.
            return (isDevelopmentBase || index >= 255 ? 0 : UInt8(index + 1), entries)
        }
        var origins: [String: UInt8] = [:]
        for key in strings.keys where bestEntries[key] == nil {
            guard let layer = layers.first(where: { $0.entries[key] != nil }), layer.origin != 0 else { continue }
            origins[key] = layer.origin
        }
        return origins
    }
}
