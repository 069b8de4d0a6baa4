/// One table of one language in the bundle, such as `de.lproj/Localizable.strings`.
public struct LocalizedTable: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The canonical language tag, such as `de`, `pt-BR` or `Base`.
    public var language: String
    /// The table name, such as `Localizable`.
    public var table: String

    /// Names the table `table` of `language`.
    public init(language: String, table: String) {
        self.language = language
        self.table = table
    }

    /// Orders by language, then table.
    public static func < (lhs: LocalizedTable, rhs: LocalizedTable) -> Bool {
        (lhs.language, lhs.table) < (rhs.language, rhs.table)
    }

    /// `language/table`, such as `de/Localizable`.
    public var description: String { "\(language)/\(table)" }
}

/// What a reload changed for this program: the keys whose displayed value is now different.
///
/// A change is reported only when the value a lookup returns for the current language changed for at least
/// one key. Values are compared after resolving each key through the whole fallback chain, so an edit of
/// `de` reaches a `de-CH` program only for the keys `de-CH` does not have itself, and an edit of `Base` or
/// of the development language only for the keys no more preferred language has.
public struct LocalizationChange: Sendable, Hashable {
    /// What caused the change.
    public enum Cause: Sendable, Hashable {
        /// A snapshot replaced the mirror: the first one, or one after a reconnect, a restarted daemon, a
        /// `resync` or a gap in the event stream.
        case snapshot
        /// A file of the bundle was edited, created or removed.
        case reload
        /// The current language changed: through the daemon (`setLanguage`, another program) or locally
        /// (`overrideLanguage`).
        case language
    }

    /// What caused the change.
    public var cause: Cause
    /// The current language after the change.
    public var language: String
    /// The bundle tables in the fallback chain whose contents changed; empty when only the language did.
    public var tables: Set<LocalizedTable>
    /// The keys whose looked-up value changed (added, changed or removed), by table name.
    public var keys: [String: Set<String>]

    /// Creates a change.
    public init(cause: Cause, language: String, tables: Set<LocalizedTable> = [], keys: [String: Set<String>]) {
        self.cause = cause
        self.language = language
        self.tables = tables
        self.keys = keys
    }

    /// Whether the value of `key` in `table` changed.
    public func contains(_ key: String, table: String = LiveStrings.defaultTable) -> Bool {
        keys[table]?.contains(key) ?? false
    }

    /// The number of keys that changed, over all tables.
    public var keyCount: Int { keys.values.reduce(0) { $0 + $1.count } }
}
