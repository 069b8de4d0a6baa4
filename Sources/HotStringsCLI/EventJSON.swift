import StringsFormat
import StringsStore

/// Events and snapshots as single JSON lines, in the shapes of the wire protocol (docs: DESIGN.md).
enum EventJSON {
    /// One compact JSON object from members whose values are already JSON text.
    static func object(_ members: [(String, String)]) -> String {
        "{" + members.map { JSONText.quoted($0.0) + ":" + $0.1 }.joined(separator: ",") + "}"
    }

    static func string(_ value: String?) -> String { value.map(JSONText.quoted) ?? "null" }

    static func number(_ value: Int?) -> String { value.map(String.init) ?? "null" }

    static func entries(_ pairs: [KeyValue]) -> String {
        object(pairs.map { ($0.key, JSONText.quoted($0.value.plainText)) })
    }

    /// `{"event":"snapshot",...}` with every table of the snapshot, entries in source order.
    static func snapshot(_ snapshot: Snapshot) -> String {
        let tables = snapshot.tables.map { table in
            object([
                ("language", string(table.id.language.identifier)), ("table", string(table.id.table)),
                ("file", string(table.file)),
                ("entries", object(table.content.entries.map { ($0.key, JSONText.quoted($0.value.plainText)) })),
            ])
        }
        return object([
            ("event", "\"snapshot\""), ("epoch", String(snapshot.epoch)), ("seq", String(snapshot.seq)),
            ("tables", "[" + tables.joined(separator: ",") + "]"),
        ])
    }

    /// A store event as its protocol line.
    static func event(_ event: StoreEvent, epoch: UInt64) -> String {
        let header = [("epoch", String(epoch)), ("seq", String(event.seq))]
        switch event {
        case .reload(_, let changes):
            let changeObjects = changes.map { change in
                object([
                    ("language", string(change.language)), ("table", string(change.table)),
                    ("file", string(change.file)), ("kind", string(change.kind.rawValue)),
                    ("added", entries(change.added)), ("changed", entries(change.changed)),
                    ("removed", "[" + change.removed.map(JSONText.quoted).joined(separator: ",") + "]"),
                ])
            }
            return object([("event", "\"reload\"")] + header + [("changes", "[" + changeObjects.joined(separator: ",") + "]")])
        case .error(_, let problem):
            return object([("event", "\"error\"")] + header + [
                ("file", string(problem.file)), ("line", number(problem.line)), ("column", number(problem.column)),
                ("message", string(problem.message)),
            ])
        case .resync(_, let reason):
            return object([("event", "\"resync\"")] + header + [("reason", string(reason.rawValue))])
        case .language(_, let language, let previous):
            return object([("event", "\"language\"")] + header + [
                ("language", string(language)), ("previous", string(previous)),
            ])
        }
    }
}
