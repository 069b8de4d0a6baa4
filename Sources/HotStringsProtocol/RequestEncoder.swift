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
        case .set(let edit), .check(let edit):
            let (value, form, variable, comment): (String, String?, String?, String?)
            switch edit.change {
            case .value(let text, let note): (value, form, variable, comment) = (text, nil, nil, note)
            case .form(let category, let name, let text): (value, form, variable, comment) = (text, category, name, nil)
            case .removal: preconditionFailure("a \(request.op) writes a value, never a removal")
            }
            members += [("key", .string(edit.key)), ("value", .string(value)),
                        ("language", .string(edit.language)), ("table", .string(edit.table))]
            if let form { members.append(("form", .string(form))) }
            if let variable { members.append(("variable", .string(variable))) }
            if let device = edit.device { members.append(("device", .string(device))) }
            if let comment { members.append(("comment", .string(comment))) }
            if edit.createsLanguage { members.append(("createLanguage", .bool(true))) }
            if edit.isForced { members.append(("force", .bool(true))) }
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
