import HotStringsProtocol
import StringsStore

/// Store values in the protocol's payload shapes, as the daemon sends them.
enum StorePayloads {
    static func change(_ change: TableChange) -> ChangePayload {
        ChangePayload(
            language: change.language, table: change.table, file: change.file,
            kind: ChangePayload.Kind(rawValue: change.kind.rawValue) ?? .updated,
            added: change.added.map { ($0.key, $0.value) }, changed: change.changed.map { ($0.key, $0.value) },
            removed: change.removed
        )
    }

    static func table(_ snapshot: TableSnapshot) -> TablePayload {
        TablePayload(
            language: snapshot.id.language.identifier, table: snapshot.id.table, file: snapshot.file,
            entries: snapshot.table.entries.map { ($0.key, $0.value) }
        )
    }
}
