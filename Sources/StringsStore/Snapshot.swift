import StringsFormat

/// One table as the store serves it.
public struct TableSnapshot: Sendable, Equatable {
    /// The language and table name.
    public var id: TableID
    /// The file the table was read from, relative to the bundle root.
    public var file: String
    /// The table.
    public var table: StringsTable

    /// Creates a table snapshot.
    public init(id: TableID, file: String, table: StringsTable) {
        self.id = id
        self.file = file
        self.table = table
    }
}

/// The tables the store serves at one `seq`, sorted by language and table name.
public struct Snapshot: Sendable, Equatable {
    /// The store's epoch.
    public var epoch: UInt64
    /// The `seq` of the last event before the snapshot was taken.
    public var seq: UInt64
    /// The tables, sorted by `id`.
    public var tables: [TableSnapshot]

    /// Creates a snapshot.
    public init(epoch: UInt64, seq: UInt64, tables: [TableSnapshot]) {
        self.epoch = epoch
        self.seq = seq
        self.tables = tables
    }
}

/// The answer to a lookup: the value and the language that had it.
public struct Lookup: Sendable, Hashable {
    /// The value, or the key itself when no language of the chain has it.
    public var value: String
    /// The canonical language that answered, or `nil` when none did.
    public var language: String?
    /// Whether some language of the chain had the key.
    public var found: Bool

    /// Creates an answer.
    public init(value: String, language: String?, found: Bool) {
        self.value = value
        self.language = language
        self.found = found
    }
}

/// One language of the bundle and the number of keys in each of its tables.
public struct LanguageSummary: Sendable, Hashable {
    /// The canonical language.
    public var language: String
    /// The number of keys of each table, by table name.
    public var tables: [String: Int]

    /// Creates a summary.
    public init(language: String, tables: [String: Int]) {
        self.language = language
        self.tables = tables
    }
}

/// Why the store refused a request.
public enum StoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No table of the bundle is in the requested language or a language it falls back to
    /// (`available` lists the bundle's languages, `Base` excluded).
    case unsupportedLanguage(String, available: [String])
    /// The new selection could not be saved, so it was not applied; `reason` says why.
    case notSaved(reason: String)

    /// A one-line explanation.
    public var description: String {
        switch self {
        case .unsupportedLanguage(let language, let available):
            "unsupported language '\(language)'; available: \(available.joined(separator: ", "))"
        case .notSaved(let reason):
            "cannot save the selected language: \(reason)"
        }
    }
}
