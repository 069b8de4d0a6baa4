import StringsFormat

/// Names one table of a bundle: a language and a table name, as in `de.lproj/Localizable.strings`.
public struct TableID: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The language of the table's folder, in canonical form.
    public var language: LanguageTag
    /// The table name: the file name without `.strings` (`Localizable`).
    public var table: String

    /// Creates an identifier.
    public init(language: LanguageTag, table: String) {
        self.language = language
        self.table = table
    }

    /// `language/table`.
    public var description: String { "\(language)/\(table)" }

    /// Orders by language, then by table name.
    public static func < (lhs: TableID, rhs: TableID) -> Bool {
        (lhs.language.identifier, lhs.table) < (rhs.language.identifier, rhs.table)
    }
}
