import BundleChanges
import HotStringsProtocol
import StringsFormat
import StringsStore

// The one conversion from the store's words to the wire's: the store must not import the protocol, so its events,
// tables, lookups and summaries become the protocol's events and answers here, for the socket, embedded mode, the
// page and `hotstrings watch` alike, so that what they send cannot differ.

extension ServerEvent {
    /// A store snapshot as the `snapshot` event a subscriber receives: its tables, with their rules.
    package init(_ snapshot: Snapshot) {
        self = .snapshot(tables: snapshot.tables.map(TablePayload.init))
    }

    /// A store event as the event a subscriber receives; a `reload` keeps the changes `includes` selects (the
    /// subscriber's filter), every change by default.
    package init(_ event: StoreEvent, including includes: (TableChange) -> Bool = { _ in true }) {
        switch event {
        case .reload(_, let changes):
            self = .reload(changes: changes.filter(includes).map(ChangePayload.init))
        case .error(_, let problem):
            self = .error(file: problem.file, line: problem.line, column: problem.column, message: problem.message)
        case .language(_, let language, let previous):
            self = .language(language: language, previous: previous)
        case .resync(_, let reason):
            self = .resync(reason: reason.rawValue)
        }
    }
}

extension ChangePayload {
    /// A store change as a `reload` event's change.
    package init(_ change: TableChange) {
        self.init(
            language: change.language, table: change.table, file: change.file,
            kind: change.kind,
            added: change.added.map { ($0.key, $0.value.plainText) },
            changed: change.changed.map { ($0.key, $0.value.plainText) },
            removed: change.removed, rules: (change.added + change.changed).compactMap { pair in
                guard case .rule(let entry) = pair.value else { return nil }
                return (pair.key, JSONValue(propertyList: entry.propertyList))
            }
        )
    }
}

extension TablePayload {
    /// A stored table as a `snapshot` event's table.
    package init(_ snapshot: TableSnapshot) {
        self.init(
            language: snapshot.id.language, table: snapshot.id.table, file: snapshot.file,
            entries: snapshot.content.entries.map { ($0.key, $0.value.plainText) },
            rules: snapshot.content.rulePayload(for: snapshot.content.rules.keys)
        )
    }
}

extension TableAnswer {
    /// A served table as the `table` answer: its entries in source order, the rules of those that are rules.
    init(_ content: TableContent, language: LanguageTag, seq: UInt64) {
        self.init(entries: content.entries.map { ($0.key, $0.value.plainText) }, language: language.identifier,
                  seq: seq, rules: content.rulePayload(for: content.rules.keys))
    }
}

extension GetAnswer {
    /// A lookup as the `get` answer: the value, where it was found, and its rule when it is one.
    init(_ lookup: Lookup) {
        self.init(value: lookup.value, language: lookup.language, isFound: lookup.found,
                  rule: lookup.rule.map { JSONValue(propertyList: $0.propertyList) })
    }
}

extension LanguagesAnswer {
    /// The store's languages as the `languages` answer, marking those of `pseudoLanguages`.
    init(_ summaries: [LanguageSummary], pseudoLanguages: Set<String>, selected: String?,
         developmentLanguage: String) {
        self.init(languages: summaries.map { summary in
            Language(language: summary.language, tables: summary.tables,
                     isPseudo: pseudoLanguages.contains(summary.language))
        }, selected: selected, developmentLanguage: developmentLanguage)
    }
}

extension JSONValue {
    /// A property list of strings and dictionaries (what a `.stringsdict` entry is) as JSON: dictionaries become
    /// objects with their keys sorted, so the same entry is always the same bytes.
    package init(propertyList: PropertyListValue) {
        switch propertyList {
        case .dictionary(let members):
            self = .object(members.sorted { $0.key < $1.key }.map { ($0.key, JSONValue(propertyList: $0.value)) })
        case .array(let elements): self = .array(elements.map(JSONValue.init(propertyList:)))
        case .string(let text): self = .string(text)
        case .integer(let value): self = .number(value)
        case .real(let value), .date(let value): self = .double(value)
        case .boolean(let value): self = .bool(value)
        case .data(let bytes): self = .array(bytes.map { .number(Int64($0)) })
        }
    }
}

extension TableContent {
    /// The rules of the keys in `keys` that have one, as a payload's `rules`.
    func rulePayload(for keys: some Sequence<String>) -> [(String, JSONValue)] {
        guard !rules.isEmpty else { return [] }
        return keys.compactMap { key in rules[key].map { (key, JSONValue(propertyList: $0.propertyList)) } }
    }
}
