import BundleChanges
import HotStringsProtocol
import StringsFormat
import StringsStore

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

extension ServerEvent {
    /// A store snapshot as the `snapshot` event a subscriber receives: its tables, with their rules.
    ///
    /// The one place a snapshot becomes an event, for the socket, embedded mode and `hotstrings watch` alike, so
    /// that what they print cannot differ.
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
