/// The statuses the page's server answers with.
struct HTTPStatus: Sendable, Equatable {
    var code: Int
    var reason: String

    static let ok = HTTPStatus(code: 200, reason: "OK")
    static let seeOther = HTTPStatus(code: 303, reason: "See Other")
    static let badRequest = HTTPStatus(code: 400, reason: "Bad Request")
    static let forbidden = HTTPStatus(code: 403, reason: "Forbidden")
    static let notFound = HTTPStatus(code: 404, reason: "Not Found")
    static let methodNotAllowed = HTTPStatus(code: 405, reason: "Method Not Allowed")
    static let requestTimeout = HTTPStatus(code: 408, reason: "Request Timeout")
    static let lengthRequired = HTTPStatus(code: 411, reason: "Length Required")
    static let contentTooLarge = HTTPStatus(code: 413, reason: "Content Too Large")
    static let unprocessable = HTTPStatus(code: 422, reason: "Unprocessable Content")
    static let headerFieldsTooLarge = HTTPStatus(code: 431, reason: "Request Header Fields Too Large")
    static let internalError = HTTPStatus(code: 500, reason: "Internal Server Error")
    static let unavailable = HTTPStatus(code: 503, reason: "Service Unavailable")
    static let versionNotSupported = HTTPStatus(code: 505, reason: "HTTP Version Not Supported")
}

/// One answer of the page's server, rendered with the headers every answer carries.
struct HTTPResponse: Sendable {
    var status: HTTPStatus
    var contentType: String
    var body: [UInt8]
    /// Headers besides the ones every answer gets (`Location`, `Set-Cookie`).
    var extraHeaders: [(String, String)] = []

    /// Headers on every answer: no sniffing, scripts and styles only from the daemon, no framing, no caching
    /// (the token's cookie and live values must not be kept by a cache), no referrer (the page's URL may hold
    /// the token until the redirect).
    static let securityHeaders: [(String, String)] = [
        ("X-Content-Type-Options", "nosniff"),
        ("Content-Security-Policy", "default-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"),
        ("X-Frame-Options", "DENY"),
        ("Referrer-Policy", "no-referrer"),
        ("Cache-Control", "no-store"),
    ]

    /// A plain-text answer (refusals and errors).
    static func text(_ status: HTTPStatus, _ message: String) -> HTTPResponse {
        HTTPResponse(status: status, contentType: "text/plain; charset=utf-8", body: Array((message + "\n").utf8))
    }

    /// A JSON answer.
    static func json(_ status: HTTPStatus, _ body: [UInt8]) -> HTTPResponse {
        HTTPResponse(status: status, contentType: "application/json", body: body)
    }

    /// The bytes on the wire; `Connection: close` unless `keepsAlive`. A header whose value holds a control
    /// character is left out rather than written (none should: `Location` is built from a checked path, the
    /// others are constants, numbers and the hexadecimal token), so no value can split the head.
    func serialized(keepsAlive: Bool) -> [UInt8] {
        var head = "HTTP/1.1 \(status.code) \(status.reason)\r\nContent-Type: \(contentType)\r\n"
            + "Content-Length: \(body.count)\r\n"
        for (name, value) in Self.securityHeaders + extraHeaders
            where !value.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            head += "\(name): \(value)\r\n"
        }
        head += keepsAlive ? "\r\n" : "Connection: close\r\n\r\n"
        return Array(head.utf8) + body
    }

    /// The head of a Server-Sent Events stream (no length: it lasts as long as the connection).
    static func eventStreamHead() -> [UInt8] {
        var head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
        for (name, value) in securityHeaders { head += "\(name): \(value)\r\n" }
        return Array((head + "\r\n: subscribed\n\n").utf8)
    }
}
