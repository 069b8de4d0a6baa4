@testable import HotStringsFront
import Testing

/// The page's request parser and access rules, in memory.
struct WebAccessTests {
    private func head(_ text: String) -> HTTPRequestHead? {
        if case .head(let head, _) = HTTPRequestHead.parse(Array(text.utf8), limit: 8192) { return head }
        return nil
    }

    private func refusal(_ text: String) -> Int? {
        if case .refused(let status, _) = HTTPRequestHead.parse(Array(text.utf8), limit: 8192) { return status.code }
        return nil
    }

    @Test func theParserIsStrict() {
        let parsed = head("GET /api/table?table=A%20B&language=de+CH HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\n")
        #expect(parsed?.path == "/api/table")
        #expect(parsed?.parameter("table") == "A B")
        #expect(parsed?.parameter("language") == "de CH")
        #expect(parsed?.contentLength == 3)
        #expect(parsed?.keepsAlive == true)
        #expect(head("GET / HTTP/1.1\r\nConnection: close\r\n\r\n")?.keepsAlive == false)
        #expect(head("GET / HTTP/1.0\r\n\r\n")?.keepsAlive == false)
        if case .incomplete = HTTPRequestHead.parse(Array("GET / HTTP/1.1\r\nHost: x\r\n".utf8), limit: 8192) {
        } else {
            Issue.record("a head without its blank line is incomplete")
        }
        #expect(refusal("GET / HTTP/1.1\r\nX: " + String(repeating: "a", count: 9000)) == 431)
        #expect(refusal("GET http://x/ HTTP/1.1\r\n\r\n") == 400)
        #expect(refusal("GET / HTTP/2.0\r\n\r\n") == 505)
        #expect(refusal("GET / HTTP/1.1\r\n folded\r\n\r\n") == 400)
        #expect(refusal("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n") == 400)
        #expect(refusal("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n") == 411)
        #expect(refusal("POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n") == 400)
        #expect(refusal("GET /%zz HTTP/1.1\r\n\r\n") == 400)
        #expect(refusal("GET / HTTP/1.1\r\nX: a\u{1}b\r\n\r\n") == 400)
    }

    @Test func accessNeedsTheTokenAHostOfItsOwnAndAnOriginForCookiePosts() throws {
        let token = String(repeating: "ab", count: 32)
        let access = WebAccess(token: token, port: 8080)
        func verdict(_ text: String) throws -> WebAccess.Verdict {
            access.check(try #require(head(text + "\r\n")))
        }
        let host = "Host: localhost:8080\r\n"
        #expect(try verdict("GET / HTTP/1.1\r\n\(host)Authorization: Bearer \(token)\r\n") == .allowed)
        #expect(try verdict("GET / HTTP/1.1\r\nHost: [::1]:8080\r\nCookie: a=b; hotstrings-8080=\(token)\r\n")
            == .allowed)
        #expect(try verdict("GET /?token=\(token)&x=a%26b HTTP/1.1\r\n\(host)") == .redirect(
            location: "/?x=a%26b", cookie: "hotstrings-8080=\(token); HttpOnly; SameSite=Strict; Path=/"))
        let refused: [String] = [
            "GET / HTTP/1.1\r\n\(host)",
            "GET / HTTP/1.1\r\nAuthorization: Bearer \(token)\r\n",
            "GET / HTTP/1.1\r\nHost: attacker.example:8080\r\nAuthorization: Bearer \(token)\r\n",
            "GET / HTTP/1.1\r\n\(host)Authorization: Bearer \(token.dropLast())\r\n",
            "GET / HTTP/1.1\r\n\(host)Cookie: hotstrings-8081=\(token)\r\n",
            "POST /api/set HTTP/1.1\r\n\(host)Cookie: hotstrings-8080=\(token)\r\n",
            "POST /api/set HTTP/1.1\r\n\(host)Authorization: Bearer \(token)\r\nOrigin: http://localhost:9\r\n",
            "POST /api/set?token=\(token) HTTP/1.1\r\n\(host)Origin: http://localhost:8080\r\n",
        ]
        for text in refused {
            guard case .refused = try verdict(text) else {
                Issue.record("allowed: \(text)")
                continue
            }
        }
        #expect(try verdict("POST /api/set HTTP/1.1\r\n\(host)Cookie: hotstrings-8080=\(token)\r\n"
            + "Origin: http://localhost:8080\r\n") == .allowed)
        #expect(WebAccess.matches(token, token))
        #expect(!WebAccess.matches(token + "a", token))
        #expect(!WebAccess.matches("", token))
    }

    /// The token's redirect builds `Location` from the path as sent, checked: percent-escapes stay escapes (no
    /// header can be injected), and a path a browser would resolve off this origin becomes `/`.
    @Test(arguments: [
        ("/x%0d%0aSet-Cookie:%20a=1?token=T", "/x%0d%0aSet-Cookie:%20a=1"),
        ("//evil.example/?token=T", "/"),
        ("///evil.example/?token=T", "/"),
        ("/%2Fevil.example/?token=T", "/%2Fevil.example/"),
        ("/\\evil.example/?token=T", "/"),
        ("/%5Cevil.example/?token=T", "/%5Cevil.example/"),
        ("/a/b;c=d@e?token=T&table=A%20B", "/a/b;c=d@e?table=A%20B"),
        ("/?token=T&x=%0d%0aX:%201", "/?x=%0D%0AX%3A%201"),
        ("/?token=T", "/"),
    ])
    func theTokensRedirectStaysOnThisOriginAndSplitsNoHeader(target: String, location: String) throws {
        let token = String(repeating: "ab", count: 32)
        let access = WebAccess(token: token, port: 8080)
        let parsed = try #require(head("GET \(target.replacingOccurrences(of: "=T", with: "=" + token)) HTTP/1.1\r\n"
            + "Host: 127.0.0.1:8080\r\n\r\n"))
        guard case .redirect(let given, let cookie) = access.check(parsed) else {
            Issue.record("no redirect for \(target)")
            return
        }
        #expect(given == location)
        var response = HTTPResponse.text(.seeOther, "see \(given)")
        response.extraHeaders = [("Location", given), ("Set-Cookie", cookie)]
        let lines = String(decoding: response.serialized(keepsAlive: true), as: UTF8.self)
            .components(separatedBy: "\r\n")
        #expect(lines.contains("Location: \(location)"))
        #expect(lines.filter { $0.lowercased().hasPrefix("set-cookie:") } == ["Set-Cookie: \(cookie)"])
    }

    /// However a header's value was made, a control character never reaches the wire: the header is left out.
    @Test func aHeaderValueWithAControlCharacterIsNeverWritten() {
        var response = HTTPResponse.text(.ok, "x")
        response.extraHeaders = [("Location", "/a\r\nSet-Cookie: b=1"), ("X-Tab", "a\tb"), ("Set-Cookie", "c=1")]
        let head = String(decoding: response.serialized(keepsAlive: false), as: UTF8.self)
        #expect(!head.contains("b=1") && !head.contains("Location") && !head.contains("X-Tab"))
        #expect(head.contains("\r\nSet-Cookie: c=1\r\n"))
    }
}
