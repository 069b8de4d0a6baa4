import StringsFormat

/// The answer of one operation: its members after `id` and `ok`, written and read in this module and nowhere else.
///
/// Each op has one answer type (`Answer` lists them); a client that knows what it asked reads the members it
/// received as that type (`LineConnection.request(_:as:timeout:)`), anyone else through `Answer(_:answering:)`.
package protocol AnswerBody: Sendable, Equatable {
    /// Reads the answer from the members received.
    /// - Throws: `MalformedMessage` naming the member that is missing or of the wrong type.
    init(_ fields: AnswerFields) throws(MalformedMessage)

    /// Appends the members after `id` and `ok`, each as `,"name":value`, in the order docs/PROTOCOL.md shows.
    func appendMembers(to out: inout [UInt8])
}

/// The members of a successful answer after `id` and `ok`, as they came off the wire: what `ServerMessage` gives,
/// until they are read as the answer of the op that was asked.
package struct AnswerFields: Sendable, Equatable {
    /// The members, in the order the server wrote them.
    let members: [(String, JSONValue)]

    /// Members as received.
    package init(_ members: [(String, JSONValue)]) {
        self.members = members
    }

    /// The members as one object, exactly as received (members this version does not know included): for printing
    /// the answer as the server gave it (`--json`), and for tests of the wire.
    package var json: JSONValue { .object(members) }

    /// The members `answer` is written with, as a client reads them back (for tests of what the wire carries, and
    /// an in-process answer printed as a daemon's).
    package init(_ answer: Answer) {
        let line = ResponseEncoder.success(id: nil, answer)
        guard case .response(_, .success(let fields))? = try? ServerMessage.decode(line.dropLast()) else {
            preconditionFailure("an encoded answer reads back")
        }
        self = fields
    }

    /// A reader of the members; `op` names them in errors.
    func reader(_ op: String) -> MemberReader { MemberReader(value: .object(members), path: op) }

    /// Members are equal when they are, in order.
    package static func == (lhs: AnswerFields, rhs: AnswerFields) -> Bool {
        JSONValue.object(lhs.members) == .object(rhs.members)
    }
}

/// A successful answer, typed: one case per op of protocol version 1 (`set` and `remove` share theirs).
///
/// The service makes these, `ResponseEncoder.success` writes them, and a client reads them back with
/// `Answer(_:answering:)`; an in-process client gets them as they are.
package enum Answer: Sendable, Equatable {
    /// `hello`.
    case hello(HelloAnswer)
    /// `languages`.
    case languages(LanguagesAnswer)
    /// `get`.
    case value(GetAnswer)
    /// `table`.
    case table(TableAnswer)
    /// `subscribe`: where the event stream stands.
    case subscribed(StreamPosition)
    /// `unsubscribe`: no members.
    case unsubscribed
    /// `select-language`.
    case selection(SelectLanguageAnswer)
    /// `status`.
    case status(StatusAnswer)
    /// `set` and `remove`: the file written.
    case edit(EditAnswer)
    /// `check`.
    case check(CheckAnswer)
    /// `report-missing`: no members.
    case missingReported
    /// `missing`.
    case missing(MissingAnswer)
    /// `states`.
    case states(StatesAnswer)
    /// `lint`.
    case lint(LintAnswer)

    /// Reads `fields` as the answer to `request`.
    /// - Throws: `MalformedMessage` naming the member that is missing or of the wrong type.
    package init(_ fields: AnswerFields, answering request: Request) throws(MalformedMessage) {
        switch request {
        case .hello: self = .hello(try HelloAnswer(fields))
        case .languages: self = .languages(try LanguagesAnswer(fields))
        case .get: self = .value(try GetAnswer(fields))
        case .table: self = .table(try TableAnswer(fields))
        case .subscribe: self = .subscribed(try StreamPosition(fields))
        case .unsubscribe: self = .unsubscribed
        case .selectLanguage: self = .selection(try SelectLanguageAnswer(fields))
        case .status: self = .status(try StatusAnswer(fields))
        case .set, .remove: self = .edit(try EditAnswer(fields))
        case .check: self = .check(try CheckAnswer(fields))
        case .reportMissing: self = .missingReported
        case .missing: self = .missing(try MissingAnswer(fields))
        case .states: self = .states(try StatesAnswer(fields))
        case .lint: self = .lint(try LintAnswer(fields))
        }
    }

    /// The answer's members, nil for an op that answers none.
    package var body: (any AnswerBody)? {
        switch self {
        case .hello(let body): body
        case .languages(let body): body
        case .value(let body): body
        case .table(let body): body
        case .subscribed(let body): body
        case .selection(let body): body
        case .status(let body): body
        case .edit(let body): body
        case .check(let body): body
        case .missing(let body): body
        case .states(let body): body
        case .lint(let body): body
        case .unsubscribed, .missingReported: nil
        }
    }
}

extension AnswerBody {
    /// Appends `members`, each as `,"name":value`.
    static func append(_ members: [(String, JSONValue)], to out: inout [UInt8]) {
        for (name, value) in members {
            out.append(UInt8(ascii: ","))
            JSONWriter.appendKey(name, to: &out)
            value.write(to: &out)
        }
    }
}
