import StringsFormat

/// Lints a String Catalog: its syntax, the plural categories of each language, and how many strings are
/// `new`, `needs_review` or `stale`.
package struct CatalogLinter {
    /// Parses the bytes of `path` and checks every language.
    package static func lint(_ bytes: [UInt8], path: String) -> LintedFile {
        var file = LintedFile(path: path, place: nil)
        guard let catalog = file.parsing({ () throws(ParseError) in try StringCatalog.parse(bytes) }) else { return file }
        file.catalog = catalog
        file.diagnostics += languageDiagnostics(catalog)
        for entry in catalog.entries {
            for (language, localization) in entry.localizations.sorted(by: { $0.key < $1.key }) {
                for (name, forms) in pluralGroups(localization) {
                    file.diagnostics += pluralDiagnostics(forms.keys, language: language, group: name, entry: entry)
                }
            }
        }
        for (language, counts) in stateCounts(catalog) {
            let parts = [(StringCatalog.StringUnit.State.new, "new"), (.needsReview, "needs review"), (.stale, "stale")]
                .compactMap { state, words in counts[state].map { "\($0) \(words) (\(state))" } }
            guard !parts.isEmpty else { continue }
            file.diagnostics.append(Diagnostic(
                severity: .warning, kind: .translationState,
                message: "language '\(DisplayText.escaped(language))': " + parts.joined(separator: ", ")))
        }
        if catalog.entries.isEmpty {
            file.diagnostics.append(Diagnostic(severity: .warning, kind: .emptyFile, message: "catalog has no strings"))
        }
        return file
    }

    /// An error for `sourceLanguage` and for each language of a localization that is not a language tag
    /// (`LanguageTag`: letters, digits, `-` and `_`), at the first key that has it: `compile` makes a folder
    /// `<language>.lproj` of each, and the watcher would never serve them.
    package static func languageDiagnostics(_ catalog: StringCatalog) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        if LanguageTag(catalog.sourceLanguage) == nil {
            diagnostics.append(Diagnostic(
                severity: .error, kind: .language,
                message: "sourceLanguage '\(DisplayText.escaped(catalog.sourceLanguage))' is not a language tag"))
        }
        var reported: Set<String> = [catalog.sourceLanguage]
        for entry in catalog.entries {
            for language in entry.localizations.keys.sorted() where LanguageTag(language) == nil {
                guard reported.insert(language).inserted else { continue }
                diagnostics.append(Diagnostic(
                    severity: .error, kind: .language, location: entry.location,
                    message: "key '\(DisplayText.escaped(entry.key))': language '\(DisplayText.escaped(language))' "
                        + "is not a language tag",
                    key: entry.key))
            }
        }
        return diagnostics
    }

    /// The string units of each language by state (`new`, `needs_review`, `stale` only), languages sorted.
    package static func stateCounts(_ catalog: StringCatalog) -> [(String, [StringCatalog.StringUnit.State: Int])] {
        var counts: [String: [StringCatalog.StringUnit.State: Int]] = [:]
        for entry in catalog.entries {
            for (language, localization) in entry.localizations {
                for state in unitStates(localization) where state == .new || state == .needsReview || state == .stale {
                    counts[language, default: [:]][state, default: 0] += 1
                }
            }
        }
        return counts.sorted { $0.key < $1.key }
    }

    /// The state of every string unit of a localization: its own, its variations' and its substitutions'.
    package static func unitStates(_ localization: StringCatalog.Localization) -> [StringCatalog.StringUnit.State] {
        var states: [StringCatalog.StringUnit.State] = []
        if let state = localization.stringUnit?.state { states.append(state) }
        for variant in localization.variations?.cases ?? [] { states += unitStates(variant) }
        for substitution in localization.substitutions.values {
            for variant in substitution.variations?.cases ?? [] { states += unitStates(variant) }
        }
        return states
    }

    /// Every plural group of a localization (its own plural variations, nested ones inside device cases, and
    /// each substitution's), named for messages.
    package static func pluralGroups(_ localization: StringCatalog.Localization)
        -> [(name: String, forms: [PluralCategory: StringCatalog.Localization])]
    {
        var groups: [(String, [PluralCategory: StringCatalog.Localization])] = []
        switch localization.variations {
        case .plural(let cases)?: groups.append(("plural variations", cases))
        case .device(let cases)?:
            for (device, variant) in cases.sorted(by: { $0.key < $1.key }) {
                if case .plural(let forms)? = variant.variations {
                    groups.append(("plural variations of device '\(DisplayText.escaped(device))'", forms))
                }
            }
        case nil: break
        }
        for (name, substitution) in localization.substitutions.sorted(by: { $0.key < $1.key }) {
            if case .plural(let forms)? = substitution.variations {
                groups.append(("substitution '\(DisplayText.escaped(name))'", forms))
            }
        }
        return groups
    }

    /// A missing `other` is an error; categories `language` needs but lacks, and categories it never uses
    /// (but `zero`, which Apple applies to 0 in every language), are warnings.
    package static func pluralDiagnostics(_ present: some Collection<PluralCategory>, language: String, group: String,
                                  entry: StringCatalog.Entry) -> [Diagnostic]
    {
        let key = DisplayText.escaped(entry.key)
        let shown = DisplayText.escaped(language)
        let used = PluralRules.categories(language: language)
        let present = Set(present)
        var diagnostics: [Diagnostic] = []
        if !present.contains(.other) {
            diagnostics.append(Diagnostic(
                severity: .error, kind: .pluralCategory, location: entry.location,
                message: "key '\(key)', language '\(shown)': \(group) have no 'other' form", key: entry.key))
        }
        let missing = used.filter { !present.contains($0) && $0 != .other }
        let unused = present.sorted().filter { !used.contains($0) && $0 != .zero }
        let findings = [(missing, "lack", "which the language uses"), (unused, "have", "which the language never uses")]
        for (categories, verb, clause) in findings where !categories.isEmpty {
            diagnostics.append(Diagnostic(
                severity: .warning, kind: .pluralCategory, location: entry.location,
                message: "key '\(key)', language '\(shown)': \(group) \(verb) "
                    + categories.map { "'\($0.rawValue)'" }.joined(separator: ", ") + ", \(clause)",
                key: entry.key))
        }
        return diagnostics
    }
}

extension StringCatalog.Variations {
    /// The cases, whatever they vary by.
    package var cases: [StringCatalog.Localization] {
        switch self {
        case .plural(let cases): Array(cases.values)
        case .device(let cases): Array(cases.values)
        }
    }
}
