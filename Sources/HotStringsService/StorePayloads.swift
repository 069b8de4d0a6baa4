import HotStringsProtocol
import StringsStore

extension ChangePayload {
    /// A store change as a `reload` event's change.
    package init(_ change: TableChange) {
        self.init(
            language: change.language, table: change.table, file: change.file,
            kind: ChangePayload.Kind(rawValue: change.kind.rawValue) ?? .updated,
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
            language: snapshot.id.language.identifier, table: snapshot.id.table, file: snapshot.file,
            entries: snapshot.content.entries.map { ($0.key, $0.value.plainText) },
            rules: snapshot.content.rulePayload(for: snapshot.content.rules.keys)
        )
    }
}
