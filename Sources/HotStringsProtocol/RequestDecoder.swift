import StringsFormat

/// Decodes request lines and says exactly what is wrong with a bad one.
package enum RequestDecoder {
    /// Decodes one line (without its `"\n"`) into the request id, when one could be read, and the request or
    /// the error to answer with.
    ///
    /// The id is read before anything else is checked, so even a request with a bad field is answered with
    /// its own id. Unknown fields are ignored; `null` counts as absent for optional fields. Messages name
    /// the field: "missing field 'key'", "field 'languages' must be an array of strings", "not a JSON
    /// object", "unknown op 'frobnicate'" (code `unknown_op`).
    package static func decode(
        _ line: some Collection<UInt8>
    ) -> (id: RequestID?, result: Result<Request, ProtocolError>) {
        let value: JSONValue
        do {
            value = try JSONValue(parsing: line)
        } catch {
            return (nil, .failure(.badRequest("invalid JSON: \(error)")))
        }
        guard let members = value.objectMembers else {
            return (nil, .failure(.badRequest("not a JSON object")))
        }
        let fields = Fields(members: members)
        var id: RequestID?
        switch fields["id"] {
        case nil, .null?: id = nil
        case .number(let number)?: id = .number(number)
        case .string(let string)?: id = .string(string)
        case _?: return (nil, .failure(.badRequest("field 'id' must be an integer or a string")))
        }
        do {
            return (id, .success(try request(from: fields)))
        } catch {
            return (id, .failure(error))
        }
    }

    private static func request(from fields: Fields) throws(ProtocolError) -> Request {
        let op = try fields.requiredString("op")
        switch op {
        case "hello":
            return .hello(client: try fields.optionalString("client", allowEmpty: true))
        case "languages":
            return .languages
        case "get":
            let key = try fields.requiredString("key", allowEmpty: true)
            let table = try fields.optionalString("table") ?? Request.defaultTable
            let language = try fields.optionalString("language")
            let languages = try fields.optionalStrings("languages")
            if language != nil && languages != nil {
                throw .badRequest("give either 'language' or 'languages', not both")
            }
            return .get(key: key, table: table, languages: language.map { [$0] } ?? languages ?? [])
        case "table":
            let language = try fields.requiredString("language")
            return .table(language: language, table: try fields.optionalString("table") ?? Request.defaultTable)
        case "subscribe":
            return .subscribe(Subscription(
                languages: try fields.optionalStrings("languages"),
                tables: try fields.optionalStrings("tables"),
                snapshot: try fields.optionalBool("snapshot") ?? true,
                since: try fields.optionalPosition("since")
            ))
        case "unsubscribe":
            return .unsubscribe
        case "select-language":
            guard let language = fields["language"] else { throw .badRequest("missing field 'language'") }
            switch language {
            case .null: return .selectLanguage(nil)
            case .string(let name) where !name.isEmpty: return .selectLanguage(name)
            case .string: throw .badRequest("field 'language' must not be empty")
            default: throw .badRequest("field 'language' must be a string or null")
            }
        case "status":
            return .status
        case "set", "check":
            let edit = Edit(
                key: try fields.requiredString("key", allowEmpty: true),
                value: try fields.requiredString("value", allowEmpty: true),
                language: try fields.requiredString("language"),
                table: try fields.optionalString("table") ?? Request.defaultTable,
                form: try fields.optionalString("form"), variable: try fields.optionalString("variable"),
                device: try fields.optionalString("device"),
                comment: try fields.optionalString("comment", allowEmpty: true),
                createsLanguage: try fields.optionalBool("createLanguage") ?? false,
                isForced: try fields.optionalBool("force") ?? false
            )
            return op == "set" ? .set(edit) : .check(edit)
        case "remove":
            return .remove(key: try fields.requiredString("key", allowEmpty: true),
                           language: try fields.requiredString("language"),
                           table: try fields.optionalString("table") ?? Request.defaultTable)
        case "report-missing":
            return .reportMissing(try fields.missingReport())
        case "missing":
            return .missing(language: try fields.optionalString("language"), table: try fields.optionalString("table"))
        case "lint":
            return .lint
        case "states":
            return .states(table: try fields.optionalString("table") ?? Request.defaultTable)
        default:
            throw .unknownOp(op)
        }
    }
}

/// The members of a request object, read by name with typed, precise errors.
private struct Fields {
    let members: [(String, JSONValue)]

    /// The last member named `name` (as JavaScript's `JSON.parse` keeps the last of repeated names).
    subscript(name: String) -> JSONValue? {
        members.last { $0.0 == name }?.1
    }

    func requiredString(_ name: String, allowEmpty: Bool = false) throws(ProtocolError) -> String {
        guard let value = self[name], !value.isNull else { throw .badRequest("missing field '\(name)'") }
        guard let string = value.stringValue else { throw .badRequest("field '\(name)' must be a string") }
        guard allowEmpty || !string.isEmpty else { throw .badRequest("field '\(name)' must not be empty") }
        return string
    }

    func optionalString(_ name: String, allowEmpty: Bool = false) throws(ProtocolError) -> String? {
        guard let value = self[name], !value.isNull else { return nil }
        guard let string = value.stringValue else { throw .badRequest("field '\(name)' must be a string") }
        guard allowEmpty || !string.isEmpty else { throw .badRequest("field '\(name)' must not be empty") }
        return string
    }

    func optionalStrings(_ name: String) throws(ProtocolError) -> [String]? {
        guard let value = self[name], !value.isNull else { return nil }
        guard let elements = value.arrayValue else { throw .badRequest("field '\(name)' must be an array of strings") }
        var strings: [String] = []
        strings.reserveCapacity(elements.count)
        for element in elements {
            guard let string = element.stringValue else {
                throw .badRequest("field '\(name)' must be an array of strings")
            }
            guard !string.isEmpty else { throw .badRequest("field '\(name)' must not contain empty strings") }
            strings.append(string)
        }
        return strings
    }

    /// A `report-missing` request's `entries` (at most `MissingReport.maximumEntries`, each checked) and `dropped`.
    func missingReport() throws(ProtocolError) -> MissingReport {
        guard let elements = self["entries"]?.arrayValue else {
            throw .badRequest("field 'entries' must be an array of objects")
        }
        guard elements.count <= MissingReport.maximumEntries else {
            throw .badRequest("field 'entries' holds more than \(MissingReport.maximumEntries) entries")
        }
        var entries: [MissingEntry] = []
        entries.reserveCapacity(elements.count)
        for element in elements { entries.append(try MissingEntry(json: element)) }
        var dropped: Int64 = 0
        if let value = self["dropped"], !value.isNull {
            guard let count = value.int64Value, count >= 0 else {
                throw .badRequest("field 'dropped' must be a non-negative integer")
            }
            dropped = count
        }
        return MissingReport(entries: entries, dropped: dropped)
    }

    func optionalBool(_ name: String) throws(ProtocolError) -> Bool? {
        guard let value = self[name], !value.isNull else { return nil }
        guard let bool = value.boolValue else { throw .badRequest("field '\(name)' must be true or false") }
        return bool
    }

    func optionalPosition(_ name: String) throws(ProtocolError) -> StreamPosition? {
        guard let value = self[name], !value.isNull else { return nil }
        guard let members = value.objectMembers else {
            throw .badRequest("field '\(name)' must be an object with 'epoch' and 'seq'")
        }
        let position = Fields(members: members)
        return StreamPosition(
            epoch: try position.requiredCount("epoch", in: name),
            seq: try position.requiredCount("seq", in: name)
        )
    }

    func requiredCount(_ name: String, in parent: String) throws(ProtocolError) -> UInt64 {
        guard let value = self[name], !value.isNull else { throw .badRequest("missing field '\(parent).\(name)'") }
        guard let number = value.int64Value, number >= 0 else {
            throw .badRequest("field '\(parent).\(name)' must be a non-negative integer")
        }
        return UInt64(number)
    }
}
