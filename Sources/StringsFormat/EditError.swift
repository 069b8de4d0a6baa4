/// Why a localization file could not be edited.
///
/// A struct with a `code`, like the project's other public errors, so new kinds of failure can be added
/// without breaking a caller's `switch`. `description` is one line for a terminal or a log.
public struct EditError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure this is. New codes may be added in any release.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        /// The codes this release knows; private, so adding one breaks no `switch` outside this module.
        private enum Known: String, Sendable, Hashable {
            case noSuchKey, unreadable, cannotEdit, ambiguousVariable, invalidValue
        }

        private let known: Known

        private init(_ known: Known) { self.known = known }

        /// The key (or the form, or the language of a catalog key) is not in the file.
        public static let noSuchKey = Code(.noSuchKey)
        /// The file does not parse; `parseError` says where.
        public static let unreadable = Code(.unreadable)
        /// The file parses but cannot be edited in place, such as a compiled binary property list.
        public static let cannotEdit = Code(.cannotEdit)
        /// A `.stringsdict` entry has more than one variable and none was named; `variables` lists them.
        public static let ambiguousVariable = Code(.ambiguousVariable)
        /// The key, value, form or variable cannot be written: empty key, a NUL character, an unknown form.
        public static let invalidValue = Code(.invalidValue)

        /// The code's name: `noSuchKey`.
        public var description: String { known.rawValue }
    }

    /// What kind of failure this is.
    public var code: Code
    /// What went wrong, in one sentence without a trailing period.
    public var message: String
    /// For `.unreadable`: where the file stopped parsing.
    public var parseError: ParseError?
    /// For `.ambiguousVariable`: the entry's variable names, in file order.
    public var variables: [String]?

    /// Creates an error of `code` saying `message`.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The file is not readable: `error` says where.
    public static func unreadable(_ error: ParseError) -> EditError {
        var result = EditError(.unreadable, "the file does not parse: \(error)")
        result.parseError = error
        return result
    }

    /// `key` is not in the file.
    static func noSuchKey(_ key: String) -> EditError {
        EditError(.noSuchKey, "no entry for the key '\(DisplayText.escaped(key, limit: 60))'")
    }

    /// The entry `key` has several variables; one of `names` must be chosen.
    static func ambiguousVariable(_ key: String, _ names: [String]) -> EditError {
        var result = EditError(.ambiguousVariable, "the entry '\(DisplayText.escaped(key, limit: 60))' has the "
                               + "variables \(names.joined(separator: ", ")); name one")
        result.variables = names
        return result
    }

    /// `code: message`.
    public var description: String { "\(code): \(message)" }
}
