import StringsFormat

/// `.stringsdict` checks: each entry on its own (it can format: `other` present, every `%#@variable@` defined;
/// its plural categories fit the language). Its format specifiers are judged with every other value's
/// (`Linter+Specifiers`).
extension Linter {
    /// Parses a `.stringsdict` read from `path` and checks each entry.
    package func lintStringsdict(_ bytes: [UInt8], path: String) -> LintedFile {
        var file = LintedFile(path: path, place: BundlePlace(path: path))
        guard let rules = file.parsing({ () throws(ParseError) in try StringsdictFile.parse(bytes) }) else { return file }
        file.rules = rules
        if rules.isEmpty {
            file.diagnostics.append(Diagnostic(severity: .warning, kind: .emptyFile, message: "file is empty"))
        }
        let language = file.place.map { $0.isBase ? "" : $0.language } ?? ""
        for key in rules.keys {
            guard let entry = rules[key] else { continue }
            let location = StringsdictFile.location(ofKey: key, in: bytes)
            let place = SourceLocation(line: location.line, column: location.column)
            file.ruleLocations[key] = place
            for (severity, kind, message) in Self.problems(of: entry, language: language) {
                file.diagnostics.append(Diagnostic(severity: severity, kind: kind, location: place,
                                                   message: "'\(DisplayText.escaped(key))': \(message)", key: key))
            }
        }
        return file
    }

    /// What is wrong with one entry: errors that stop it from formatting, warnings about its categories in
    /// `language` (none when the language is unknown, as for `Base`).
    package static func problems(of entry: StringsdictEntry, language: String)
        -> [(Diagnostic.Severity, Diagnostic.Kind, String)]
    {
        var problems: [(Diagnostic.Severity, Diagnostic.Kind, String)] = []
        var texts = [entry.format]
        for name in entry.variables.keys.sorted() {
            guard case .plural(_, let forms)? = entry.variables[name] else {
                texts += Self.texts(of: entry.variables[name])
                continue
            }
            texts += forms.values
            if forms[.other] == nil {
                problems.append((.error, .ruleError, "variable '\(name)' has no 'other' form"))
            }
            guard !language.isEmpty, PluralRules.ruleLocale(for: language) != "und" else { continue }
            let used = Set(PluralRules.categories(language: language))
            let unused = forms.keys.filter { !used.contains($0) && $0 != .zero }.sorted()
            if !unused.isEmpty {
                problems.append((.warning, .pluralCategory, "variable '\(name)' has "
                    + "\(unused.map { "'\($0.rawValue)'" }.joined(separator: ", ")), which '\(language)' does "
                    + "not use (it uses \(used.sorted().map(\.rawValue).joined(separator: ", ")))"))
            }
            let lacking = used.filter { forms[$0] == nil && $0 != .other }.sorted()
            if !lacking.isEmpty {
                problems.append((.warning, .pluralCategory, "variable '\(name)' lacks "
                    + "\(lacking.map { "'\($0.rawValue)'" }.joined(separator: ", ")), which '\(language)' needs"))
            }
        }
        let undefined = Set(texts.flatMap { FormatSpecifiers.variables(in: $0) })
            .subtracting(entry.variables.keys).sorted()
        for name in undefined {
            problems.append((.error, .ruleError, "'%#@\(name)@' is not defined in the entry"))
        }
        return problems
    }

    private static func texts(of variable: StringsdictEntry.Variable?) -> [String] {
        switch variable {
        case .plural(_, let forms)?: Array(forms.values)
        case .variableWidth(let texts)?: Array(texts.values)
        case .deviceSpecific(let texts)?: Array(texts.values)
        case nil: []
        }
    }
}
