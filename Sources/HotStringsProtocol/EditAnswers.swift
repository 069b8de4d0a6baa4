import StringsFormat

/// `set`'s and `remove`'s answer: the file written.
package struct EditAnswer: AnswerBody {
    /// The file written, relative to the bundle root (`de.lproj/Localizable.strings`).
    package var file: String

    /// An answer.
    package init(file: String) {
        self.file = file
    }

    package init(_ fields: AnswerFields) throws(MalformedMessage) {
        self.init(file: try fields.reader("edit").string("file"))
    }

    package func appendMembers(to out: inout [UInt8]) {
        Self.append([("file", .string(file))], to: &out)
    }
}

/// `check`'s answer: the file a `set` would write and what is wrong with the value's format specifiers.
package struct CheckAnswer: AnswerBody {
    /// One problem, as `lint` reports it; an error is what `set` refuses.
    package struct Problem: Sendable, Equatable {
        /// `error` or `warning`.
        package var severity: String
        /// What is wrong, `lint`'s message.
        package var message: String

        /// A problem.
        package init(severity: String, message: String) {
            self.severity = severity
            self.message = message
        }
    }

    /// The file a `set` would write, relative to the bundle root.
    package var file: String
    /// The problems, none for a value `set` writes as it is.
    package var problems: [Problem]

    /// An answer.
    package init(file: String, problems: [Problem]) {
        self.file = file
        self.problems = problems
    }

    package init(_ fields: AnswerFields) throws(MalformedMessage) {
        let reader = fields.reader("check")
        self.init(file: try reader.string("file"), problems: try reader.array("problems").map {
            problem throws(MalformedMessage) in
            Problem(severity: try problem.string("severity"), message: try problem.string("message"))
        })
    }

    package func appendMembers(to out: inout [UInt8]) {
        let problems = problems.map { problem -> JSONValue in
            .object([("severity", .string(problem.severity)), ("message", .string(problem.message))])
        }
        Self.append([("file", .string(file)), ("problems", .array(problems))], to: &out)
    }
}

/// `states`' answer: the translation state of each key in each language of a table's String Catalogs, where it is
/// not `translated`.
package struct StatesAnswer: AnswerBody {
    /// The state by key, then by language (written sorted by both).
    package var states: [String: [String: String]]

    /// An answer.
    package init(states: [String: [String: String]]) {
        self.states = states
    }

    package init(_ fields: AnswerFields) throws(MalformedMessage) {
        let reader = fields.reader("states")
        guard let keys = try reader.member("states").objectMembers else {
            throw reader.wrongType("states", "an object of objects of strings")
        }
        var states: [String: [String: String]] = [:]
        for (key, languages) in keys {
            guard let members = languages.objectMembers else {
                throw reader.wrongType("states", "an object of objects of strings")
            }
            for (language, state) in members {
                guard let state = state.stringValue else {
                    throw reader.wrongType("states", "an object of objects of strings")
                }
                states[key, default: [:]][language] = state
            }
        }
        self.init(states: states)
    }

    package func appendMembers(to out: inout [UInt8]) {
        let states: JSONValue = .object(states.sorted { $0.key < $1.key }.map { key, languages in
            (key, .object(languages.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) }))
        })
        Self.append([("states", states)], to: &out)
    }
}

/// `lint`'s answer: the document `hotstrings lint --json` prints, `files` and `summary`, paths relative to the root.
///
/// Its shape is the linter's (`HotStringsLint.LintJSON`, which this module cannot import): the answer carries the
/// document's two members as JSON, for the page to show.
package struct LintAnswer: AnswerBody {
    /// Each file checked, with its diagnostics.
    package var files: [JSONValue]
    /// The counts; null when the report could not be made.
    package var summary: JSONValue

    /// An answer.
    package init(files: [JSONValue], summary: JSONValue) {
        self.files = files
        self.summary = summary
    }

    /// The answer holding `document`, the `lint --json` object (`files`, `summary`); none when it is no such object.
    package init(document: JSONValue) {
        self.init(files: document["files"]?.arrayValue ?? [], summary: document["summary"] ?? .null)
    }

    package init(_ fields: AnswerFields) throws(MalformedMessage) {
        let reader = fields.reader("lint")
        guard let files = try reader.member("files").arrayValue else { throw reader.wrongType("files", "an array") }
        self.init(files: files, summary: reader.optionalMember("summary") ?? .null)
    }

    package func appendMembers(to out: inout [UInt8]) {
        Self.append([("files", .array(files)), ("summary", summary)], to: &out)
    }
}
