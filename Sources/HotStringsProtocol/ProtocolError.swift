import StringsFormat

/// A request's client-chosen identifier, echoed verbatim in its response.
package enum RequestID: Sendable, Hashable, CustomStringConvertible {
    /// An integer id, e.g. `1`.
    case number(Int64)
    /// A string id, e.g. `"a7"`.
    case string(String)

    /// The id as JSON.
    package var json: JSONValue {
        switch self {
        case .number(let value): .number(value)
        case .string(let value): .string(value)
        }
    }

    /// The id as JSON text, e.g. `1` or `"a7"`.
    package var description: String { json.description }
}

/// An error response: a code from the fixed list and a message saying exactly what is wrong.
package struct ProtocolError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The machine-readable error codes of protocol version 1.
    package enum Code: String, Sendable, Hashable, CaseIterable {
        /// The request is not valid JSON, not an object, or has a missing or mistyped field.
        case badRequest = "bad_request"
        /// The `op` is not one this server knows.
        case unknownOp = "unknown_op"
        /// The table or language asked for does not exist.
        case notFound = "not_found"
        /// `select-language` named a language the bundle does not have; `available` lists those it has.
        case unsupportedLanguage = "unsupported_language"
        /// The request line is longer than 64 KiB; the server closes the connection after saying so.
        case tooLarge = "too_large"
        /// The server failed; the message says how.
        case `internal` = "internal"
        /// `set` or `remove` found the language folder locked by another process until its deadline; nothing was
        /// written, and the same request may be sent again.
        case busy = "busy"
    }

    /// The error code.
    package var code: Code
    /// What is wrong, for people: "missing field 'key'".
    package var message: String
    /// For `unsupported_language`: the languages that are available.
    package var available: [String]?

    /// Creates an error.
    package init(_ code: Code, _ message: String, available: [String]? = nil) {
        self.code = code
        self.message = message
        self.available = available
    }

    /// "code: message".
    package var description: String { "\(code.rawValue): \(message)" }

    /// A `bad_request` error.
    package static func badRequest(_ message: String) -> ProtocolError {
        ProtocolError(.badRequest, message)
    }

    /// The `unknown_op` error for `op`: "unknown op 'frobnicate'".
    package static func unknownOp(_ op: String) -> ProtocolError {
        ProtocolError(.unknownOp, "unknown op '\(op)'")
    }

    /// A `not_found` error.
    package static func notFound(_ message: String) -> ProtocolError {
        ProtocolError(.notFound, message)
    }

    /// The `unsupported_language` error for `language`, listing the `available` languages.
    package static func unsupportedLanguage(_ language: String, available: [String]) -> ProtocolError {
        ProtocolError(.unsupportedLanguage, "unsupported language '\(language)'", available: available)
    }

    /// The `too_large` error for a line over `limit` bytes.
    package static func tooLarge(limit: Int = LineFramer.maximumLineLength) -> ProtocolError {
        ProtocolError(.tooLarge, "request line longer than \(limit) bytes")
    }

    /// An `internal` error.
    package static func `internal`(_ message: String) -> ProtocolError {
        ProtocolError(.internal, message)
    }
}
