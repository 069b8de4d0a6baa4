import StringsFormat

/// Encodes requests as lines, for the CLI and other Swift clients.
package enum RequestEncoder {
    /// The request as one compact JSON line ending in `"\n"`, `id` first, then `op`, then its parameters.
    ///
    /// A `get` with one language is sent as `language`, with several as `languages`; defaults are sent
    /// explicitly except absent optional fields. `RequestDecoder.decode` reads the line back as `request`.
    package static func encode(id: RequestID, _ request: Request) -> [UInt8] {
        var members: [(String, JSONValue)] = [("id", id.json), ("op", .string(request.op))]
        switch request {
        case .hello(let client):
            if let client { members.append(("client", .string(client))) }
        case .languages, .unsubscribe, .status:
            break
        case .get(let key, let table, let languages):
            members.append(("key", .string(key)))
            members.append(("table", .string(table)))
            if languages.count == 1 {
                members.append(("language", .string(languages[0])))
            } else if !languages.isEmpty {
                members.append(("languages", .strings(languages)))
            }
        case .table(let language, let table):
            members.append(("language", .string(language)))
            members.append(("table", .string(table)))
        case .subscribe(let subscription):
            if let languages = subscription.languages { members.append(("languages", .strings(languages))) }
            if let tables = subscription.tables { members.append(("tables", .strings(tables))) }
            members.append(("snapshot", .bool(subscription.snapshot)))
            if let since = subscription.since {
                members.append(("since", .object([("epoch", .integer(since.epoch)), ("seq", .integer(since.seq))])))
            }
        case .selectLanguage(let language):
            members.append(("language", .string(orNull: language)))
        case .set(let write), .check(let write):
            members += [("key", .string(write.key)), ("value", .string(write.value)),
                        ("language", .string(write.language)), ("table", .string(write.table))]
            if let form = write.form { members.append(("form", .string(form))) }
            if let variable = write.variable { members.append(("variable", .string(variable))) }
            if let device = write.device { members.append(("device", .string(device))) }
            if let comment = write.comment { members.append(("comment", .string(comment))) }
            if write.createLanguage { members.append(("createLanguage", .bool(true))) }
            if write.force { members.append(("force", .bool(true))) }
        case .remove(let key, let language, let table):
            members += [("key", .string(key)), ("language", .string(language)), ("table", .string(table))]
        case .reportMissing(let report):
            members.append(("entries", .array(report.entries.map(\.json))))
            members.append(("dropped", .integer(report.dropped)))
        case .missing(let language, let table):
            if let language { members.append(("language", .string(language))) }
            if let table { members.append(("table", .string(table))) }
        case .states(let table):
            members.append(("table", .string(table)))
        case .lint:
            break
        }
        var line = JSONValue.object(members).serialized()
        line.append(0x0A)
        return line
    }
}
