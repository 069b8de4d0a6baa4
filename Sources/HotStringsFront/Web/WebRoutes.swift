import HotStringsProtocol
import HotStringsService
import StringsFormat

/// What the page's server does with a call the core answers.
enum WebCall: Sendable {
    /// The socket's answer is the body.
    case answer
    /// The `languages` answer, turned into the list of tables and their languages.
    case tables
}

/// The page's URLs (docs/WEB.md): the page and its script and style from the binary, and the JSON API, each
/// call the same request the socket takes, handed to the same `ProtocolService`.
enum WebRoutes {
    /// What a request leads to.
    enum Route {
        /// An answer made here.
        case respond(HTTPResponse)
        /// A request for the core, made for the connection's client ID.
        case call(WebCall, @Sendable (ClientID) -> ServiceInput)
        /// An event stream.
        case events
    }

    /// Routes an authenticated request.
    static func route(_ head: HTTPRequestHead, _ body: [UInt8]) -> Route {
        let isGet = head.method == "GET"
        switch (head.path, isGet) {
        case ("/", true): return .respond(WebPage.page)
        case ("/app.js", true): return .respond(WebPage.script)
        case ("/app.css", true): return .respond(WebPage.style)
        case ("/api/languages", true): return request(.answer, .languages)
        case ("/api/tables", true): return request(.tables, .languages)
        case ("/api/status", true): return request(.answer, .status)
        case ("/api/table", true):
            guard let language = head.parameter("language") else {
                return .respond(.text(.badRequest, "language is required"))
            }
            return request(.answer, .table(language: language, table: head.parameter("table") ?? "Localizable"))
        case ("/api/get", true):
            guard let key = head.parameter("key") else { return .respond(.text(.badRequest, "key is required")) }
            let languages = head.query.filter { $0.name == "language" }.map(\.value)
            return request(.answer, .get(key: key, table: head.parameter("table") ?? "Localizable",
                                         languages: languages))
        case ("/api/missing", true):
            return request(.answer, .missing(language: head.parameter("language"), table: head.parameter("table")))
        case ("/api/lint", true): return request(.answer, .lint)
        case ("/api/states", true):
            return request(.answer, .states(table: head.parameter("table") ?? "Localizable"))
        case ("/api/events", true): return .events
        case ("/api/set", false) where head.method == "POST": return operation("set", body)
        case ("/api/remove", false) where head.method == "POST": return operation("remove", body)
        case ("/api/check", false) where head.method == "POST": return operation("check", body)
        case ("/", _), ("/app.js", _), ("/app.css", _), ("/api/languages", _), ("/api/tables", _), ("/api/table", _),
             ("/api/status", _), ("/api/get", _), ("/api/missing", _), ("/api/events", _), ("/api/set", _),
             ("/api/remove", _), ("/api/check", _), ("/api/states", _), ("/api/lint", _):
            return .respond(.text(.methodNotAllowed, "method not allowed"))
        default:
            return .respond(.text(.notFound, "not found"))
        }
    }

    private static func request(_ call: WebCall, _ request: Request) -> Route {
        .call(call) { .request($0, nil, request) }
    }

    /// A JSON object body with `op` set: the socket's request line, decoded by the socket's decoder.
    private static func operation(_ op: String, _ body: [UInt8]) -> Route {
        guard case .object(let members)? = try? JSONValue(parsing: body) else {
            return .respond(.text(.badRequest, "the body must be a JSON object"))
        }
        let line = JSONValue.object([("op", .string(op))] + members.filter { $0.0 != "op" && $0.0 != "id" })
            .serialized()
        return .call(.answer) { .requestLine($0, line) }
    }

    /// The HTTP answer for the core's answer line: 200 with the line when `ok`, else the status its error code
    /// maps to, with the line (`{"ok":false,"error":{"code","message"}}`) as the body.
    static func response(to call: WebCall, answer line: [UInt8]) -> HTTPResponse {
        let message = try? ServerMessage.decode(line.last == 0x0A ? line.dropLast() : line[...])
        guard case .response(_, let result)? = message else { return .text(.internalError, "an unreadable answer") }
        let fields: AnswerFields
        switch result {
        case .success(let received): fields = received
        case .failure(let error): return .json(status(forCode: error.code), line)
        }
        switch call {
        case .answer:
            return .json(.ok, line)
        case .tables:
            guard let languages = try? LanguagesAnswer(fields) else {
                return .text(.internalError, "an unreadable answer")
            }
            return .json(.ok, TableList(languages).body)
        }
    }

    private static func status(forCode code: ProtocolError.Code) -> HTTPStatus {
        switch code {
        case .notFound: .notFound
        case .unsupportedLanguage: .unprocessable
        case .tooLarge: .contentTooLarge
        case .internal: .internalError
        case .busy: .unavailable
        case .badRequest, .unknownOp: .badRequest
        }
    }
}
