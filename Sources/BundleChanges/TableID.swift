import StringsFormat

/// Names one table of a bundle: a language and a table name. `de.lproj/Localizable.strings` and
/// `German.lproj/Localizable.strings` both hold `de/Localizable`. The watcher settles and reads by it, the store
/// serves by it.
package struct TableID: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The language of the table's folder, in canonical form.
    package var language: LanguageTag
    /// The table name: the file name without `.strings` (`Localizable`).
    package var table: String

    /// Creates an identifier.
    package init(language: LanguageTag, table: String) {
        self.language = language
        self.table = table
    }

    /// `language/table`.
    package var description: String { "\(language)/\(table)" }

    /// Orders by language, then by table name.
    package static func < (lhs: TableID, rhs: TableID) -> Bool {
        (lhs.language.identifier, lhs.table) < (rhs.language.identifier, rhs.table)
    }
}
