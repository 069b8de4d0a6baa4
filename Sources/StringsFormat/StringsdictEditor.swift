/// Edits a `.stringsdict` XML property list's bytes: one plural form of one key, or one whole entry.
///
/// The file is read by the package's XML property list reader, which also says where each member is, so an edit
/// is a splice: a form's `<string>` element is replaced, and a new form or entry is inserted in the file's own
/// indentation and line ending, among its siblings in the sorted order `PropertyListSerialization` writes.
public enum StringsdictEditor {
    /// The plural categories a form can be (CLDR's).
    public static let pluralCategories = ["zero", "one", "two", "few", "many", "other"]

    /// Sets one plural form (CLDR category: zero one two few many other) of `key`.
    ///
    /// `variable` names the `%#@var@` variable and is required when the entry has more than one. A missing form
    /// is added; a missing key gets a new entry with one variable (`NSStringLocalizedFormatKey` = `%#@value@`, or
    /// the name `variable` gives; spec type `NSStringPluralRuleType`, format value type `d`) with the form set.
    ///
    /// - Throws: `EditError`: `.ambiguousVariable` (with the names), `.noSuchKey` for a variable the entry does
    ///   not have, `.invalidValue` (NUL, empty key, unknown form), `.unreadable`, `.cannotEdit` for a binary
    ///   property list or an entry of another shape.
    public static func setting(
        form: String, variable: String?, of key: String, to value: String, in bytes: [UInt8]
    ) throws(EditError) -> [UInt8] {
        try checkInput(key: key, value: value, form: form, variable: variable)
        var file = try EditablePropertyList(bytes)
        guard let entry = file.member(key, in: file.root) else {
            let name = variable ?? "value"
            let variableDict: [(String, String?)] = [
                ("NSStringFormatSpecTypeKey", "NSStringPluralRuleType"), ("NSStringFormatValueTypeKey", "d"),
                (form, value),
            ]
            let members: [(String, String?)] = [("NSStringLocalizedFormatKey", "%#@\(name)@"), (name, nil)]
            try file.insert(key, members: members.sorted { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) },
                            grandchildren: variableDict, into: file.root)
            return file.bytes
        }
        try setForm(form, variable: variable, of: key, in: entry, to: value, file: &file)
        return file.bytes
    }

    /// Refuses what the file cannot hold: an empty key or variable, a NUL or another control character XML cannot
    /// hold, a form that is not a plural category.
    static func checkInput(key: String, value: String, form: String?, variable: String?, device: String? = nil)
        throws(EditError)
    {
        try EditError.checkKey(key)
        try EditError.checkText(value, naming: "value")
        if let form, !pluralCategories.contains(form) {
            throw EditError(.invalidValue, "'\(DisplayText.escaped(form, limit: 20))' is not a plural category "
                            + "(\(pluralCategories.joined(separator: " ")))")
        }
        if let variable { try EditError.checkKey(variable) }
        if let device {
            try EditError.checkText(device, naming: "device")
            guard !device.isEmpty else { throw EditError(.invalidValue, "the device is empty") }
        }
        let texts = key + value + (device ?? "")
        if let control = texts.unicodeScalars.first(where: { $0.value < 0x20 && !"\t\n\r".unicodeScalars.contains($0) }) {
            throw EditError(.invalidValue, "XML cannot hold the control character \(unicodeNotation(control.value))")
        }
    }

    /// Sets `form` of the plural variable `variable` (or the only one) of the entry at `entry` (a key's entry, or
    /// one device's), adding the form when it is missing.
    static func setForm(
        _ form: String, variable: String?, of key: String, in entry: XMLMemberSpan, to value: String,
        file: inout EditablePropertyList
    ) throws(EditError) {
        let variables = file.children(of: entry).filter { child in
            guard case .dictionary(let members)? = file.value(at: (entry.path ?? []) + [child.name]) else {
                return false
            }
            return members["NSStringFormatSpecTypeKey"] == .string("NSStringPluralRuleType")
        }
        let names = variables.map(\.name)
        let chosen: XMLMemberSpan
        if let variable {
            guard let found = variables.last(where: { $0.name == variable }) else {
                throw EditError(.noSuchKey, "the entry '\(DisplayText.escaped(key, limit: 60))' has no plural "
                                + "variable '\(DisplayText.escaped(variable, limit: 60))' (it has \(names))")
            }
            chosen = found.span
        } else if let only = variables.first, Set(names).count == 1 {
            chosen = variables.last?.span ?? only.span
        } else if variables.isEmpty {
            throw EditError(.cannotEdit, "the entry '\(DisplayText.escaped(key, limit: 60))' has no plural variable")
        } else {
            throw .ambiguousVariable(key, names)
        }
        if let existing = file.member(form, in: chosen) {
            guard case .string? = file.value(at: existing.path ?? []) else {
                throw EditError(.cannotEdit, "the form '\(form)' of '\(DisplayText.escaped(key, limit: 60))' is not "
                                + "a string")
            }
            file.replace(existing.value, with: "<string>\(LocalizationFileWriter.escapedXML(value))</string>")
        } else {
            try file.insert(form, string: value, into: chosen)
        }
    }

    /// The file's bytes without the entry for `key` (its lines go too).
    ///
    /// - Throws: `EditError`: `.noSuchKey` if the key is absent, `.unreadable`, `.cannotEdit`.
    public static func removing(_ key: String, in bytes: [UInt8]) throws(EditError) -> [UInt8] {
        var file = try EditablePropertyList(bytes)
        let occurrences = file.children(of: file.root).filter { $0.name == key }
        guard !occurrences.isEmpty else { throw .noSuchKey(key) }
        for occurrence in occurrences.reversed() { file.removeMember(occurrence.span) }
        return file.bytes
    }
}
