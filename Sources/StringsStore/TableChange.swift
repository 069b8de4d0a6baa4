import BundleChanges
import StringsFormat

/// A key and its value, as a reload reports them.
package struct KeyValue: Sendable, Hashable {
    /// The key.
    package var key: String
    /// The value: a plain string or a format rule.
    package var value: LocalizedValue

    /// Creates a pair.
    package init(key: String, value: LocalizedValue) {
        self.key = key
        self.value = value
    }

    /// Creates a pair with a plain string value.
    package init(key: String, value: String) {
        self.init(key: key, value: .string(value))
    }
}

/// How one table changed in a batch: the keys added, the keys whose value changed, the keys removed.
///
/// A created table reports all its keys as added and a deleted one all its keys as removed. Those
/// lists are made from the table only when read, so applying the first scan of a large bundle does
/// not build a second copy of every string that nobody may look at.
package struct TableChange: Sendable, Equatable {
    /// Where the keys come from: a whole table, or lists made by a diff.
    enum Keys: Sendable {
        case all(TableContent)
        case diff(added: [KeyValue], changed: [KeyValue], removed: [String])
    }

    /// The language of the table (a tag until a `reload` event writes it on the wire).
    package let language: LanguageTag
    /// The table name.
    package let table: String
    /// The file the table was read from, relative to the bundle root (for a deletion, the file that went).
    package let file: String
    /// Whether the table appeared, changed or disappeared.
    package let kind: ChangeKind
    let keys: Keys

    /// Creates a change from explicit lists.
    package init(
        language: LanguageTag, table: String, file: String, kind: ChangeKind,
        added: [KeyValue] = [], changed: [KeyValue] = [], removed: [String] = []
    ) {
        self.init(language: language, table: table, file: file, kind: kind,
                  keys: .diff(added: added, changed: changed, removed: removed))
    }

    init(language: LanguageTag, table: String, file: String, kind: ChangeKind, keys: Keys) {
        self.language = language
        self.table = table
        self.file = file
        self.kind = kind
        self.keys = keys
    }

    /// The keys that are new, with their values, in the source order of the new table.
    ///
    /// - Complexity: O(n) for a created table, whose entries are read on each access.
    package var added: [KeyValue] {
        switch keys {
        case .all(let table) where kind == .created:
            table.entries.map { KeyValue(key: $0.key, value: $0.value) }
        case .all: []
        case .diff(let added, _, _): added
        }
    }

    /// The keys whose value changed, with their new values, in the source order of the new table.
    package var changed: [KeyValue] {
        switch keys {
        case .all: []
        case .diff(_, let changed, _): changed
        }
    }

    /// The keys that are gone, in the source order of the old table.
    ///
    /// - Complexity: O(n) for a deleted table, whose keys are read on each access.
    package var removed: [String] {
        switch keys {
        case .all(let table) where kind == .deleted: table.keys
        case .all: []
        case .diff(_, _, let removed): removed
        }
    }

    /// Changes are equal when they name the same table and file and report the same keys.
    package static func == (lhs: TableChange, rhs: TableChange) -> Bool {
        lhs.language == rhs.language && lhs.table == rhs.table && lhs.file == rhs.file && lhs.kind == rhs.kind
            && lhs.added == rhs.added && lhs.changed == rhs.changed && lhs.removed == rhs.removed
    }

    /// The change from `old` to `new` for the table `id`, or `nil` when no key or value differs.
    ///
    /// Keys and values are compared by their exact UTF-8 bytes, without Unicode normalization, as
    /// CoreFoundation compares keys: rewriting a value in another normalization form is a change. A key whose
    /// rule changed, or that turned from a string into a rule, is changed.
    ///
    /// - Complexity: O(n + m) for tables of n and m keys.
    static func between(_ old: TableContent?, _ new: TableContent?, id: TableID, file: String) -> TableChange? {
        let language = id.language
        switch (old, new) {
        case (nil, nil):
            return nil
        case (nil, let new?):
            return TableChange(language: language, table: id.table, file: file, kind: .created, keys: .all(new))
        case (let old?, nil):
            return TableChange(language: language, table: id.table, file: file, kind: .deleted, keys: .all(old))
        case (let old?, let new?):
            let differences = new.differences(from: old)
            let added = differences.added.map { KeyValue(key: $0.key, value: $0.value) }
            let changed = differences.changed.map { KeyValue(key: $0.key, value: $0.value) }
            let removed = differences.removed
            guard !added.isEmpty || !changed.isEmpty || !removed.isEmpty else { return nil }
            return TableChange(language: language, table: id.table, file: file, kind: .updated,
                               keys: .diff(added: added, changed: changed, removed: removed))
        }
    }
}
