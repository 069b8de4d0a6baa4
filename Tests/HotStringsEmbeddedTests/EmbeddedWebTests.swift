import Foundation
import HotStringsClient
import HotStringsEmbedded
import HotStringsProtocol
import HotStringsTestSupport
import LinuxSystem
import Synchronization
import Testing

/// The translator's page in embedded mode (`EmbeddedOptions.webPort`): the daemon's page and API, on a loop of
/// its own in the app, in front of the app's own service host.
struct EmbeddedWebTests {
    /// Where `onWebPage` said the page is.
    private struct Page {
        var url: String
        var port: UInt16
        var token: String

        init(_ url: String) throws {
            self.url = url
            let address = try #require(url.split(separator: "http://127.0.0.1:").last)
            port = try #require(UInt16(address.prefix { $0.isNumber }))
            token = try #require(address.split(separator: "?token=").last.map(String.init))
        }

        var bearer: (String, String) { ("Authorization", "Bearer \(token)") }
    }

    @Test func aSaveInThePageIsOneReloadInTheAppAndOnTheEventStream() async throws {
        let urls = Mutex<[String]>([])
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("hs-web-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: state) }
        let fixture = try EmbeddedBundle(options: LiveStrings.EmbeddedOptions(
            stateDirectory: state, webPort: 0, onWebPage: { url in urls.withLock { $0.append(url) } }))
        let strings = fixture.strings
        #expect(await strings.waitUntilSynchronized(timeout: .seconds(30)))
        #expect(urls.withLock { $0.count } == 1)
        let page = try Page(try #require(urls.withLock { $0.first }))

        // The same rules as the daemon's page: no token, no answer.
        let stranger = try WebClient(port: page.port)
        stranger.request("GET", "/api/tables", port: page.port)
        #expect(try stranger.response().status == 403)
        // The token is kept private in the state directory, and `status` shows the page.
        let saved = try FileManager.default.contentsOfDirectory(atPath: state).filter { $0.hasPrefix("web-token-") }
        #expect(saved.count == 1)
        #expect(try FileSystem.status(atPath: state + "/" + saved[0]).permissions == 0o600)
        let status = try await fixture.transport.request(.status)
        #expect(status["web"]?["url"]?.stringValue == page.url)

        let tables = try WebClient(port: page.port)
        tables.request("GET", "/api/table?table=Localizable&language=de", port: page.port, headers: [page.bearer])
        let table = try tables.response()
        #expect(table.status == 200)
        #expect(table.text.contains(#""greeting""#))

        let events = try WebClient(port: page.port)
        events.request("GET", "/api/events", port: page.port, headers: [page.bearer])
        _ = try events.read(until: ": subscribed\n\n")
        let api = try WebClient(port: page.port)
        api.request("POST", "/api/set", port: page.port, headers: [page.bearer],
                    body: #"{"key":"greeting","value":"Servus \"aus\" der Seite","language":"de"}"#)
        let answer = try api.response()
        #expect(answer.status == 200, "\(answer.text)")
        #expect(answer.text.contains(#""file":"de.lproj/Localizable.strings""#))
        try await pollUntil("the app's lookup") { strings.localizedString("greeting") == #"Servus "aus" der Seite"# }
        let stream = try events.read(until: #""changed":{"greeting":"Servus \"aus\" der Seite"}"#)
        #expect(stream.contains(#"data: {"event":"reload""#))
        // Exactly one reload in the app: the next change it sees is the next save's.
        try fixture.save(try fixture.german([#""Einstellungen""#: #""Optionen""#]), to: EmbeddedBundle.german)
        try await pollUntil("the save's reload") { strings.localizedString("settings.title") == "Optionen" }
        #expect(Array(fixture.probe.changes.dropFirst()).map(\.keys)
            == [["Localizable": ["greeting"]], ["Localizable": ["settings.title"]]])

        // Stopping the app ends the page: its thread, its connections, its port.
        strings.stop()
        try await pollUntil("every thread to end") { fixture.transport.hasFinished }
        #expect(events.isClosedByServer())
        #expect(throws: WebClientError.self) { try WebClient(port: page.port) }
    }

    @Test func aPortInUseIsAStartError() throws {
        let taken = try LoopbackSocket.listen(port: 0)
        defer { SocketIO.close(taken) }
        let port = try LoopbackSocket.port(of: taken)
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("hs-web-\(UUID().uuidString)").path
        try FileManager.default.copyItem(atPath: sampleBundlePath, toPath: root)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let error = #expect(throws: EmbeddedStartError.self) {
            _ = try LiveStrings.embedded(bundle: root, options: LiveStrings.EmbeddedOptions(webPort: port))
        }
        #expect(error?.description.contains("cannot serve the page") == true, "\(String(describing: error))")
    }
}
