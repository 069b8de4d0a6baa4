import Foundation
import Glibc
import HotStringsTestSupport
import Testing

/// `examples/greeting-server` against what a hostile or careless client sends: queries that crashed its parser,
/// clients that connect and stall, and many random and malformed requests. Each is answered with a status (or
/// closed at its deadline), and the server keeps answering everyone else.
@Suite struct GreetingServerProbeTests {
    typealias Server = GreetingServerTests.Server

    /// A raw request on a connection of its own, its writing side then shut (so a request that never ends its head
    /// ends its connection): the status the server answers with.
    static func send(_ bytes: [UInt8], port: UInt16) throws -> Int {
        let client = try WebClient(port: port, timeout: .seconds(30))
        client.send(bytes)
        shutdown(client.fd, Int32(SHUT_WR))
        return try client.response().status
    }

    /// `GET /?=` and its kin took the server down with an index out of range (main.swift:35).
    @Test(arguments: ["/?=", "/?&=&", "/?=&=", "/?count=", "/?&&&", "/?==", "/?count==3&=x"])
    func emptyQueryNamesAndValuesAreAnswered(target: String) throws {
        let server = try Server()
        let page = try server.get(target, acceptLanguage: "de")
        #expect(page.status == 200)
        #expect(page.text.hasSuffix("Hallo!\n1 Eintrag\nWillkommen bei HotStrings\n"), "\(page.text)")
        #expect(server.process.isRunning)
        let english = try server.get("/?count=2", acceptLanguage: nil)
        #expect(english.text.hasSuffix("Hello!\n2 items\nWelcome to HotStrings\n"))
    }

    /// 100 connections that send a request line and stop held every thread the server had, and nobody was answered
    /// again. Now they wait in one `poll` until their deadline (408) while others are answered.
    @Test func clientsThatStallDoNotStopTheOthers() throws {
        let server = try Server()
        let stalled = try (0..<100).map { _ in
            let client = try WebClient(port: server.port, timeout: .seconds(60))
            client.send("GET / HTTP/1.1\r\n")
            return client
        }
        for language in ["de", "fr", "en"] {
            let page = try server.get("/?count=3", acceptLanguage: language)
            #expect(page.status == 200 && page.text.hasPrefix("language: \(language)\n"), "\(page.text)")
        }
        // Not one thread each: the server is answering while all of them still wait for their deadline.
        let threads = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(server.process.pid)/task").count
        #expect(threads < 50, "\(threads) threads")
        for client in stalled {
            let answer = try client.response()
            #expect(answer.status == 408, "\(answer.text)")
            #expect(client.isClosedByServer())
        }
        #expect(try server.get("/", acceptLanguage: "fr").status == 200)
    }

    /// Many random and malformed requests (a seeded generator: the seed is in the failure's message): every one is
    /// answered with a status, the server never stops, and a good request after them is answered as before.
    @Test func randomAndMalformedRequestsAreEachAnsweredAndTheServerLives() throws {
        let server = try Server()
        var random = SplitMix64(seed: UInt64.random(in: 0 ... .max))
        let seed = random.seed
        func draw(_ bound: Int) -> Int { random.number(below: bound) }
        let good = Array("GET /?count=3&slow=0 HTTP/1.1\r\nHost: x\r\nAccept-Language: de-CH, fr;q=0.8\r\n\r\n".utf8)
        let pieces: [[UInt8]] = ["?", "=", "&", "%", "%zz", " ", "\r", "\n", "\r\n", "\r\n\r\n", "\0", "\u{7F}", ":",
                                 "/", "#", "GET", "HTTP/1.1", "Accept-Language:", ";q=", "ü", "\u{202E}"]
            .map { Array($0.utf8) } + [[0xFF], [0xC3], Array(repeating: UInt8(ascii: "a"), count: 9000)]
        var statuses: [Int: Int] = [:]
        for index in 0..<400 {
            var request = good
            switch index % 4 {
            case 0:   // pieces inserted anywhere
                for _ in 0..<(1 + draw(8)) {
                    request.insert(contentsOf: pieces[draw(pieces.count)], at: draw(request.count + 1))
                }
            case 1:   // bytes changed
                for _ in 0..<(1 + draw(6)) { request[draw(request.count)] = UInt8(draw(256)) }
            case 2:   // cut short, or pieces alone
                request = draw(2) == 0 ? Array(request.prefix(1 + draw(request.count - 1)))
                    : (0..<(1 + draw(12))).flatMap { _ in pieces[draw(pieces.count)] }
            default:  // random bytes, sometimes ending a head
                request = (0..<(1 + draw(300))).map { _ in UInt8(draw(256)) }
                if draw(2) == 0 { request += Array("\r\n\r\n".utf8) }
            }
            let status: Int
            do {
                status = try Self.send(request, port: server.port)
            } catch {
                let shown = String(decoding: request.prefix(200), as: UTF8.self).debugDescription
                Issue.record("seed \(seed), request \(index) \(shown): \(error)")
                break
            }
            statuses[status, default: 0] += 1
            #expect([200, 400, 404, 405, 431].contains(status), "seed \(seed), request \(index): \(status)")
        }
        #expect(server.process.isRunning, "seed \(seed): \(server.log.text)")
        #expect(statuses[400, default: 0] > 100, "\(statuses)")
        let page = try server.get("/?count=3", acceptLanguage: "de-CH, fr;q=0.8")
        #expect(page.status == 200 && page.text.hasSuffix("Hallo!\n3 Einträge\nWillkommen bei HotStrings\n"))
    }
}
