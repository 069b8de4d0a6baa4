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
}
