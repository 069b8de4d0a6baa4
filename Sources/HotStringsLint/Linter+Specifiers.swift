import StringsFormat

/// The format specifier checks: every value of every language, judged by argument position and class against the
/// development language's value of the same key (`FormatSpecifiers.problems(of:against:developmentLanguage:)`, the
/// judgement `set` refuses by), and on its own (positioned and plain specifiers mixed) in the development language.
extension Linter {
    /// Judges the values of the language folders' tables and of the String Catalogs.
    ///
    /// A folder's value is judged as it is served: a key a `.stringsdict` has is its rule, whatever the folder's
    /// `.strings` says (that value is not judged), against the development language's folder's served value of the
    /// same root and table. `Base.lproj` and files that did not parse take no part; in a root without the
    /// development language, values are judged on their own. A catalog's localization is judged as it compiles,
    /// against the same key's development language localization in that catalog, else its source language's, and the
    /// arguments its key takes (Xcode writes the format the code passes as the key, `%lld files`).
    package func compareSpecifiers(_ files: inout [LintedFile]) {
        var groups: [String: [Int]] = [:]
        for (index, file) in files.enumerated() {
            guard let place = file.place, !place.isBase, file.table != nil || file.rules != nil else { continue }
            groups[place.root + "\u{0}" + place.table, default: []].append(index)
        }
        for members in groups.values {
            let referenceFolder = members.compactMap { files[$0].place }
                .first { $0.isLanguage(developmentLanguage) }?.folder
            // The development language's values as served: a `.stringsdict`'s rules over its `.strings` values.
            var reference: [String: StringsdictEntry] = [:]
            for index in members where files[index].place?.folder == referenceFolder {
                for entry in files[index].table?.entries ?? [] {
                    reference[entry.key] = StringsdictEntry(format: entry.value, variables: [:])
                }
            }
            for index in members where files[index].place?.folder == referenceFolder {
                guard let rules = files[index].rules else { continue }
                for key in rules.keys { reference[key] = rules[key] }
            }
            var rulesByFolder: [String: StringsdictTable] = [:]
            for index in members {
                guard let place = files[index].place, let rules = files[index].rules else { continue }
                rulesByFolder[place.folder] = rules
            }
            for index in members {
                guard let folder = files[index].place?.folder else { continue }
                let isReference = folder == referenceFolder
                var found: [Diagnostic] = []
                for entry in files[index].table?.entries ?? [] where rulesByFolder[folder]?[entry.key] == nil {
                    found += diagnostics(StringsdictEntry(format: entry.value, variables: [:]), key: entry.key,
                                         against: isReference ? nil : reference[entry.key], at: entry.location)
                }
                if let rules = files[index].rules {
                    let locations = files[index].ruleLocations
                    let inOrder = rules.keys.sorted { (locations[$0]?.line ?? 0, $0) < (locations[$1]?.line ?? 0, $1) }
                    for key in inOrder {
                        guard let rule = rules[key] else { continue }
                        found += diagnostics(rule, key: key, against: isReference ? nil : reference[key],
                                             at: files[index].ruleLocations[key])
                    }
                }
                files[index].diagnostics += found
            }
        }
        for index in files.indices {
            guard let catalog = files[index].catalog else { continue }
            files[index].diagnostics += catalogDiagnostics(catalog)
        }
    }

    /// The catalog's localizations, each against its key's development language (else source language) value.
    private func catalogDiagnostics(_ catalog: StringCatalog) -> [Diagnostic] {
        let developmentTag = LanguageTag(developmentLanguage)
        var found: [Diagnostic] = []
        for entry in catalog.entries {
            let referenceLanguage = entry.localizations.keys.sorted().first { developmentTag != nil
                && LanguageTag($0) == developmentTag } ?? catalog.sourceLanguage
            let reference = catalog.formatEntry(of: entry, language: referenceLanguage)
            for language in entry.localizations.keys.sorted() {
                guard let value = catalog.formatEntry(of: entry, language: language) else { continue }
                found += diagnostics(value, key: entry.key, language: language,
                                     against: language == referenceLanguage ? nil : reference,
                                     catalogKey: entry.key, at: entry.location)
            }
        }
        return found
    }

    /// One diagnostic per problem of `value`, at `location`; a catalog's names the `language`, and gives its key
    /// (`catalogKey`: Xcode writes the format the code passes there). A problem found in several texts of the value
    /// (each plural form writing `%@` for the count) is one diagnostic, at the first, naming the others.
    private func diagnostics(_ value: StringsdictEntry, key: String, language: String? = nil,
                             against reference: StringsdictEntry?, catalogKey: String? = nil,
                             at location: SourceLocation?) -> [Diagnostic] {
        let problems = FormatSpecifiers.problems(of: value, against: reference, catalogKey: catalogKey,
                                                 developmentLanguage: developmentLanguage)
        var places: [String: [TextPlace]] = [:]
        for problem in problems { places[problem.reason, default: []].append(problem.place) }
        return problems.compactMap { problem in
            guard let others = places[problem.reason]?.dropFirst(), places[problem.reason]?.first == problem.place
            else { return nil }
            let named = others.map { $0.description.isEmpty ? "the value" : $0.description }
            let also = named.isEmpty ? "" : " (also in " + named.joined(separator: ", ") + ")"
            return Diagnostic(severity: problem.severity == .error ? .error : .warning, kind: .formatSpecifiers,
                              location: location, message: problem.message(key: key, language: language) + also,
                              key: key)
        }
    }
}
