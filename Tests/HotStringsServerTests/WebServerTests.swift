import Foundation
import Glibc
import HotStringsTestTraits
import Synchronization
import HotStringsTestSupport
import LinuxSystem
import StringsFormat
import Testing

/// The page's HTTP server over raw sockets against a real daemon: who may use it, its caps, the API and the
/// event stream.
@Suite(.needsHotstringsBinary)
struct WebServerTests {
    @Test func requestsWithoutTheTokenTheRightHostOrTheRightOriginAreRefused() throws {
        let sandbox = try Sandbox()
        let web = try WebDaemon.start(sandbox)
        let port = web.port
        let setBody = #"{"key":"greeting","value":"x","language":"de"}"#
        let cases: [(String, String, [(String, String)], String?)] = [
            ("no token", "/api/tables", [], nil),
            ("wrong bearer", "/api/tables", [("Authorization", "Bearer " + String(repeating: "0", count: 64))], nil),
            ("wrong query token", "/?token=abc", [], nil),
            ("rebound host", "/api/tables", [web.bearer, ("Host", "evil.example:\(port)")], nil),
            ("other port", "/api/tables", [web.bearer, ("Host", "127.0.0.1:1")], nil),
            ("escaped host", "/api/tables", [web.bearer, ("Host", "\u{202E}evil")], nil),
        ]
        for (name, target, headers, body) in cases {
            let client = try web.client()
            client.request("GET", target, port: port, headers: headers, body: body)
            #expect(try client.response().status == 403, "\(name)")
        }
        let posts: [(String, [(String, String)])] = [
            ("foreign origin", [web.bearer, ("Origin", "http://evil.example")]),
            ("foreign origin by port", [web.bearer, ("Origin", "http://127.0.0.1:1")]),
        ]
        for (name, headers) in posts {
            let client = try web.client()
            client.request("POST", "/api/set", port: port, headers: headers, body: setBody)
            #expect(try client.response().status == 403, "\(name)")
        }
        // The cookie alone, without an Origin, may not change anything; with the page's Origin it may.
        let browser = try web.client()
        browser.request("GET", "/?token=\(web.token)", port: port)
        let redirect = try browser.response()
        let cookie = try #require(redirect.headers["set-cookie"]?.split(separator: ";").first.map(String.init))
        browser.request("POST", "/api/set", port: port, headers: [("Cookie", cookie)], body: setBody)
        #expect(try browser.response().status == 403)
        #expect(try sandbox.read("de.lproj/Localizable.strings").contains("\"x\"") == false)
        browser.request("POST", "/api/set", port: port, headers: [("Cookie", cookie), web.origin], body: setBody)
        #expect(try browser.response().status == 200)
        // Logged as every text from outside is (DisplayText): a bidirectional override cannot reorder the line.
        #expect(web.daemon.log.contains("refused GET /api/tables (403): Host \\u{202E}evil"))
        #expect(!web.daemon.log.contains("\u{202E}"))
        #expect(try web.daemon.terminate() == 0)
    }

    @Test func headsAndBodiesOverTheirCapsAreRefusedAndClosed() throws {
        let sandbox = try Sandbox()
        let web = try WebDaemon.start(sandbox)
        let header = try web.client()
        header.send("GET /api/tables HTTP/1.1\r\nHost: 127.0.0.1:\(web.port)\r\nX-Big: "
            + String(repeating: "a", count: 100_000) + "\r\n\r\n")
        #expect(try header.response().status == 431)
        #expect(header.isClosedByServer())

        let body = try web.client()
        body.send("POST /api/set HTTP/1.1\r\nHost: 127.0.0.1:\(web.port)\r\nAuthorization: Bearer \(web.token)\r\n"
            + "Content-Length: \(2 << 20)\r\n\r\n")
        body.send([UInt8](repeating: UInt8(ascii: "a"), count: 2 << 20))
        #expect(try body.response().status == 413)
        #expect(body.isClosedByServer())

        let chunked = try web.client()
        chunked.send("POST /api/set HTTP/1.1\r\nHost: 127.0.0.1:\(web.port)\r\nAuthorization: Bearer \(web.token)\r\n"
            + "Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n")
        #expect(try chunked.response().status == 411)
        #expect(try web.daemon.terminate() == 0)
    }

    /// Probe round 3: the token's redirect copied the percent-decoded path into `Location`, so a link could inject
    /// a header or send the browser to another origin. Against the real daemon: the path as sent, or `/`.
    @Test func theTokensRedirectNeitherInjectsAHeaderNorLeavesTheOrigin() throws {
        let sandbox = try Sandbox()
        let web = try WebDaemon.start(sandbox)
        let cases = [
            ("/x%0d%0aSet-Cookie:%20a=1?token=\(web.token)", "/x%0d%0aSet-Cookie:%20a=1"),
            ("//evil.example/?token=\(web.token)", "/"),
            ("/%2Fevil.example/?token=\(web.token)", "/%2Fevil.example/"),
        ]
        for (target, location) in cases {
            let browser = try web.client()
            browser.send("GET \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(web.port)\r\n\r\n")
            let redirect = try browser.response()
            #expect(redirect.status == 303, "\(target)")
            #expect(redirect.headers["location"] == location, "\(target): \(redirect.headers)")
            #expect(redirect.headers["set-cookie"]?.hasPrefix("hotstrings-\(web.port)=\(web.token);") == true)
        }
        #expect(try web.daemon.terminate() == 0)
    }

    @Test func theTokenInTheQueryBecomesACookieAndABearerWorksAndTheTokenSurvivesARestart() throws {
        let sandbox = try Sandbox()
        let web = try WebDaemon.start(sandbox)
        let browser = try web.client()
        browser.request("GET", "/?token=\(web.token)&table=Localizable", port: web.port)
        let redirect = try browser.response()
        #expect(redirect.status == 303)
        #expect(redirect.headers["location"] == "/?table=Localizable")
        let cookie = try #require(redirect.headers["set-cookie"])
        #expect(cookie.hasPrefix("hotstrings-\(web.port)=\(web.token);"))
        #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"))
        browser.request("GET", "/", port: web.port, headers: [("Cookie", String(cookie.split(separator: ";")[0]))])
        let page = try browser.response()
        #expect(page.status == 200)
        #expect(page.headers["content-type"] == "text/html; charset=utf-8")
        #expect(page.headers["x-content-type-options"] == "nosniff")
        #expect(page.headers["content-security-policy"]?.hasPrefix("default-src 'self'") == true)
        #expect(page.headers["access-control-allow-origin"] == nil)

        let script = try web.client()
        script.request("GET", "/api/tables", port: web.port, headers: [web.bearer])
        let tables = try script.response()
        #expect(tables.status == 200)
        #expect(tables.headers["content-type"] == "application/json")
        #expect(tables.text.contains(#""table":"Localizable""#))
        // Keep-alive: a second request on the same connection.
        script.request("GET", "/api/table?table=Localizable&language=de", port: web.port, headers: [web.bearer])
        #expect(try script.response().text.contains(#""greeting":"Hallo!""#))

        let status = try HotstringsProcess.run(["status", "--json", "--socket", sandbox.socket])
        #expect(status.stdout.contains(#""web":{"url":"http://127.0.0.1:\#(web.port)/?token=\#(web.token)"}"#))
        let tokenFiles = try FileSystem.listDirectory(atPath: sandbox.stateDirectory).filter {
            $0.name.hasPrefix("web-token-")
        }
        #expect(tokenFiles.count == 1)
        let mode = try FileSystem.ownership(atPath: sandbox.stateDirectory + "/" + tokenFiles[0].name,
                                            followingSymlinks: false).permissions
        #expect(mode & 0o777 == 0o600)
        #expect(try web.daemon.terminate() == 0)

        let again = try WebDaemon.start(sandbox)
        #expect(again.token == web.token)
        #expect(try again.daemon.terminate() == 0)
        let rotated = try WebDaemon.start(sandbox, arguments: ["--web-new-token"])
        #expect(rotated.token != web.token)
        #expect(rotated.token.count == 64)
        #expect(try rotated.daemon.terminate() == 0)
    }

    @Test func aSetThroughTheAPIWritesTheFileAndReachesSubscribersAndTheEventStreamOnce() throws {
        let sandbox = try Sandbox()
        let web = try WebDaemon.start(sandbox)
        let subscriber = try LineClient(socket: sandbox.socket)
        let subscribed = try subscriber.request(#"{"id":1,"op":"subscribe","snapshot":false}"#)
        let seq = try #require(subscribed.int("seq"))
        let events = try web.client()
        events.request("GET", "/api/events", port: web.port, headers: [web.bearer])
        let head = try events.read(until: ": subscribed\n\n")
        #expect(head.contains("Content-Type: text/event-stream"))

        let api = try web.client()
        api.request("POST", "/api/set", port: web.port, headers: [web.bearer],
                    body: #"{"key":"greeting","value":"Gr\u00fc\u00df \"dich\"","language":"de"}"#)
        let answer = try api.response()
        #expect(answer.status == 200)
        #expect(answer.text.contains(#""file":"de.lproj/Localizable.strings""#))
        #expect(try sandbox.read("de.lproj/Localizable.strings").contains(#""greeting" = "Grüß \"dich\"";"#))
        let (reload, skipped) = try subscriber.nextEvent("reload")
        #expect(skipped.isEmpty)
        #expect(reload.int("seq") == seq + 1)
        let stream = try events.read(until: #""seq":\#(seq + 1)"#)
        #expect(stream.contains(#"data: {"event":"reload""#))
        // Exactly one reload: the next one the subscriber sees is that of the next save.
        try sandbox.save("\"extra\" = \"1\";\n", to: "fr.lproj/Extra.strings")
        #expect(try subscriber.nextMessage().int("seq") == seq + 2)

        api.request("POST", "/api/set", port: web.port, headers: [web.bearer],
                    body: #"{"key":"k","value":"x","language":"xx"}"#)
        let refused = try api.response()
        #expect(refused.status == 422)
        #expect(refused.text.contains("unsupported_language"))
        api.request("POST", "/api/remove", port: web.port, headers: [web.bearer],
                    body: #"{"key":"greeting","language":"de"}"#)
        #expect(try api.response().status == 200)
        #expect(try !sandbox.read("de.lproj/Localizable.strings").contains("greeting"))
        #expect(try web.daemon.terminate() == 0)
    }

    /// `/api/missing` answers the socket's `missing` (the reports apps sent); `/api/states` the catalog's
    /// states other than `translated`, as the socket's `states`.
    @Test func missingReportsAndCatalogStatesAnswerAsTheSocketDoes() throws {
        let sandbox = try Sandbox(extraFiles: ["Review.xcstrings": reviewCatalog])
        let web = try WebDaemon.start(sandbox)
        let app = try LineClient(socket: sandbox.socket)
        _ = try app.request(#"{"id":1,"op":"report-missing","entries":[{"kind":"missing","table":"Localizable","#
            + #""key":"promo.banner","language":"de-CH","count":3,"firstSeen":"2026-12-04T22:31:05.120Z","#
            + #""lastSeen":"2026-12-04T22:31:05.480Z"}]}"#)
        let api = try web.client()
        api.request("GET", "/api/missing?language=de_ch", port: web.port, headers: [web.bearer])
        let missing = try api.response()
        #expect(missing.status == 200)
        let socketAnswer = try app.request(#"{"id":null,"op":"missing","language":"de_ch"}"#)
        #expect(try JSONValue(parsing: missing.body) == socketAnswer)
        #expect(missing.text.contains(#""key":"promo.banner""#))
        api.request("GET", "/api/missing?table=Other", port: web.port, headers: [web.bearer])
        #expect(try api.response().text.contains(#""entries":[]"#))

        api.request("GET", "/api/states?table=Review", port: web.port, headers: [web.bearer])
        let states = try api.response()
        #expect(states.status == 200)
        #expect(states.text.contains(
            #""states":{"a.new":{"de":"new"},"b.review":{"de":"needs_review"},"c.stale":{"de":"stale"}}"#))
        #expect(try JSONValue(parsing: states.body) == app.request(#"{"id":null,"op":"states","table":"Review"}"#))
        api.request("GET", "/api/states", port: web.port, headers: [web.bearer])
        #expect(try api.response().text.contains(#""states":{}"#))
        api.request("POST", "/api/states", port: web.port, headers: [web.bearer], body: "{}")
        #expect(try api.response().status == 405)
        #expect(try web.daemon.terminate() == 0)
    }

    /// `/api/tables` names the pseudo-languages; `/api/set` with `form` (and `variable`) sets one plural form of a
    /// catalog's variations, as of a `.stringsdict` entry.
    @Test func pseudoLanguagesAreNamedAndACatalogsPluralFormIsSet() throws {
        let sandbox = try Sandbox()
        let web = try WebDaemon.start(sandbox, arguments: ["--pseudo-languages"])
        let api = try web.client()
        api.request("GET", "/api/tables", port: web.port, headers: [web.bearer])
        #expect(try api.response().text.contains(#""pseudoLanguages":["ar-XB","en-XA"]"#))
        let catalog = try sandbox.read("Settings.xcstrings")
        api.request("POST", "/api/set", port: web.port, headers: [web.bearer],
                    body: #"{"key":"%lld files selected","language":"de","table":"Settings","form":"one","#
                        + #""value":"%lld Datei gewählt"}"#)
        let answer = try api.response()
        #expect(answer.status == 200, "\(answer.text)")
        #expect(answer.text.contains(#""file":"Settings.xcstrings""#))
        #expect(try sandbox.read("Settings.xcstrings") == xcodeLayout(catalog).replacingOccurrences(
            of: #""value" : "%lld Datei ausgewählt""#, with: #""value" : "%lld Datei gewählt""#))
        api.request("POST", "/api/set", port: web.port, headers: [web.bearer],
                    body: #"{"key":"Settings","language":"de","table":"Settings","form":"one","value":"x"}"#)
        #expect(try api.response().status == 404)
        #expect(try web.daemon.terminate() == 0)
    }

    /// `/api/set` with `device` sets one device's text of a catalog's device variations, only its bytes; a device's
    /// text or a catalog's plural form whose specifiers differ from the development language's is refused
    /// (`bad_request`, 400, naming the difference) with nothing written.
    @Test func aCatalogsDeviceTextIsSetAndDifferingSpecifiersAreRefused() throws {
        let sandbox = try Sandbox()
        let web = try WebDaemon.start(sandbox)
        let api = try web.client()
        let catalog = try sandbox.read("Settings.xcstrings")
        api.request("POST", "/api/set", port: web.port, headers: [web.bearer],
                    body: #"{"key":"Tap to continue","language":"de","table":"Settings","device":"mac","#
                        + #""value":"Klick, um fortzufahren"}"#)
        let answer = try api.response()
        #expect(answer.status == 200, "\(answer.text)")
        let edited = xcodeLayout(catalog).replacingOccurrences(of: #""value" : "Klicken, um fortzufahren""#,
                                                               with: #""value" : "Klick, um fortzufahren""#)
        #expect(try sandbox.read("Settings.xcstrings") == edited)
        let refused = [
            (#""key":"%@ shared %lld photos","value":"%lld Fotos von %@""#,
             "'%@ shared %lld photos': '%lld' takes argument 1 as an integer, where en's '%1$@' takes an object"),
            (#""key":"%lld files selected","form":"other","value":"%@ Dateien""#,
             "'%lld files selected', form 'other' of 'plural': '%@' takes argument 1 as an object, where en's "
                + "'%#@plural@' takes an integer"),
        ]
        for (fields, message) in refused {
            api.request("POST", "/api/set", port: web.port, headers: [web.bearer],
                        body: #"{"language":"de","table":"Settings","# + fields + "}")
            let refusal = try api.response()
            #expect(refusal.status == 400, "\(refusal.text)")
            #expect(refusal.text.contains(#""code":"bad_request""#) && refusal.text.contains(message), "\(refusal.text)")
        }
        #expect(try sandbox.read("Settings.xcstrings") == edited)
        #expect(try web.daemon.terminate() == 0)
    }

    /// `/api/lint` (the socket's `lint`) finds what `hotstrings lint --json` finds in the bundle, paths relative to
    /// the root: one implementation of the checks, the CLI only prints them.
    @Test func lintAnswersWhatTheCommandFinds() throws {
        let sandbox = try Sandbox(extraFiles: ["de.lproj/Broken.strings": "\"a\" = \"b\"\n"])
        let web = try WebDaemon.start(sandbox)
        let api = try web.client()
        api.request("GET", "/api/lint", port: web.port, headers: [web.bearer])
        let answer = try api.response()
        #expect(answer.status == 200)
        let served = try JSONValue(parsing: answer.body)
        let command = try HotstringsProcess.run(["lint", "--json", sandbox.bundle])
        let printed = try JSONValue(parsing: Array(command.stdout.utf8))
        #expect(served["summary"] == printed["summary"])
        let servedFiles = try #require(served["files"]?.arrayValue)
        let printedFiles = try #require(printed["files"]?.arrayValue)
        #expect(servedFiles.map { $0["path"]?.stringValue ?? "" }
            == printedFiles.map { ($0["path"]?.stringValue ?? "").replacingOccurrences(of: sandbox.bundle + "/",
                                                                                          with: "") })
        #expect(servedFiles.map { $0["diagnostics"] } == printedFiles.map { $0["diagnostics"] })
        #expect(answer.text.contains(#""path":"de.lproj/Broken.strings""#))
        #expect((served["summary"]?["errors"]?.int64Value ?? 0) >= 1)
        #expect(try web.daemon.terminate() == 0)
    }

    /// 300 idle connections and a client sending a byte a second do not keep the socket's clients or the
    /// page's own requests from being answered.
    @Test func idleAndSlowConnectionsDoNotStarveTheSocketOrThePage() throws {
        let sandbox = try Sandbox()
        let web = try WebDaemon.start(sandbox)
        let idle = try (0..<300).map { _ in try web.client() }
        let slow = try web.client()
        let slowFD = slow.fd
        let stop = Atomic<Bool>(false)
        let slowThread = Thread {
            for var byte in "GET /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\n".utf8 {
                if stop.load(ordering: .relaxed) || Glibc.send(slowFD, &byte, 1, Int32(MSG_NOSIGNAL)) != 1 { return }
                Thread.sleep(forTimeInterval: 1)
            }
        }
        slowThread.start()
        defer { stop.store(true, ordering: .relaxed) }
        let get = try HotstringsProcess.run(["get", "greeting", "--language", "de", "--socket", sandbox.socket])
        #expect(get.stdout == "Hallo!\n")
        let api = try web.client()
        api.request("GET", "/api/table?language=de", port: web.port, headers: [web.bearer])
        #expect(try api.response().status == 200)
        _ = idle
        #expect(try web.daemon.terminate() == 0)
    }
}
