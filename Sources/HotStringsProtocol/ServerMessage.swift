import StringsFormat

/// A line from the server that is not a valid response or event.
package struct MalformedMessage: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong with the line.
    package var reason: String

    /// Creates the error.
    package init(_ reason: String) {
        self.reason = reason
    }

    /// The reason.
    package var description: String { reason }
}

/// One line from the server as a client reads it: a response to a request, or an event.
package enum ServerMessage: Sendable, Equatable {
    /// A response: the request's id (`nil` when the server could not read one) and its members other than `id`
    /// and `ok` (to be read as the answer of the op asked: `Answer(_:answering:)`), or the error.
    case response(id: RequestID?, Result<AnswerFields, ProtocolError>)
    /// An event: its name, `epoch` and `seq`, and its other members in order as an object.
    case event(name: String, epoch: UInt64, seq: UInt64, body: JSONValue)

    /// Decodes one line (without its `"\n"`).
    ///
    /// An error code this version does not know is read as `internal`, keeping the message. Events with
    /// unknown names are returned as they are, so a client can skip them.
    /// - Throws: `MalformedMessage` when the line is not JSON, not an object, or neither a response nor an event.
    package static func decode(_ line: some Collection<UInt8>) throws(MalformedMessage) -> ServerMessage {
        let value: JSONValue
        do {
            value = try JSONValue(parsing: line)
        } catch {
            throw MalformedMessage("invalid JSON: \(error)")
        }
        guard let members = value.objectMembers else { throw MalformedMessage("not a JSON object") }
        if let name = value["event"] {
            guard let name = name.stringValue else { throw MalformedMessage("member 'event' must be a string") }
            let epoch = try count("epoch", in: value)
            let seq = try count("seq", in: value)
            let body = members.filter { $0.0 != "event" && $0.0 != "epoch" && $0.0 != "seq" }
            return .event(name: name, epoch: epoch, seq: seq, body: .object(body))
        }
        guard let ok = value["ok"]?.boolValue else { throw MalformedMessage("neither an event nor a response") }
        let id: RequestID?
        switch value["id"] {
        case nil, .null?: id = nil
        case .number(let number)?: id = .number(number)
        case .string(let string)?: id = .string(string)
        case _?: throw MalformedMessage("member 'id' must be an integer, a string or null")
        }
        if ok {
            return .response(id: id, .success(AnswerFields(members.filter { $0.0 != "id" && $0.0 != "ok" })))
        }
        return .response(id: id, .failure(try protocolError(value["error"])))
    }

    private static func count(_ name: String, in value: JSONValue) throws(MalformedMessage) -> UInt64 {
        guard let number = value[name]?.int64Value, number >= 0 else {
            throw MalformedMessage("member '\(name)' must be a non-negative integer")
        }
        return UInt64(number)
    }

    private static func protocolError(_ value: JSONValue?) throws(MalformedMessage) -> ProtocolError {
        guard let value, let codeName = value["code"]?.stringValue, let message = value["message"]?.stringValue else {
            throw MalformedMessage("a failed response needs 'error' with 'code' and 'message'")
        }
        var available: [String]?
        if let list = value["available"], !list.isNull {
            guard let strings = list.arrayValue?.compactMap(\.stringValue), strings.count == list.arrayValue?.count
            else { throw MalformedMessage("member 'available' must be an array of strings") }
            available = strings
        }
        guard let code = ProtocolError.Code(rawValue: codeName) else {
            return ProtocolError(.internal, "\(codeName): \(message)", available: available)
        }
        return ProtocolError(code, message, available: available)
    }
}
