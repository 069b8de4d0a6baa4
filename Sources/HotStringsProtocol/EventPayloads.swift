/// One table of a `snapshot` event: where it comes from and all its entries in source order.
public struct TablePayload: Sendable, Equatable {
    /// The table's language, e.g. `"de"`.
    public var language: String
    /// The table name, e.g. `"Localizable"`.
    public var table: String
    /// The file, relative to the bundle root, e.g. `"de.lproj/Localizable.strings"`.
    public var file: String
    /// Every key and value, in source order.
    public var entries: [(String, String)]

    /// Creates a table payload.
    public init(language: String, table: String, file: String, entries: [(String, String)]) {
        self.language = language
        self.table = table
        self.file = file
        self.entries = entries
    }

    /// Payloads are equal when their names, file and entries (in order) are.
    public static func == (lhs: TablePayload, rhs: TablePayload) -> Bool {
        lhs.language == rhs.language && lhs.table == rhs.table && lhs.file == rhs.file
            && pairsEqual(lhs.entries, rhs.entries)
    }
}

/// How one table changed, as a `reload` event reports it.
public struct ChangePayload: Sendable, Equatable {
    /// Whether the table appeared, changed or disappeared.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// The table is new; every key is in `added`.
        case created
        /// Some keys were added, changed or removed.
        case updated
        /// The table is gone; every key is in `removed`.
        case deleted
    }

    /// The table's language.
    public var language: String
    /// The table name.
    public var table: String
    /// The file, relative to the bundle root.
    public var file: String
    /// Whether the table appeared, changed or disappeared.
    public var kind: Kind
    /// New keys with their values, in source order.
    public var added: [(String, String)]
    /// Keys whose value changed, with the new values, in source order.
    public var changed: [(String, String)]
    /// Keys that are gone.
    public var removed: [String]

    /// Creates a change payload.
    public init(language: String, table: String, file: String, kind: Kind,
                added: [(String, String)] = [], changed: [(String, String)] = [], removed: [String] = []) {
        self.language = language
        self.table = table
        self.file = file
        self.kind = kind
        self.added = added
        self.changed = changed
        self.removed = removed
    }

    /// Payloads are equal when every field is, lists compared in order.
    public static func == (lhs: ChangePayload, rhs: ChangePayload) -> Bool {
        lhs.language == rhs.language && lhs.table == rhs.table && lhs.file == rhs.file && lhs.kind == rhs.kind
            && pairsEqual(lhs.added, rhs.added) && pairsEqual(lhs.changed, rhs.changed) && lhs.removed == rhs.removed
    }
}

private func pairsEqual(_ lhs: [(String, String)], _ rhs: [(String, String)]) -> Bool {
    lhs.count == rhs.count && zip(lhs, rhs).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
}
