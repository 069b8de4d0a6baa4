@testable import HotStringsFront
import Testing

/// The page's HTTP on the I/O loop over fake sockets: requests one at a time with pipelining, refusals and their
/// linger, the timeouts on the harness's clock, the cap on connections, event streams and their overflow rule.
struct IOLoopPageTests {
    /// An HTTP answer as the client reads it.
    struct Response: Equatable {
        var status: Int
        var head: String
        var body: String
    }

    /// The answers in what the loop wrote to `client` (each whole: a length, or the rest for an event stream).
    static func responses(_ harness: LoopHarness, _ client: LoopHarness.Client) -> [Response] {
        var text = String(decoding: harness.io.read(client.fd), as: UTF8.self)[...]
        var responses: [Response] = []
        while let end = text.range(of: "\r\n\r\n") {
            let head = String(text[..<end.lowerBound])
            text = text[end.upperBound...]
            let status = Int(head.split(separator: " ")[1]) ?? 0
            let length = head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length: ") }
                .flatMap { Int($0.dropFirst("content-length: ".count)) } ?? text.utf8.count
            let body = String(text.utf8.prefix(length))!
            text = text.dropFirst(body.count)
            responses.append(Response(status: status, head: head, body: body))
        }
        return responses
    }

    /// A request from the page's script, with the bearer token.
    static func request(_ path: String, method: String = "GET", headers: [String] = [], body: String = "") -> String {
        var text = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(LoopHarness.port)\r\n"
            + "Authorization: Bearer \(LoopHarness.token)\r\n"
        for header in headers { text += header + "\r\n" }
        if !body.isEmpty { text += "Content-Length: \(body.utf8.count)\r\n" }
        return text + "\r\n" + body
    }

    /// Two requests sent at once: the first goes to the core and the second waits until it is answered; each
    /// answer is the core's line as the body. A page's requests are not counted in the core's backlog.
    @Test func pipelinedRequestsAreAnsweredOneAtATimeInOrder() throws {
        let harness = try LoopHarness(servesPage: true)
        let client = try #require(harness.connectToPage())
        harness.send(client, bytes: Array((Self.request("/api/status") + Self.request("/api/lint")).utf8))
        harness.settle()
        #expect(harness.reports == [.typedRequest(client.id, "status")])
        #expect(harness.io.interest(of: client.fd) == [], "not read while its request is with the core")
        #expect(harness.state.coreInFlight == 0)
        harness.answer(client.id, line(#"{"ok":true,"status":1}"#))
        harness.settle()
        #expect(harness.reports.last == .typedRequest(client.id, "lint"))
        harness.answer(client.id, line(#"{"ok":true,"lint":2}"#))
        harness.settle()
        let answers = Self.responses(harness, client)
        #expect(answers.map(\.status) == [200, 200])
        #expect(answers.map(\.body) == [#"{"ok":true,"status":1}"# + "\n", #"{"ok":true,"lint":2}"# + "\n"])
        #expect(!harness.isClosed(client), "kept alive")
    }

    /// What the page serves itself is answered in the pass that read the request; a refused request (no token) is
    /// 403 and the connection kept; a malformed one is 400, then the writing side is shut, the rest of the input
    /// dropped, and the connection closed when the client closes (lingering).
    @Test func answersMadeHereAndRefusals() throws {
        let harness = try LoopHarness(servesPage: true)
        let client = try #require(harness.connectToPage())
        harness.send(client, bytes: Array(Self.request("/app.css").utf8))
        harness.turn()
        #expect(Self.responses(harness, client).map(\.status) == [200])
        harness.send(client, bytes: Array("GET /api/status HTTP/1.1\r\nHost: 127.0.0.1:\(LoopHarness.port)\r\n\r\n".utf8))
        harness.settle()
        #expect(Self.responses(harness, client).map(\.status) == [403])
        #expect(harness.reports.isEmpty, "nothing reached the core")

        harness.send(client, bytes: Array("NOT HTTP\r\n\r\n".utf8))
        harness.settle()
        let refused = Self.responses(harness, client)
        #expect(refused.map(\.status) == [400])
        #expect(refused.first?.head.contains("Connection: close") == true)
        #expect(harness.io.socket(client.fd)?.loopShutWrite == true)
        #expect(!harness.isClosed(client), "lingering")
        harness.send(client, bytes: Array("more that is dropped".utf8))
        harness.settle()
        #expect(harness.io.read(client.fd).isEmpty)
        harness.io.shutdownClientWrite(client.fd)
        harness.settle()
        #expect(harness.isClosed(client) && harness.hasReported(.closed(client.id)))
    }

    /// The page's timeouts, on the loop's clock: a request not whole within `requestTimeout` gets 408 and is closed
    /// (after lingering); an idle connection is closed after `idleTimeout`; the wait in between is as long as the next
    /// deadline.
    @Test func slowRequestsAndIdleConnectionsTimeOut() throws {
        let harness = try LoopHarness(servesPage: true)
        let limits = try #require(harness.page?.limits)
        let idle = try #require(harness.connectToPage())
        harness.advance(by: .seconds(1))
        let slow = try #require(harness.connectToPage())
        harness.send(slow, bytes: Array("GET /api/status HTTP/1.1\r\nHost: 127".utf8))
        harness.settle()
        harness.turn()
        #expect(harness.io.lastTimeout == .some(limits.requestTimeout), "the wait ends at the slow request's deadline")

        harness.advance(by: limits.requestTimeout)
        harness.settle()
        #expect(Self.responses(harness, slow).map(\.status) == [408])
        #expect(harness.io.socket(slow.fd)?.loopShutWrite == true)
        harness.advance(by: limits.lingerTimeout)
        harness.settle()
        #expect(harness.isClosed(slow), "closed once its linger is over")
        #expect(!harness.isClosed(idle))

        harness.advance(by: limits.idleTimeout - limits.requestTimeout - limits.lingerTimeout)
        harness.settle()
        #expect(harness.isClosed(idle) && harness.hasReported(.closed(idle.id)))
    }

    /// At the cap on the page's connections, a new one closes the one waiting longest; when none may be closed (their
    /// requests are with the core), the new one is.
    @Test func atTheCapTheConnectionIdleLongestMakesRoom() throws {
        var limits = WebServer.Limits()
        limits.connections = 2
        let harness = try LoopHarness(servesPage: true, pageLimits: limits)
        let oldest = try #require(harness.connectToPage())
        harness.advance(by: .seconds(1))
        let newer = try #require(harness.connectToPage())
        harness.advance(by: .seconds(1))
        let third = try #require(harness.connectToPage())
        #expect(harness.isClosed(oldest) && !harness.isClosed(newer) && !harness.isClosed(third))

        for client in [newer, third] { harness.send(client, bytes: Array(Self.request("/api/status").utf8)) }
        harness.settle()
        #expect(harness.connectToPage() == nil, "no room: the new one is closed")
        #expect(!harness.isClosed(newer) && !harness.isClosed(third))
    }

    /// An event stream: its subscription goes to the core, its answer opens the stream, events follow as Server-Sent
    /// Events; a stream whose unsent events pass the cap is closed (the outbox's rule), and past the cap on streams a
    /// new one is refused with 503.
    @Test func eventStreams() throws {
        var limits = WebServer.Limits()
        limits.eventStreams = 1
        limits.eventBytes = 1 << 10
        let harness = try LoopHarness(servesPage: true, pageLimits: limits)
        let stream = try #require(harness.connectToPage())
        harness.send(stream, bytes: Array(Self.request("/api/events").utf8))
        harness.settle()
        #expect(harness.reports.first.map { if case .typedRequest(stream.id, let request) = $0 {
            request.contains("subscribe") } else { false } } == true)
        harness.answer(stream.id, line(#"{"id":null,"ok":true}"#))
        harness.broadcast(line(#"{"event":"reload","seq":1}"#), to: [stream.id])
        harness.settle()
        let opened = String(decoding: harness.io.read(stream.fd), as: UTF8.self)
        #expect(opened.hasPrefix("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"))
        #expect(opened.hasSuffix("\r\n\r\n: subscribed\n\ndata: {\"event\":\"reload\",\"seq\":1}\n\n"))

        let refused = try #require(harness.connectToPage())
        harness.send(refused, bytes: Array(Self.request("/api/events").utf8))
        harness.settle()
        #expect(Self.responses(harness, refused).map(\.status) == [503])

        harness.io.setCapacity(0, of: stream.fd)
        for seq in 2...3 {
            harness.broadcast(paddedLine("{\"seq\":\(seq)}", size: 600), to: [stream.id])
            harness.settle()
        }
        #expect(harness.isClosed(stream) && harness.hasReported(.closed(stream.id)))
        #expect(harness.state.context.eventStreams == 0)
    }
}
