import StringsFormat

extension BundleEditor {
    /// Refuses a translation whose format specifiers differ from the development language's text of the key, as
    /// `lint` judges them (`FormatSpecifiers`): a `.strings` or catalog value by its argument signature, a plural
    /// entry by its signature once the form is written. Nothing to compare with (a new key, the development
    /// language itself) passes.
    func checkSpecifiers(of edit: Edit, writing result: [UInt8], at place: Place) throws(Failure) {
        guard let language = LanguageTag(edit.language), language != developmentLanguage else { return }
        let reference = developmentLanguage.identifier
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

    private func mismatch(_ key: String, found: String, expected: String, reference: String) -> Failure {
        Failure(.specifierMismatch, "'\(DisplayText.escaped(key))': format specifiers "
                + "\(found.isEmpty ? "(none)" : found) differ from \(expected.isEmpty ? "(none)" : expected) in "
                + "'\(reference)' (--force writes it anyway)")
    }

    /// The development language's text of `key`, served from its folder's `.strings` or else a catalog.
    private func developmentValue(of key: String, table: String) throws(Failure) -> String? {
        if let folder = try servedFolder(of: developmentLanguage),
           let value = strings(folder + "/" + table + ".strings")?[key] {
            return value
        }
        for path in catalogFiles() where path.hasSuffix("/" + table + ".xcstrings") || path == table + ".xcstrings" {
            guard let catalog = catalog(path), let entry = catalog.entries.first(where: { $0.key == key }) else {
                continue
            }
            if let localization = entry.localizations.first(where: { LanguageTag($0.key) == developmentLanguage }) {
                return localization.value.stringUnit?.value
            }
            if LanguageTag(catalog.sourceLanguage) == developmentLanguage { return key }
        }
        return nil
    }
}
