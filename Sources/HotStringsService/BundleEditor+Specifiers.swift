import StringsFormat

extension BundleEditor {
    /// Refuses a translation whose format specifiers differ from the development language's text of the key, as
    /// `lint` judges them (`FormatSpecifiers`): a `.strings` or catalog value by its argument signature, a plural
    /// entry by its signature once the form is written. Nothing to compare with (a new key, the development
    /// language itself) passes.
    func checkSpecifiers(of edit: Edit, writing result: [UInt8], at place: Place) throws(Failure) {
        guard let language = LanguageTag(edit.language), language != developmentLanguage else { return }
        let reference = developmentLanguage.identifier
        if edit.device != nil || place.kind == .catalog && edit.change.isForm {
            return try checkVariation(of: edit, written: Self.writtenEntry(of: edit.key, in: result, at: place))
        }
        switch edit.change {
        case .value(let value, _):
            guard let original = try developmentValue(of: edit.key, table: edit.table) else { return }
            let expected = FormatSpecifiers.argumentSignature(of: original)
            let found = FormatSpecifiers.argumentSignature(of: value)
            guard found != expected else { return }
            throw mismatch(edit.key, found: found, expected: expected, reference: reference)
        case .form:
            guard let folder = try servedFolder(of: developmentLanguage),
                  let original = rules(folder + "/" + edit.table + ".stringsdict")?[edit.key],
                  let entry = (try? StringsdictFile.parse(result))?[edit.key] else { return }
            let expected = FormatSpecifiers.signature(of: original)
            let found = FormatSpecifiers.signature(of: entry)
            guard found != expected else { return }
            throw mismatch(edit.key, found: found, expected: expected, reference: reference)
        case .removal:
            return
        }
    }

    /// Refuses a catalog's plural form or a device's text (or form) whose specifiers differ from the development
    /// language's, as `lint` judges a rule: the edited language's entry of the key once the form is written (a
    /// catalog's localization as it compiles; for a device: that device's entry), against the development language's
    /// value of the key as it is served (its folder's rule or value, else the catalog's; for a device: that device's,
    /// else `other`'s, when it varies by device too). Plain texts on both sides compare by argument, as `set` does.
    private func checkVariation(of edit: Edit, written: StringsdictEntry?) throws(Failure) {
        guard let written = written?.shown(on: edit.device),
              let original = try developmentEntry(of: edit.key, table: edit.table)?.shown(on: edit.device)
        else { return }
        let isPlain = written.variables.isEmpty && original.variables.isEmpty
        let expected = isPlain ? FormatSpecifiers.argumentSignature(of: original.format)
            : FormatSpecifiers.signature(of: original)
        let found = isPlain ? FormatSpecifiers.argumentSignature(of: written.format)
            : FormatSpecifiers.signature(of: written)
        guard found != expected else { return }
        throw mismatch(edit.key, found: found, expected: expected, reference: developmentLanguage.identifier,
                       device: edit.device)
    }

    /// The edited file's entry of `key`: a `.stringsdict`'s rule, or what a catalog's localization compiles to.
    private static func writtenEntry(of key: String, in result: [UInt8], at place: Place) -> StringsdictEntry? {
        switch place.kind {
        case .stringsdict:
            return (try? StringsdictFile.parse(result))?[key]
        case .catalog:
            guard let catalog = try? StringCatalog.parse(result),
                  let entry = catalog.entries.first(where: { $0.key.utf8.elementsEqual(key.utf8) }) else { return nil }
            return compiled(entry, of: catalog, language: place.language)
        case .strings:
            return nil  // a plain value is compared by argument, not as a rule
        }
    }

    /// The development language's value of `key` as served, a text as an entry without variables: its folder's
    /// `.stringsdict` rule or `.strings` value, else a catalog's.
    private func developmentEntry(of key: String, table: String) throws(Failure) -> StringsdictEntry? {
        if let folder = try servedFolder(of: developmentLanguage) {
            if let rule = rules(folder + "/" + table + ".stringsdict")?[key] { return rule }
            if let value = strings(folder + "/" + table + ".strings")?[key] {
                return StringsdictEntry(format: value, variables: [:])
            }
        }
        for path in catalogFiles(ofTable: table) {
            guard let catalog = catalog(path),
                  let entry = catalog.entries.first(where: { $0.key.utf8.elementsEqual(key.utf8) }) else { continue }
            let spelled = entry.localizations.keys.first { LanguageTag($0) == developmentLanguage }
                ?? (LanguageTag(catalog.sourceLanguage) == developmentLanguage ? catalog.sourceLanguage : nil)
            if let spelled, let compiled = Self.compiled(entry, of: catalog, language: spelled) { return compiled }
        }
        return nil
    }

    /// What the catalog's `entry` compiles to in `language`, a text as an entry without variables.
    private static func compiled(_ entry: StringCatalog.Entry, of catalog: StringCatalog, language: String)
        -> StringsdictEntry?
    {
        let single = StringCatalog(sourceLanguage: catalog.sourceLanguage, entries: [entry])
        switch single.compiled(language: language)[entry.key] {
        case .rule(let rule)?: return rule
        case .string(let text)?: return StringsdictEntry(format: text, variables: [:])
        case nil: return nil
        }
    }

    private func mismatch(_ key: String, found: String, expected: String, reference: String,
                          device: String? = nil) -> Failure {
        Failure(.specifierMismatch, "'\(DisplayText.escaped(key))'"
                + (device.map { " on device '\(DisplayText.escaped($0))'" } ?? "") + ": format specifiers "
                + "\(found.isEmpty ? "(none)" : found) differ from \(expected.isEmpty ? "(none)" : expected) in "
                + "'\(reference)' (--force writes it anyway)")
    }

    /// The development language's text of `key`, served from its folder's `.strings` or else a catalog.
    private func developmentValue(of key: String, table: String) throws(Failure) -> String? {
        if let folder = try servedFolder(of: developmentLanguage),
           let value = strings(folder + "/" + table + ".strings")?[key] {
            return value
        }
        for path in catalogFiles(ofTable: table) {
            guard let catalog = catalog(path),
                  let entry = catalog.entries.first(where: { $0.key.utf8.elementsEqual(key.utf8) }) else { continue }
            if let localization = entry.localizations.first(where: { LanguageTag($0.key) == developmentLanguage }) {
                return localization.value.stringUnit?.value
            }
            if LanguageTag(catalog.sourceLanguage) == developmentLanguage { return key }
        }
        return nil
    }
}

extension BundleEditor.Edit.Change {
    /// Whether this sets a plural form.
    var isForm: Bool {
        if case .form = self { return true }
        return false
    }
}

extension StringsdictEntry {
    /// The entry shown on `device` (no device: as `other`): its device's entry, else `other`'s, when it varies by
    /// device; itself when it does not. `nil` when it varies by device but neither is there.
    func shown(on device: String?) -> StringsdictEntry? {
        guard !devices.isEmpty else { return self }
        return devices[device ?? "other"] ?? devices["other"]
    }
}
