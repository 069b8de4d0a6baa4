/// Edits a `.xcstrings` string catalog and writes it back in Xcode's own layout.
public enum StringCatalogEditor {
    /// Sets `localizations[language].stringUnit` = `{state: translated, value}` for `key` (adds the key if
    /// absent; `comment` sets the key's comment).
    ///
    /// - Throws: `EditError`: `.invalidValue`, `.unreadable`.
    public static func setting(
        _ key: String, language: String, to value: String, comment: String? = nil, in bytes: [UInt8]
    ) throws(EditError) -> [UInt8] {
        throw EditError(.cannotEdit, "not implemented yet")
    }

    /// The catalog without `key`'s localization for `language`.
    ///
    /// - Throws: `EditError`: `.noSuchKey` when the key has no localization for `language`, `.unreadable`.
    public static func removing(_ key: String, language: String, in bytes: [UInt8]) throws(EditError) -> [UInt8] {
        throw EditError(.cannotEdit, "not implemented yet")
    }

    /// A catalog value written exactly in Xcode's own layout.
    ///
    /// `package`, not `public`: `JSONValue` is the package's own type.
    package static func xcodeLayout(_ catalog: JSONValue) -> [UInt8] {
        catalog.serialized()
    }
}
