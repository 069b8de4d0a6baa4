/// Edits a `.stringsdict` XML property list's bytes: one plural form of one key, or one whole entry.
public enum StringsdictEditor {
    /// Sets one plural form (CLDR category: zero one two few many other) of `key`.
    ///
    /// `variable` names the `%#@var@` variable and is required when the entry has more than one. A missing form
    /// is added; a missing key gets a new entry with one variable (`NSStringLocalizedFormatKey` = `%#@value@`,
    /// spec type `NSStringPluralRuleType`, format value type `d`) with the form set.
    ///
    /// - Throws: `EditError`: `.ambiguousVariable` (with the names), `.invalidValue`, `.unreadable`,
    ///   `.cannotEdit` for a binary property list.
    public static func setting(
        form: String, variable: String?, of key: String, to value: String, in bytes: [UInt8]
    ) throws(EditError) -> [UInt8] {
        throw EditError(.cannotEdit, "not implemented yet")
    }

    /// The file's bytes without the entry for `key`.
    ///
    /// - Throws: `EditError`: `.noSuchKey` if the key is absent, `.unreadable`, `.cannotEdit`.
    public static func removing(_ key: String, in bytes: [UInt8]) throws(EditError) -> [UInt8] {
        throw EditError(.cannotEdit, "not implemented yet")
    }
}
