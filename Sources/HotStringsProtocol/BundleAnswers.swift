import StringsFormat

/// `hello`'s answer: who the server is, where its event stream stands, what it serves.
package struct HelloAnswer: AnswerBody {
    /// The daemon's name and version, `hotstrings 0.1.0`.
    package var server: String
    /// The protocol version, `1`.
    package var protocolVersion: Int64
    /// Where the event stream stands.
    package var position: StreamPosition
    /// The bundle directory being served.
    package var root: String
    /// The language every lookup falls back to before `Base`.
    package var developmentLanguage: String

    /// An answer.
    package init(server: String, protocolVersion: Int64 = 1, position: StreamPosition, root: String,
                 developmentLanguage: String) {
        self.server = server
        self.protocolVersion = protocolVersion
        self.position = position
        self.root = root
        self.developmentLanguage = developmentLanguage
    }

    package init(_ fields: AnswerFields) throws(MalformedMessage) {
        let reader = fields.reader("hello")
        self.init(server: try reader.string("server"), protocolVersion: try reader.int64("protocol"),
                  position: StreamPosition(epoch: try reader.count("epoch"), seq: try reader.count("seq")),
                  root: try reader.string("root"), developmentLanguage: try reader.string("developmentLanguage"))
    }

    package func appendMembers(to out: inout [UInt8]) {
        Self.append([
            ("server", .string(server)), ("protocol", .number(protocolVersion)),
            ("epoch", .integer(position.epoch)), ("seq", .integer(position.seq)),
            ("root", .string(root)), ("developmentLanguage", .string(developmentLanguage)),
        ], to: &out)
    }
}

/// `languages`' answer: the bundle's languages with their tables' key counts, the selection, the development
/// language.
package struct LanguagesAnswer: AnswerBody {
    /// One language of the bundle.
    package struct Language: Sendable, Equatable {
        /// The canonical tag.
        package var language: String
        /// The number of keys of each table, by table name (written sorted by name).
        package var tables: [String: Int]
        /// Whether it is a pseudo-language made from the development language (`"pseudo":true`).
        package var isPseudo: Bool

        /// A language.
        package init(language: String, tables: [String: Int], isPseudo: Bool = false) {
            self.language = language
            self.tables = tables
            self.isPseudo = isPseudo
        }
    }

    /// The languages, sorted.
    package var languages: [Language]
    /// The selected app language, or nil.
    package var selected: String?
    /// The language every lookup falls back to before `Base`.
    package var developmentLanguage: String

    /// An answer.
    package init(languages: [Language], selected: String?, developmentLanguage: String) {
        self.languages = languages
        self.selected = selected
        self.developmentLanguage = developmentLanguage
    }

    package init(_ fields: AnswerFields) throws(MalformedMessage) {
        let reader = fields.reader("languages")
        var languages: [Language] = []
        for entry in try reader.array("languages") {
            var tables: [String: Int] = [:]
            guard let members = try entry.member("tables").objectMembers else {
                throw entry.wrongType("tables", "an object of integers")
            }
            for (table, count) in members {
                guard let keys = count.int64Value.flatMap({ Int(exactly: $0) }) else {
                    throw entry.wrongType("tables", "an object of integers")
                }
                tables[table] = keys
            }
            let isPseudo = entry.optionalMember("pseudo")?.boolValue ?? false
            languages.append(Language(language: try entry.string("language"), tables: tables, isPseudo: isPseudo))
        }
        self.init(languages: languages, selected: try reader.optionalString("selected"),
                  developmentLanguage: try reader.string("developmentLanguage"))
    }

    package func appendMembers(to out: inout [UInt8]) {
        let summaries = languages.map { language -> JSONValue in
            var members: [(String, JSONValue)] = [
                ("language", .string(language.language)),
                ("tables", .object(language.tables.sorted { $0.key < $1.key }.map { ($0.key, .integer($0.value)) })),
            ]
            if language.isPseudo { members.append(("pseudo", .bool(true))) }
            return .object(members)
        }
        Self.append([
            ("languages", .array(summaries)), ("selected", .string(orNull: selected)),
            ("developmentLanguage", .string(developmentLanguage)),
        ], to: &out)
    }
}

/// `get`'s answer: the value, the language that had it, and its format rule when it is one.
package struct GetAnswer: AnswerBody {
    /// The value, the rule's plain text for a rule, or the key itself when it was found nowhere.
    package var value: String
    /// The language that had the value; nil when none did.
    package var language: String?
    /// Whether a language had the key (`found`).
    package var isFound: Bool
    /// The key's format rule (a `.stringsdict` entry as a JSON object of the same structure), when it has one.
    package var rule: JSONValue?

    /// An answer.
    package init(value: String, language: String?, isFound: Bool, rule: JSONValue? = nil) {
        self.value = value
        self.language = language
        self.isFound = isFound
        self.rule = rule
    }

    package init(_ fields: AnswerFields) throws(MalformedMessage) {
        let reader = fields.reader("get")
        let rule = reader.optionalMember("rule")
        if let rule, rule.objectMembers == nil { throw reader.wrongType("rule", "an object") }
        self.init(value: try reader.string("value"), language: try reader.optionalString("language"),
                  isFound: try reader.bool("found"), rule: rule)
    }

    package func appendMembers(to out: inout [UInt8]) {
        var members: [(String, JSONValue)] = [
            ("value", .string(value)), ("language", .string(orNull: language)), ("found", .bool(isFound)),
        ]
        if let rule { members.append(("rule", rule)) }
        Self.append(members, to: &out)
    }
}

/// `table`'s answer: every entry of one table in source order, the rules of those that are format rules, and the
/// store's `seq` they reflect.
package struct TableAnswer: AnswerBody {
    /// Every key and value, in source order; a key with a format rule has the rule's plain text here.
    package var entries: [(String, String)]
    /// The canonical language.
    package var language: String
    /// The state the entries reflect.
    package var seq: UInt64
    /// The format rules by key (`rules`, left out when empty).
    package var rules: [(String, JSONValue)]

    /// An answer.
    package init(entries: [(String, String)], language: String, seq: UInt64, rules: [(String, JSONValue)] = []) {
        self.entries = entries
        self.language = language
        self.seq = seq
        self.rules = rules
    }

    package init(_ fields: AnswerFields) throws(MalformedMessage) {
        let reader = fields.reader("table")
        self.init(entries: try reader.pairs("entries"), language: try reader.string("language"),
                  seq: try reader.count("seq"), rules: try reader.rules())
    }

    /// Writes the entries straight from the pairs (no `JSONValue`s): a large table costs one pass.
    ///
    /// - Complexity: O(n) in the size of the entries.
    package func appendMembers(to out: inout [UInt8]) {
        out.reserveCapacity(out.count + JSONWriter.estimatedSize(of: entries) + language.utf8.count + 64)
        out.append(contentsOf: #","entries":"#.utf8)
        JSONWriter.appendStringObject(entries, to: &out)
        out.append(contentsOf: #","language":"#.utf8)
        JSONWriter.appendQuoted(language, to: &out)
        out.append(contentsOf: #","seq":"#.utf8)
        JSONWriter.appendInteger(Int64(seq), to: &out)
        if !rules.isEmpty { Self.append([("rules", .object(rules))], to: &out) }
    }

    /// Answers are equal when their entries and rules are, in order, and their language and seq.
    package static func == (lhs: TableAnswer, rhs: TableAnswer) -> Bool {
        lhs.language == rhs.language && lhs.seq == rhs.seq && pairsEqual(lhs.entries, rhs.entries)
            && JSONValue.object(lhs.rules) == .object(rhs.rules)
    }
}

/// `subscribe`'s answer is where the event stream stands.
extension StreamPosition: AnswerBody {
    package init(_ fields: AnswerFields) throws(MalformedMessage) {
        let reader = fields.reader("subscribe")
        self.init(epoch: try reader.count("epoch"), seq: try reader.count("seq"))
    }

    package func appendMembers(to out: inout [UInt8]) {
        Self.append([("epoch", .integer(epoch)), ("seq", .integer(seq))], to: &out)
    }
}

/// `select-language`'s answer: the language selected now, nil when the selection was cleared.
package struct SelectLanguageAnswer: AnswerBody {
    /// The selected app language as the bundle names it (`de_de` selects `de-DE`), or nil.
    package var selected: String?

    /// An answer.
    package init(selected: String?) {
        self.selected = selected
    }

    package init(_ fields: AnswerFields) throws(MalformedMessage) {
        self.init(selected: try fields.reader("select-language").optionalString("selected"))
    }

    package func appendMembers(to out: inout [UInt8]) {
        Self.append([("selected", .string(orNull: selected))], to: &out)
    }
}
