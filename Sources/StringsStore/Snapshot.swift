import BundleChanges
import StringsFormat

/// One table as the store serves it.
package struct TableSnapshot: Sendable, Equatable {
    /// The language and table name.
    package var id: TableID
    /// The file the table was read from, relative to the bundle root.
    package var file: String
    /// The table's strings and rules.
    package var content: TableContent

    /// Creates a table snapshot.
    package init(id: TableID, file: String, content: TableContent) {
        self.id = id
        self.file = file
        self.content = content
    }

    /// The table's plain strings.
    package var table: StringsTable { content.strings }
}

/// The tables the store serves at one `seq`, sorted by language and table name.
package struct Snapshot: Sendable, Equatable {
    /// The store's epoch.
    package var epoch: UInt64
    /// The `seq` of the last event before the snapshot was taken.
    package var seq: UInt64
    /// The tables, sorted by `id`.
    package var tables: [TableSnapshot]

    /// Creates a snapshot.
    package init(epoch: UInt64, seq: UInt64, tables: [TableSnapshot]) {
        self.epoch = epoch
        self.seq = seq
        self.tables = tables
    }
}

/// The answer to a lookup: the value and the language that had it.
package struct Lookup: Sendable, Hashable {
    /// The value (a rule's plain text), or the key itself when no language of the chain has it.
    package var value: String
    /// The canonical language that answered, or `nil` when none did.
    package var language: String?
    /// Whether some language of the chain had the key.
    package var found: Bool
    /// The format rule, when the key has one in the language that answered (format it with that language's
    /// plural rules).
    package var rule: StringsdictEntry?

    /// Creates an answer.
    package init(value: String, language: String?, found: Bool, rule: StringsdictEntry? = nil) {
        self.value = value
        self.language = language
        self.found = found
        self.rule = rule
    }

    /// The answer `language` gives with `value`.
    package init(value: LocalizedValue, language: String) {
        var rule: StringsdictEntry?
        if case .rule(let entry) = value { rule = entry }
        self.init(value: value.plainText, language: language, found: true, rule: rule)
    }
}

/// One language of the bundle and the number of keys in each of its tables.
package struct LanguageSummary: Sendable, Hashable {
    /// The canonical language.
    package var language: String
    /// The number of keys of each table, by table name.
    package var tables: [String: Int]

    /// Creates a summary.
    package init(language: String, tables: [String: Int]) {
        self.language = language
        self.tables = tables
    }
}

/// Why the store refused a request.
package enum StoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No table of the bundle is in the requested language or a language it falls back to
    /// (`available` lists the bundle's languages, `Base` excluded).
    case unsupportedLanguage(String, available: [String])
    /// The new selection could not be saved, so it was not applied; `reason` says why.
    case notSaved(reason: String)

    /// A one-line explanation.
    package var description: String {
        switch self {
        case .unsupportedLanguage(let language, let available):
            "unsupported language '\(language)'; available: \(available.joined(separator: ", "))"
        case .notSaved(let reason):
            "cannot save the selected language: \(reason)"
        }
    }
}
