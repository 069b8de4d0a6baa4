import BundleChanges
import StringsFormat

/// One table of a `snapshot` event: where it comes from and all its entries in source order.
package struct TablePayload: Sendable, Equatable {
    /// The table's language, e.g. `de`; a tag until it is written on the wire.
    package var language: LanguageTag
    /// The table name, e.g. `"Localizable"`.
    package var table: String
    /// The file, relative to the bundle root, e.g. `"de.lproj/Localizable.strings"`.
    package var file: String
    /// Every key and value, in source order; a key with a format rule has the rule's plain text here.
    package var entries: [(String, String)]
    /// The format rules (`.stringsdict` entries as JSON objects of the same structure), by key; `rules` on the
    /// wire, left out when empty.
    package var rules: [(String, JSONValue)]

    /// Creates a table payload.
    package init(language: LanguageTag, table: String, file: String, entries: [(String, String)],
                 rules: [(String, JSONValue)] = []) {
        self.language = language
        self.table = table
        self.file = file
        self.entries = entries
        self.rules = rules
    }

    /// Payloads are equal when their names, file, entries and rules (in order) are.
    package static func == (lhs: TablePayload, rhs: TablePayload) -> Bool {
        lhs.language == rhs.language && lhs.table == rhs.table && lhs.file == rhs.file
            && pairsEqual(lhs.entries, rhs.entries) && JSONValue.object(lhs.rules) == .object(rhs.rules)
    }
}

/// How one table changed, as a `reload` event reports it.
package struct ChangePayload: Sendable, Equatable {
    /// The table's language; a tag until it is written on the wire.
    package var language: LanguageTag
    /// The table name.
    package var table: String
    /// The file, relative to the bundle root.
    package var file: String
    /// Whether the table appeared, changed or disappeared.
    package var kind: ChangeKind
    /// New keys with their values, in source order.
    package var added: [(String, String)]
    /// Keys whose value changed, with the new values, in source order.
    package var changed: [(String, String)]
    /// Keys that are gone.
    package var removed: [String]
    /// The format rule of each key of `added` and `changed` whose new value is a rule (a key of those lists not
    /// here is a plain string now); `rules` on the wire, left out when empty.
    package var rules: [(String, JSONValue)]

    /// Creates a change payload.
    package init(language: LanguageTag, table: String, file: String, kind: ChangeKind,
                added: [(String, String)] = [], changed: [(String, String)] = [], removed: [String] = [],
                rules: [(String, JSONValue)] = []) {
        self.language = language
        self.table = table
        self.file = file
        self.kind = kind
        self.added = added
        self.changed = changed
        self.removed = removed
        self.rules = rules
    }

    /// Payloads are equal when every field is, lists compared in order.
    package static func == (lhs: ChangePayload, rhs: ChangePayload) -> Bool {
        lhs.language == rhs.language && lhs.table == rhs.table && lhs.file == rhs.file && lhs.kind == rhs.kind
            && pairsEqual(lhs.added, rhs.added) && pairsEqual(lhs.changed, rhs.changed) && lhs.removed == rhs.removed
            && JSONValue.object(lhs.rules) == .object(rhs.rules)
    }
}

/// Whether two lists of pairs hold the same pairs in the same order.
func pairsEqual(_ lhs: [(String, String)], _ rhs: [(String, String)]) -> Bool {
    lhs.count == rhs.count && zip(lhs, rhs).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
}
