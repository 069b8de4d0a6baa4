import StringsFormat

/// Encodes events as lines: `{"event":…,"epoch":E,"seq":S,…}` ending in `"\n"`, members in a fixed order.
///
/// Each line is written straight into one byte array, reserved once, so a server can encode an event
/// once and send the same bytes to every subscriber.
package enum EventEncoder {
    /// `event` at position `epoch`/`seq` as one line, ending in `"\n"`.
    ///
    /// - Precondition: `event` is not `.unknown`: a server sends only the events it knows.
    /// - Complexity: O(n) in the size of the event, with one allocation.
    package static func encode(_ event: ServerEvent, epoch: UInt64, seq: UInt64) -> [UInt8] {
        switch event {
        case .snapshot(let tables):
            Self.snapshot(epoch: epoch, seq: seq, tables: tables)
        case .reload(let changes):
            Self.reload(epoch: epoch, seq: seq, changes: changes)
        case .error(let file, let line, let column, let message):
            Self.error(epoch: epoch, seq: seq, file: file, line: line, column: column, message: message)
        case .language(let language, let previous):
            Self.language(epoch: epoch, seq: seq, language: language, previous: previous)
        case .resync(let reason):
            Self.resync(epoch: epoch, seq: seq, reason: reason)
        case .unknown(let name, _):
            preconditionFailure("a server never sends an event it does not know ('\(name)')")
        }
    }

    /// A `snapshot` event: `tables` of `{language, table, file, entries}`, entries in source order, and `rules`
    /// for a table that has format rules.
    ///
    /// - Complexity: O(n) in the total size of the tables, with one allocation.
    private static func snapshot(epoch: UInt64, seq: UInt64, tables: [TablePayload]) -> [UInt8] {
        var size = 64
        for table in tables {
            size += JSONWriter.estimatedSize(of: table.entries) + table.file.utf8.count + 64
        }
        var out = header("snapshot", epoch: epoch, seq: seq, capacity: size)
        out.append(contentsOf: #","tables":["#.utf8)
        for (index, table) in tables.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            writeTableHead(language: table.language.identifier, table: table.table, file: table.file, to: &out)
            out.append(contentsOf: #","entries":"#.utf8)
            JSONWriter.appendStringObject(table.entries, to: &out)
            appendRules(table.rules, to: &out)
            out.append(UInt8(ascii: "}"))
        }
        out.append(contentsOf: "]}\n".utf8)
        return out
    }

    /// A `reload` event: `changes` of `{language, table, file, kind, added, changed, removed}`, and `rules` for a
    /// change whose added or changed keys have format rules.
    private static func reload(epoch: UInt64, seq: UInt64, changes: [ChangePayload]) -> [UInt8] {
        var size = 64
        for change in changes {
            size += JSONWriter.estimatedSize(of: change.added) + JSONWriter.estimatedSize(of: change.changed)
            size += change.file.utf8.count + 96
            for key in change.removed { size += key.utf8.count + 3 }
        }
        var out = header("reload", epoch: epoch, seq: seq, capacity: size)
        out.append(contentsOf: #","changes":["#.utf8)
        for (index, change) in changes.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            writeTableHead(language: change.language.identifier, table: change.table, file: change.file, to: &out)
            out.append(contentsOf: #","kind":"#.utf8)
            JSONWriter.appendQuoted(change.kind.rawValue, to: &out)
            out.append(contentsOf: #","added":"#.utf8)
            JSONWriter.appendStringObject(change.added, to: &out)
            out.append(contentsOf: #","changed":"#.utf8)
            JSONWriter.appendStringObject(change.changed, to: &out)
            out.append(contentsOf: #","removed":"#.utf8)
            JSONWriter.appendStringArray(change.removed, to: &out)
            appendRules(change.rules, to: &out)
            out.append(UInt8(ascii: "}"))
        }
        out.append(contentsOf: "]}\n".utf8)
        return out
    }

    /// An `error` event: `file` failed to parse at `line`:`column` (`null` when unknown); the last good
    /// table stays served.
    private static func error(epoch: UInt64, seq: UInt64, file: String, line: Int?, column: Int?,
                             message: String) -> [UInt8] {
        var out = header("error", epoch: epoch, seq: seq, capacity: 128 + file.utf8.count + message.utf8.count)
        out.append(contentsOf: #","file":"#.utf8)
        JSONWriter.appendQuoted(file, to: &out)
        out.append(contentsOf: #","line":"#.utf8)
        appendOptionalInteger(line, to: &out)
        out.append(contentsOf: #","column":"#.utf8)
        appendOptionalInteger(column, to: &out)
        out.append(contentsOf: #","message":"#.utf8)
        JSONWriter.appendQuoted(message, to: &out)
        out.append(contentsOf: "}\n".utf8)
        return out
    }

    /// A `language` event: the selected app language is now `language` (`null` when cleared), was `previous`.
    private static func language(epoch: UInt64, seq: UInt64, language: LanguageTag?, previous: LanguageTag?)
        -> [UInt8] {
        var out = header("language", epoch: epoch, seq: seq, capacity: 128)
        out.append(contentsOf: #","language":"#.utf8)
        JSONWriter.appendOptionalString(language?.identifier, to: &out)
        out.append(contentsOf: #","previous":"#.utf8)
        JSONWriter.appendOptionalString(previous?.identifier, to: &out)
        out.append(contentsOf: "}\n".utf8)
        return out
    }

    /// A `resync` event: drop the mirror, a fresh `snapshot` follows. `reason` is `overflow`,
    /// `root-removed`, `root-restored` or `slow-client`.
    private static func resync(epoch: UInt64, seq: UInt64, reason: String) -> [UInt8] {
        var out = header("resync", epoch: epoch, seq: seq, capacity: 96)
        out.append(contentsOf: #","reason":"#.utf8)
        JSONWriter.appendQuoted(reason, to: &out)
        out.append(contentsOf: "}\n".utf8)
        return out
    }

    private static func header(_ event: StaticString, epoch: UInt64, seq: UInt64, capacity: Int) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(capacity)
        out.append(contentsOf: #"{"event":""#.utf8)
        out.append(contentsOf: UnsafeBufferPointer(start: event.utf8Start, count: event.utf8CodeUnitCount))
        out.append(contentsOf: #"","epoch":"#.utf8)
        JSONWriter.appendInteger(epoch, to: &out)
        out.append(contentsOf: #","seq":"#.utf8)
        JSONWriter.appendInteger(seq, to: &out)
        return out
    }

    private static func writeTableHead(language: String, table: String, file: String, to out: inout [UInt8]) {
        out.append(contentsOf: #"{"language":"#.utf8)
        JSONWriter.appendQuoted(language, to: &out)
        out.append(contentsOf: #","table":"#.utf8)
        JSONWriter.appendQuoted(table, to: &out)
        out.append(contentsOf: #","file":"#.utf8)
        JSONWriter.appendQuoted(file, to: &out)
    }

    /// `,"rules":{…}`, or nothing for no rules: a table without rules is written as before rules existed.
    private static func appendRules(_ rules: [(String, JSONValue)], to out: inout [UInt8]) {
        guard !rules.isEmpty else { return }
        out.append(contentsOf: #","rules":"#.utf8)
        JSONValue.object(rules).write(to: &out)
    }

    private static func appendOptionalInteger(_ value: Int?, to out: inout [UInt8]) {
        if let value { JSONWriter.appendInteger(Int64(value), to: &out) } else { out.append(contentsOf: "null".utf8) }
    }
}
