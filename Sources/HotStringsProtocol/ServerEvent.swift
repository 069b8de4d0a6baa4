import BundleChanges
import StringsFormat

/// An event's payload in typed form, for clients that keep a mirror of the tables.
package enum ServerEvent: Sendable, Equatable {
    /// Every table the subscription covers, with all entries: replace the mirror.
    case snapshot(tables: [TablePayload])
    /// Tables that changed in one settled batch: apply the changes in order.
    case reload(changes: [ChangePayload])
    /// `file` failed to parse (`line` and `column` are `nil` when not known); its last good table stays.
    case error(file: String, line: Int?, column: Int?, message: String)
    /// The selected app language changed to `language` (`nil`: cleared) from `previous`.
    case language(language: LanguageTag?, previous: LanguageTag?)
    /// The mirror may be stale (`overflow`, `root-removed`, `root-restored`, `slow-client`); a snapshot follows.
    case resync(reason: String)
    /// An event this protocol version does not know, to be skipped.
    case unknown(name: String, body: JSONValue)

    /// Reads the payload of the event `name` from its `body`, as `ServerMessage.event` gives them.
    ///
    /// - Throws: `MalformedMessage` naming the member that is missing or of the wrong type.
    package init(name: String, body: JSONValue) throws(MalformedMessage) {
        let reader = PayloadReader(value: body, path: name)
        switch name {
        case "snapshot":
            self = .snapshot(tables: try reader.array("tables").map { table throws(MalformedMessage) in
                TablePayload(language: try table.languageTag("language"), table: try table.string("table"),
                             file: try table.string("file"), entries: try table.pairs("entries"),
                             rules: try table.rules())
            })
        case "reload":
            self = .reload(changes: try reader.array("changes").map { change throws(MalformedMessage) in
                let kindName = try change.string("kind")
                guard let kind = ChangeKind(rawValue: kindName) else {
                    throw MalformedMessage("\(change.path).kind: unknown kind '\(kindName)'")
                }
                return ChangePayload(language: try change.languageTag("language"), table: try change.string("table"),
                                     file: try change.string("file"), kind: kind, added: try change.pairs("added"),
                                     changed: try change.pairs("changed"), removed: try change.strings("removed"),
                                     rules: try change.rules())
            })
        case "error":
            self = .error(file: try reader.string("file"), line: try reader.optionalInt("line"),
                          column: try reader.optionalInt("column"), message: try reader.string("message"))
        case "language":
            self = .language(language: try reader.optionalLanguageTag("language"),
                             previous: try reader.optionalLanguageTag("previous"))
        case "resync":
            self = .resync(reason: try reader.string("reason"))
        default:
            self = .unknown(name: name, body: body)
        }
    }
}

/// Reads typed members of an event body, naming the path of whatever is wrong.
private struct PayloadReader {
    let value: JSONValue
    let path: String

    func member(_ name: String) throws(MalformedMessage) -> JSONValue {
        guard let member = value[name] else { throw MalformedMessage("\(path): missing member '\(name)'") }
        return member
    }

    func wrongType(_ name: String, _ expected: String) -> MalformedMessage {
        MalformedMessage("\(path).\(name) must be \(expected)")
    }

    func string(_ name: String) throws(MalformedMessage) -> String {
        guard let string = try member(name).stringValue else { throw wrongType(name, "a string") }
        return string
    }

    /// A language tag, read as the daemon writes one; a string that is no tag is malformed.
    func languageTag(_ name: String) throws(MalformedMessage) -> LanguageTag {
        let text = try string(name)
        guard let tag = LanguageTag(text) else {
            throw MalformedMessage("\(path).\(name): '\(DisplayText.escaped(text))' is not a language tag")
        }
        return tag
    }

    /// A language tag or null.
    func optionalLanguageTag(_ name: String) throws(MalformedMessage) -> LanguageTag? {
        try optionalString(name) == nil ? nil : try languageTag(name)
    }

    func optionalString(_ name: String) throws(MalformedMessage) -> String? {
        let member = value[name] ?? .null
        if member.isNull { return nil }
        guard let string = member.stringValue else { throw wrongType(name, "a string or null") }
        return string
    }

    func optionalInt(_ name: String) throws(MalformedMessage) -> Int? {
        let member = value[name] ?? .null
        if member.isNull { return nil }
        guard let number = member.int64Value, let int = Int(exactly: number) else {
            throw wrongType(name, "an integer or null")
        }
        return int
    }

    func array(_ name: String) throws(MalformedMessage) -> [PayloadReader] {
        guard let elements = try member(name).arrayValue else { throw wrongType(name, "an array") }
        return elements.enumerated().map { PayloadReader(value: $1, path: "\(path).\(name)[\($0)]") }
    }

    func strings(_ name: String) throws(MalformedMessage) -> [String] {
        guard let elements = try member(name).arrayValue else { throw wrongType(name, "an array of strings") }
        var strings: [String] = []
        strings.reserveCapacity(elements.count)
        for element in elements {
            guard let string = element.stringValue else { throw wrongType(name, "an array of strings") }
            strings.append(string)
        }
        return strings
    }

    /// The optional `rules` member: an object whose members are objects (absent or `null`: no rules).
    func rules() throws(MalformedMessage) -> [(String, JSONValue)] {
        let member = value["rules"] ?? .null
        if member.isNull { return [] }
        guard let members = member.objectMembers, members.allSatisfy({ $0.1.objectMembers != nil }) else {
            throw wrongType("rules", "an object of objects")
        }
        return members
    }

    func pairs(_ name: String) throws(MalformedMessage) -> [(String, String)] {
        guard let members = try member(name).objectMembers else { throw wrongType(name, "an object of strings") }
        var pairs: [(String, String)] = []
        pairs.reserveCapacity(members.count)
        for (key, member) in members {
            guard let string = member.stringValue else { throw wrongType(name, "an object of strings") }
            pairs.append((key, string))
        }
        return pairs
    }
}
