import HotStringsProtocol
import LinuxSystem
import StringsFormat

extension BundleEditor {
    /// What an edit does to the key's format specifiers: the file it writes, and the problems it makes.
    package struct Verdict: Sendable, Hashable {
        /// The file the edit writes, relative to the root.
        package var file: String
        /// The problems of the key's value once written, against the development language's value
        /// (`FormatSpecifiers.problems(of:against:developmentLanguage:)`) that the edit makes: those in the text it
        /// writes, and those the value did not have before. An error refuses the edit unless it is forced.
        package var problems: [SpecifierProblem]
        /// Each problem's message, as `lint` reports it (`'key', form 'one' of 'n': …`).
        package var messages: [(severity: SpecifierProblem.Severity, message: String)] {
            problems.map { ($0.severity, $0.message(key: key)) }
        }
        /// The key, for the messages.
        package var key: String
    }

    /// Judges `edit` as `apply` does and writes nothing (not a new language's folder either): the input, where
    /// the key goes, the edit of the file's bytes, and the format specifiers. What the protocol's `check` and the
    /// page's `/api/check` answer, as a translator types.
    /// - Throws: `Failure` when `apply` would fail for another reason than the specifiers.
    package func verdict(on edit: Edit) throws(Failure) -> Verdict {
        var edit = edit
        edit.createsLanguage = false
        try Self.check(edit)
        let place = try place(of: edit)
        try checkContained(place)
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.readVersioned(atPath: path(of: place.file), maximumSize: maximumFileSize)?.bytes
                ?? []
        } catch {
            throw Failure(.cannotWrite, "cannot read \(display(place.file)): \(error)")
        }
        var written = edit
        written.isForced = true
        let result = try edited(bytes, at: place, by: written)
        let problems = try specifierProblems(of: edit, writing: result, replacing: bytes, at: place)
        return Verdict(file: place.file, problems: problems, key: edit.key)
    }

    /// Refuses an edit whose value, once written, has a specifier error the edit makes (`Verdict.problems`),
    /// with `lint`'s message of each.
    func checkSpecifiers(of edit: Edit, writing result: [UInt8], replacing original: [UInt8],
                         at place: Place) throws(Failure) {
        let errors = try specifierProblems(of: edit, writing: result, replacing: original, at: place)
            .filter { $0.severity == .error }
        guard !errors.isEmpty else { return }
        throw Failure(.specifierMismatch, errors.map { $0.message(key: edit.key) }.joined(separator: "; ")
            + " (--force writes it anyway)")
    }

    /// The problems of the key's value in `result` against the development language's value of the key as it is
    /// served, that the edit makes: in the text it writes, or new since `original`. None for the development
    /// language itself, or a key it does not have.
    private func specifierProblems(of edit: Edit, writing result: [UInt8], replacing original: [UInt8],
                                   at place: Place) throws(Failure) -> [SpecifierProblem] {
        guard let language = LanguageTag(edit.language), language != developmentLanguage,
              let after = Self.writtenEntry(of: edit, in: result, at: place),
              let development = try developmentEntry(of: edit.key, table: edit.table) else { return [] }
        let reference = developmentLanguage.identifier
        // A catalog's key is the format the code passes, as `lint` reads it.
        let key = place.kind == .catalog ? edit.key : nil
        let problems = FormatSpecifiers.problems(of: after, against: development, catalogKey: key,
                                                 developmentLanguage: reference)
        // The value as it was is read only when a problem lies outside the text written (a plain value has none).
        guard problems.contains(where: { !Self.isWritten($0.place, by: edit) }) else { return problems }
        let before = Set(Self.entry(of: edit.key, in: original, at: place).map {
            FormatSpecifiers.problems(of: $0, against: development, catalogKey: key, developmentLanguage: reference)
        } ?? [])
        return problems.filter { !before.contains($0) || Self.isWritten($0.place, by: edit) }
    }

    /// The key's value once `edit` is written: a `.strings` value is the edit's own (its file need not be read
    /// again), anything else as `result` serves it.
    private static func writtenEntry(of edit: Edit, in result: [UInt8], at place: Place) -> StringsdictEntry? {
        if place.kind == .strings, case .value(let value, _) = edit.change {
            return StringsdictEntry(format: value, variables: [:])
        }
        return entry(of: edit.key, in: result, at: place)
    }

    /// Whether `place` is the text `edit` writes: the value (a device's text), or the form.
    private static func isWritten(_ place: TextPlace, by edit: Edit) -> Bool {
        if let device = edit.device, place.device != nil, place.device != device { return false }
        switch edit.change {
        case .value: return place.variable == nil
        case .form(let form, let variable, _):
            return place.form == form && (variable == nil || place.variable == variable)
        case .removal: return false
        }
    }

    /// The key's value in a file's bytes as it is served, a plain text as an entry without variables: a
    /// `.strings` value, a `.stringsdict` rule, or what a catalog's localization compiles to.
    private static func entry(of key: String, in bytes: [UInt8], at place: Place) -> StringsdictEntry? {
        switch place.kind {
        case .strings:
            return (try? StringsFile.parse(bytes))?[key].map { StringsdictEntry(format: $0, variables: [:]) }
        case .stringsdict:
            return (try? StringsdictFile.parse(bytes))?[key]
        case .catalog:
            guard let catalog = try? StringCatalog.parse(bytes),
                  let entry = catalog.entries.first(where: { $0.key.utf8.elementsEqual(key.utf8) }) else { return nil }
            return catalog.formatEntry(of: entry, language: place.language)
        }
    }

    /// The development language's value of `key` as served: its folder's `.stringsdict` rule or `.strings` value,
    /// else a catalog's.
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
            if let spelled, let value = catalog.formatEntry(of: entry, language: spelled) { return value }
        }
        return nil
    }
}
