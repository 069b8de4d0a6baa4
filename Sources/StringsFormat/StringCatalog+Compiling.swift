extension StringCatalog {
    /// The `.strings` values and `.stringsdict` rules Xcode's build writes for `language` (as
    /// `<lang>.lproj/T.strings` and `T.stringsdict`): plain texts in catalog order with the key's comment, and
    /// the keys whose text varies (plural, device) or has substitutions as rules.
    ///
    /// Every string unit is served whatever its `state`; the source language's value of a key it has no
    /// localization for is the key. A plain string unit is a string; a localization with `variations` or
    /// `substitutions` is a rule: plural variations become a `%#@plural@` variable of `NSStringPluralRuleType`,
    /// device variations the entry's `NSStringDeviceSpecificRuleType` (on top, a plural inside each device),
    /// substitutions variables named after them with `%arg` resolved to their argument. `docs/FORMAT.md`
    /// has the details.
    /// - Complexity: O(n) in the size of the catalog.
    public func compiled(language: String) -> TableContent {
        var output = TableContent()
        for entry in entries {
            let value: CatalogValue?
            if let localization = entry.localizations[language] {
                value = CatalogValue(localization)
            } else {
                value = language == sourceLanguage ? .text(entry.key) : nil
            }
            output.append(value, key: entry.key, comment: entry.comment)
        }
        return output
    }
}

extension StringCatalog {
    /// What `entry` compiles to in `language` (exactly as spelled in the catalog), a plain text as an entry
    /// without variables: the value whose format specifiers `lint` and `set` judge. `nil` when the language has no
    /// text for it; the source language's text of a key it has no localization for is the key.
    package func formatEntry(of entry: Entry, language: String) -> StringsdictEntry? {
        let value: CatalogValue?
        if let localization = entry.localizations[language] {
            value = CatalogValue(localization)
        } else {
            value = language == sourceLanguage ? .text(entry.key) : nil
        }
        switch value {
        case .text(let text)?: return StringsdictEntry(format: text, variables: [:])
        case .rule(let rule)?: return rule
        case nil: return nil
        }
    }
}

extension TableContent {
    /// Adds what a catalog's key compiles to in one language: a text to `strings`, a rule to `rules`.
    mutating func append(_ value: CatalogValue?, key: String, comment: String?) {
        switch value {
        case .text(let text)?: strings.append(StringsEntry(key: key, value: text, comment: comment))
        case .rule(let rule)?: rules[key] = rule
        case nil: break
        }
    }
}

/// What one localization compiles to.
enum CatalogValue: Hashable {
    case text(String)
    case rule(StringsdictEntry)

    /// `nil` when the localization has no text (no string unit and no variations).
    init?(_ localization: StringCatalog.Localization) {
        let variables = Self.variables(localization.substitutions)
        switch localization.variations {
        case nil:
            guard let text = localization.stringUnit?.value else { return nil }
            let format = Self.positioningVariables(in: text, localization.substitutions)
            self = variables.isEmpty ? .text(text) : .rule(StringsdictEntry(format: format, variables: variables))
        case .plural(let cases)?:
            let devices = Set(cases.values.flatMap { $0.variations?.deviceNames ?? [] })
            guard devices.isEmpty else {
                // A plural that varies by device inside: Apple's format has the device on top.
                var entry = StringsdictEntry(format: "", variables: [:])
                for device in devices.sorted() {
                    let forms = cases.compactMapValues { $0.picking(device: device) }
                    entry.devices[device] = Self.pluralEntry(forms, localization.substitutions, variables)
                }
                self = .rule(entry)
                return
            }
            self = .rule(Self.pluralEntry(cases, localization.substitutions, variables))
        case .device(let cases)?:
            var entry = StringsdictEntry(format: "", variables: [:])
            for (device, variant) in cases {
                var variant = variant
                variant.substitutions = localization.substitutions
                switch CatalogValue(variant) {
                case .text(let text)?: entry.devices[device] = StringsdictEntry(format: text, variables: [:])
                case .rule(let rule)?: entry.devices[device] = rule
                case nil: break
                }
            }
            self = .rule(entry)
        }
    }

    /// The name of the plural variable made for plural variations; a substitution of that name gets another.
    static let pluralVariable = "plural"

    private static func pluralEntry(_ cases: [PluralCategory: StringCatalog.Localization],
                                    _ substitutions: [String: StringCatalog.Substitution],
                                    _ variables: [String: StringsdictEntry.Variable]) -> StringsdictEntry
    {
        var forms: [PluralCategory: String] = [:]
        for (category, form) in cases {
            guard let text = form.stringUnit?.value else { continue }
            forms[category] = positioningVariables(in: text, substitutions)
        }
        var name = pluralVariable
        var suffix = 1
        while variables[name] != nil {
            name = "\(pluralVariable)_\(suffix)"
            suffix += 1
        }
        // The variable takes the number the forms print: the first number specifier of `other` (else of any
        // form), with its position when it has one.
        let ordered = forms.sorted { $0.key == .other || ($1.key != .other && $0.key < $1.key) }
        let specifier = ordered.lazy.compactMap { FormatSpecifiers.firstNumber(in: $0.value) }.first
        let position = specifier?.position.map { "\($0)$" } ?? ""
        var all = variables
        all[name] = .plural(valueType: specifier?.valueType ?? "", forms: forms)
        return StringsdictEntry(format: "%\(position)#@\(name)@", variables: all)
    }

    /// The substitutions as plural variables, `%arg` in their texts resolved.
    private static func variables(_ substitutions: [String: StringCatalog.Substitution])
        -> [String: StringsdictEntry.Variable]
    {
        var variables: [String: StringsdictEntry.Variable] = [:]
        for (name, substitution) in substitutions {
            let specifier = substitution.formatSpecifier ?? "lld"
            let own = "%" + (substitution.argumentNumber.map { "\($0)$" } ?? "") + specifier
            switch substitution.variations {
            case .plural(let cases)?:
                var forms: [PluralCategory: String] = [:]
                for (category, form) in cases {
                    guard let text = form.stringUnit?.value else { continue }
                    forms[category] = FormatSpecifiers.replacingArg(in: text, with: own)
                }
                variables[name] = .plural(valueType: specifier, forms: forms)
            case .device(let cases)?:
                variables[name] = .deviceSpecific(cases.compactMapValues {
                    $0.stringUnit.map { FormatSpecifiers.replacingArg(in: $0.value, with: own) }
                })
            case nil: break
            }
        }
        return variables
    }

    /// `text` with each unpositioned `%#@name@` of a substitution that has an `argNum` given that position, so
    /// the variable takes its own argument wherever the translation puts it.
    static func positioningVariables(in text: String, _ substitutions: [String: StringCatalog.Substitution])
        -> String
    {
        guard substitutions.values.contains(where: { $0.argumentNumber != nil }), text.contains("%#@") else {
            return text
        }
        var result = ""
        var copied = text.utf8.startIndex
        for (specifier, written) in FormatSpecifier.all(in: text) {
            guard specifier.position == nil, let name = specifier.variableName(in: text),
                  let number = substitutions[name]?.argumentNumber else { continue }
            let start = text.utf8.index(text.utf8.startIndex, offsetBy: specifier.range.lowerBound)
            result += text[copied..<start] + "%\(number)$" + written.dropFirst()
            copied = text.utf8.index(text.utf8.startIndex, offsetBy: specifier.range.upperBound)
        }
        return result + text[copied...]
    }
}

extension StringCatalog.Variations {
    /// The devices of a device variation; none for a plural one.
    var deviceNames: [String] {
        if case .device(let cases) = self { return Array(cases.keys) }
        return []
    }
}

extension StringCatalog.Localization {
    /// Checks that the rule this localization compiles to (if it compiles to one) stays within
    /// `StringsdictEntry.maximumNesting` and `maximumExpandedSize`, as an entry read from a `.stringsdict` does:
    /// a substitution can refer to itself as a `.stringsdict` variable can.
    /// - Throws: `FormatError` from `StringsdictEntry.checkExpansionBounds()`.
    func checkExpansionBounds() throws(FormatError) {
        guard variations != nil || !substitutions.isEmpty, case .rule(let entry)? = CatalogValue(self) else { return }
        try entry.checkExpansionBounds()
    }

    /// This plural case's text on `device`: its device case, else `other`, else its own string unit.
    func picking(device: String) -> StringCatalog.Localization? {
        guard case .device(let cases)? = variations else { return self }
        return cases[device] ?? cases["other"] ?? stringUnit.map { StringCatalog.Localization(stringUnit: $0) }
    }
}

extension String {
    /// This string with every occurrence of `target` replaced by `replacement` (no Foundation here).
    func replacingAll(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty, contains(target) else { return self }
        var output = ""
        var rest = Substring(self)
        while let range = rest.firstRange(of: target) {
            output += rest[..<range.lowerBound]
            output += replacement
            rest = rest[range.upperBound...]
        }
        return output + rest
    }
}
