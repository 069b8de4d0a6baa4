import StringsFormat

/// Reads typed members of a JSON object the server sent (an event's body, an answer's members), naming the path of
/// whatever is missing or of the wrong type: `status.pull.failures must be an integer`.
///
/// Events and answers are read through it and nothing else, so a reader outside this module never reads a member
/// by its name.
struct MemberReader {
    let value: JSONValue
    let path: String

    func member(_ name: String) throws(MalformedMessage) -> JSONValue {
        guard let member = value[name] else { throw MalformedMessage("\(path): missing member '\(name)'") }
        return member
    }

    /// The member `name`, nil when it is absent or null: a member added to the protocol later, or one that is
    /// null when it has nothing to say.
    func optionalMember(_ name: String) -> JSONValue? {
        guard let member = value[name], !member.isNull else { return nil }
        return member
    }

    func wrongType(_ name: String, _ expected: String) -> MalformedMessage {
        MalformedMessage("\(path).\(name) must be \(expected)")
    }

    func string(_ name: String) throws(MalformedMessage) -> String {
        guard let string = try member(name).stringValue else { throw wrongType(name, "a string") }
        return string
    }

    func optionalString(_ name: String) throws(MalformedMessage) -> String? {
        guard let member = optionalMember(name) else { return nil }
        guard let string = member.stringValue else { throw wrongType(name, "a string or null") }
        return string
    }

    func bool(_ name: String) throws(MalformedMessage) -> Bool {
        guard let bool = try member(name).boolValue else { throw wrongType(name, "a Boolean") }
        return bool
    }

    func int64(_ name: String) throws(MalformedMessage) -> Int64 {
        guard let number = try member(name).int64Value else { throw wrongType(name, "an integer") }
        return number
    }

    func int(_ name: String) throws(MalformedMessage) -> Int {
        guard let number = try member(name).int64Value, let int = Int(exactly: number) else {
            throw wrongType(name, "an integer")
        }
        return int
    }

    /// A count or a stream position: an integer of 0 or more.
    func count(_ name: String) throws(MalformedMessage) -> UInt64 {
        guard let number = try member(name).int64Value, number >= 0 else {
            throw wrongType(name, "a non-negative integer")
        }
        return UInt64(number)
    }

    func optionalInt(_ name: String) throws(MalformedMessage) -> Int? {
        guard let member = optionalMember(name) else { return nil }
        guard let number = member.int64Value, let int = Int(exactly: number) else {
            throw wrongType(name, "an integer or null")
        }
        return int
    }

    func optionalInt64(_ name: String) throws(MalformedMessage) -> Int64? {
        guard let member = optionalMember(name) else { return nil }
        guard let number = member.int64Value else { throw wrongType(name, "an integer or null") }
        return number
    }

    /// A number, written with or without a fraction (`30` or `30.5`).
    func double(_ name: String) throws(MalformedMessage) -> Double {
        switch try member(name) {
        case .double(let value): return value
        case .number(let value): return Double(value)
        default: throw wrongType(name, "a number")
        }
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

    /// The member `name`, an object, read in its turn.
    func object(_ name: String) throws(MalformedMessage) -> MemberReader {
        let member = try member(name)
        guard member.objectMembers != nil else { throw wrongType(name, "an object") }
        return MemberReader(value: member, path: "\(path).\(name)")
    }

    /// The member `name`, an object or null (or absent), read in its turn.
    func optionalObject(_ name: String) throws(MalformedMessage) -> MemberReader? {
        guard let member = optionalMember(name) else { return nil }
        guard member.objectMembers != nil else { throw wrongType(name, "an object or null") }
        return MemberReader(value: member, path: "\(path).\(name)")
    }

    /// The member `name`, an array, each element read in its turn.
    func array(_ name: String) throws(MalformedMessage) -> [MemberReader] {
        guard let elements = try member(name).arrayValue else { throw wrongType(name, "an array") }
        return elements.enumerated().map { MemberReader(value: $1, path: "\(path).\(name)[\($0)]") }
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

    /// An object whose members are all strings, in order.
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

    /// The optional `rules` member: an object whose members are objects (absent or `null`: no rules).
    func rules() throws(MalformedMessage) -> [(String, JSONValue)] {
        guard let member = optionalMember("rules") else { return [] }
        guard let members = member.objectMembers, members.allSatisfy({ $0.1.objectMembers != nil }) else {
            throw wrongType("rules", "an object of objects")
        }
        return members
    }
}
