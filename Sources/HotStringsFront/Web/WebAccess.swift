/// Who may use the page: the token, the `Host` and the `Origin` checks, applied to every request before it is
/// routed (the page's scripts and styles included).
///
/// - The token comes once in the query (`?token=`; answered by a cookie, `HttpOnly; SameSite=Strict`, and a
///   303 to the same URL without it), in that cookie, or as `Authorization: Bearer TOKEN` (scripts).
/// - `Host` must be `127.0.0.1:PORT`, `localhost:PORT` or `[::1]:PORT`: a DNS-rebound name is refused.
/// - A state-changing request with an `Origin` other than the page's own is refused, and so is one that only
///   the cookie authenticates and that has no `Origin` (browsers send one on a `POST`; scripts use the bearer
///   header). No CORS header is ever sent.
struct WebAccess: Sendable {
    /// The secret every request must prove.
    let token: String
    /// The port the server listens on, as `Host` and `Origin` must name it.
    let port: UInt16

    /// What a request may do.
    enum Verdict: Equatable {
        /// Authenticated and from the page's origin: route it.
        case allowed
        /// The token was in the query: set the cookie and send the browser to `location`.
        case redirect(location: String, cookie: String)
        /// Refused with 403; the reason is logged.
        case refused(String)
    }

    /// The name of the cookie (with the port: cookies are shared by every port of a host).
    var cookieName: String { "hotstrings-\(port)" }

    /// The hosts the page answers to.
    var hosts: [String] { ["127.0.0.1:\(port)", "localhost:\(port)", "[::1]:\(port)"] }

    /// Judges `head`.
    func check(_ head: HTTPRequestHead) -> Verdict {
        guard let host = head.header("host") else { return .refused("no Host header") }
        guard hosts.contains(host.lowercased()) else { return .refused("Host \(host)") }
        let origin = head.header("origin")
        if head.isStateChanging, let origin, !hosts.contains(where: { "http://" + $0 == origin.lowercased() }) {
            return .refused("\(head.method) from Origin \(origin)")
        }
        if let authorization = head.header("authorization") {
            guard authorization.hasPrefix("Bearer "), Self.matches(String(authorization.dropFirst(7)), token) else {
                return .refused("a wrong bearer token")
            }
            return .allowed
        }
        if let queryToken = head.parameter("token") {
            guard Self.matches(queryToken, token) else { return .refused("a wrong token in the query") }
            guard !head.isStateChanging else { return .refused("a token in the query of a \(head.method)") }
            let rest = head.query.filter { $0.name != "token" }
            let location = Self.redirectPath(head.rawPath) + (rest.isEmpty ? "" : "?" + rest.map {
                "\(Self.escaped($0.name))=" + Self.escaped($0.value) }.joined(separator: "&"))
            return .redirect(location: location,
                             cookie: "\(cookieName)=\(token); HttpOnly; SameSite=Strict; Path=/")
        }
        guard let cookie = cookieValue(head) else { return .refused("no token") }
        guard Self.matches(cookie, token) else { return .refused("a wrong token in the cookie") }
        if head.isStateChanging, origin == nil { return .refused("\(head.method) by cookie without Origin") }
        return .allowed
    }

    /// The value of this server's cookie in `Cookie`, if any.
    private func cookieValue(_ head: HTTPRequestHead) -> String? {
        let headers = head.headers.filter { $0.name == "cookie" }
        for header in headers {
            for pair in header.value.split(separator: ";") {
                let trimmed = pair.drop { $0 == " " }
                guard let equals = trimmed.firstIndex(of: "="), trimmed[..<equals] == cookieName else { continue }
                return String(trimmed[trimmed.index(after: equals)...])
            }
        }
        return nil
    }

    /// Compares in time that depends only on the expected token's length, not on where the texts differ.
    static func matches(_ given: String, _ expected: String) -> Bool {
        let given = Array(given.utf8)
        let expected = Array(expected.utf8)
        var difference = UInt8(given.count == expected.count ? 0 : 1)
        for index in expected.indices {
            difference |= expected[index] ^ (index < given.count ? given[index] : 0)
        }
        return difference == 0
    }

    /// Where the token's redirect sends the browser: the path as it was sent (`rawPath`, still percent-encoded, so
    /// `/x%0d%0a…` stays those bytes and `/%2Fevil.example/` stays one path on this origin) when it is an absolute
    /// path of RFC 3986's characters that a browser resolves on this origin; else `/`. So `//evil.example/` (a
    /// protocol-relative URL), `/\evil.example/` (a browser reads `\` as `/`) and any control character are
    /// never what `Location` says.
    static func redirectPath(_ rawPath: String) -> String {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~%!$&'()*+,;=:@/".utf8)
        guard rawPath.hasPrefix("/"), !rawPath.hasPrefix("//"), rawPath.utf8.allSatisfy(allowed.contains) else {
            return "/"
        }
        return rawPath
    }

    /// Percent-escapes everything but unreserved characters, for the redirect's query.
    static func escaped(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            let scalar = Unicode.Scalar(byte)
            if (byte < 128 && (Character(scalar).isLetter || Character(scalar).isNumber)) || "-._~".utf8.contains(byte) {
                out.unicodeScalars.append(scalar)
            } else {
                out += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            }
        }
        return out
    }
}
