import Foundation
import HotStringsProtocol
import HotStringsTestSupport
import HotStringsTestTraits
import Testing
@testable import HotStringsClient

/// The client against a real `hotstrings serve` on a temporary copy of `sample-bundle`.
@Suite(.needsHotstringsBinary)
struct DaemonTests {
    static let german = "de.lproj/Localizable.strings"

    /// A client of `daemon` in `language` whose changes go to `probe`.
    static func client(_ daemon: DaemonProcess, language: String = "de_DE.UTF-8",
                       probe: ClientProbe) -> (LiveStrings, ReloadToken) {
        let configuration = LiveStrings.Configuration(
            socketPath: daemon.socket, clientName: "tests", environment: ["LANG": language],
            reconnectDelay: .milliseconds(10), maximumReconnectDelay: .milliseconds(200))
        let strings = LiveStrings(configuration: configuration)
        let token = strings.onReload { change in probe.record(keys: change.keys, language: change.language) }
        return (strings, token)
    }

    /// The German table's text with `replacements` applied and `appended` added at the end.
    static func german(in sandbox: Sandbox, _ replacements: [String: String], appending appended: String = "")
        throws -> String {
        var text = try String(contentsOfFile: sandbox.bundle + "/" + german, encoding: .utf8)
        for (old, new) in replacements {
            try #require(text.contains(old))
            text = text.replacingOccurrences(of: old, with: new)
        }
        return text + appended
    }

    @Test func aFileEditFiresOnceWithItsKeysAndLookupsSeeTheNewValues() async throws {
        let sandbox = try Sandbox(prefix: "hs-lib-")
        let daemon = try await DaemonProcess.serving(sandbox)
        let probe = ClientProbe()
        let (strings, token) = Self.client(daemon, probe: probe)
        #expect(await strings.waitUntilSynchronized(timeout: .seconds(30)))
        #expect(strings.localizedString("greeting") == "Hallo!")
        #expect(strings.localizedString("files.header") == "Name\tSize")  // not in German: from en
        #expect(strings.localizedString("CFBundleDisplayName", table: "InfoPlist") == "HotStrings-Demo")
        let before = probe.changes.count

        try sandbox.save(try Self.german(in: sandbox, [#""Hallo!""#: #""Servus!""#],
                                         appending: "\n\"farewell\" = \"Tschüss\";\n"), to: Self.german)
        try await probe.wait("the reload") { probe.changes.count > before }
        #expect(strings.localizedString("greeting") == "Servus!")
        #expect(strings.localizedString("farewell") == "Tschüss")

        // An edit the German client cannot see (English `greeting` is shadowed) fires nothing; the edit after
        // it is reported alone, so the first edit was reported exactly once.
        let english = "en.lproj/Localizable.strings"
        let englishText = try String(contentsOfFile: sandbox.bundle + "/" + english, encoding: .utf16)
        try sandbox.save(englishText.replacingOccurrences(of: #""Hello!""#, with: #""Howdy!""#), to: english)
        try sandbox.save(try Self.german(in: sandbox, [#""Einstellungen""#: #""Optionen""#]), to: Self.german)
        try await probe.wait("the second reload") { probe.changes.count > before + 1 }
        let changes = Array(probe.changes.dropFirst(before))
        #expect(changes.map(\.keys) == [["Localizable": ["greeting", "farewell"]],
                                        ["Localizable": ["settings.title"]]])
        #expect(strings.localizedString("settings.title") == "Optionen")
        _ = token
    }

    @Test func setLanguageFromOneClientSwitchesEveryClient() async throws {
        let sandbox = try Sandbox(prefix: "hs-lib-")
        let daemon = try await DaemonProcess.serving(sandbox)
        let probe = ClientProbe()
        let (first, firstToken) = Self.client(daemon, language: "en_US.UTF-8", probe: probe)
        let (second, secondToken) = Self.client(daemon, language: "en_US.UTF-8", probe: probe)
        #expect(await first.waitUntilSynchronized(timeout: .seconds(30)))
        #expect(await second.waitUntilSynchronized(timeout: .seconds(30)))
        #expect(first.supportedLanguages == ["de", "en", "fr", "pt-BR", "zh-Hans"])
        #expect(second.localizedString("greeting") == "Hello!")

        try await first.setLanguage("fr")
        // The caller has switched when the call returns; the others as soon as the event reaches them.
        #expect(first.currentLanguage == "fr")
        #expect(first.localizedString("greeting") == "Bonjour !")
        try await probe.wait("the second client to switch") { second.localizedString("greeting") == "Bonjour !" }
        #expect(second.currentLanguage == "fr")
        #expect(second.selectedLanguage == "fr")

        // The selection is the daemon's: a client that starts now begins in French.
        let (third, thirdToken) = Self.client(daemon, language: "de_DE.UTF-8", probe: probe)
        #expect(await third.waitUntilSynchronized(timeout: .seconds(30)))
        #expect(third.localizedString("greeting") == "Bonjour !")

        await #expect(throws: LiveStringsError.rejected(
            code: "unsupported_language", message: "unsupported language 'xx'",
            available: ["de", "en", "fr", "pt-BR", "zh-Hans"])) {
            try await second.setLanguage("xx")
        }
        try await second.setLanguage(nil)
        try await probe.wait("every client to go back") {
            first.localizedString("greeting") == "Hello!" && third.localizedString("greeting") == "Hallo!"
        }
        _ = (firstToken, secondToken, thirdToken)
    }

    @Test func aKilledAndRestartedDaemonIsFollowedAndTheMirrorMatchesIt() async throws {
        let sandbox = try Sandbox(prefix: "hs-lib-")
        var daemon = try await DaemonProcess.serving(sandbox)
        let probe = ClientProbe()
        let transport = ObservedTransport(path: daemon.socket, probe: probe)
        let strings = LiveStrings(transport: transport, configuration: .init(environment: ["LANG": "de_DE"]))
        let token = strings.onReload { probe.record(keys: $0.keys, language: $0.language) }
        #expect(await strings.waitUntilSynchronized(timeout: .seconds(30)))
        let firstEpoch = try #require(transport.snapshotEpochs.last)

        daemon.crash()
        try await probe.wait("the client to notice") { !strings.isConnected }
        #expect(strings.localizedString("greeting") == "Hallo!")  // the mirror keeps answering
        try sandbox.save(try Self.german(in: sandbox, [#""Hallo!""#: #""Moin!""#]), to: Self.german)
        let before = probe.changes.count
        daemon = try await DaemonProcess.servingWhenReady(sandbox)
        try await probe.wait("the client to recover") {
            strings.isSynchronized && strings.localizedString("greeting") == "Moin!"
        }
        let secondEpoch = try #require(transport.snapshotEpochs.last)
        #expect(secondEpoch != firstEpoch)
        // Only what differs is reported.
        #expect(probe.changes.dropFirst(before).map(\.keys) == [["Localizable": ["greeting"]]])

        // Every key of the German chain reads as the new daemon resolves it.
        var keys: Set<String> = []
        for language in ["de", "en", "Base"] {
            guard case .table(let table) = try await transport.request(.table(language: language, table: "Localizable"))
            else { throw Failure("not a table answer") }
            keys.formUnion(table.entries.map(\.0))
        }
        #expect(keys.count > 10)
        for key in keys {
            let answer = try await transport.request(.get(key: key, table: "Localizable", languages: ["de"]))
            guard case .value(let found) = answer else { throw Failure("not a get answer") }
            #expect(strings.localizedString(key) == found.value, "\(key)")
        }
        _ = token
    }

    @Test func aGapInTheEventStreamBringsAFreshSnapshot() async throws {
        let sandbox = try Sandbox(prefix: "hs-lib-")
        let daemon = try await DaemonProcess.serving(sandbox)
        let probe = ClientProbe()
        let transport = ObservedTransport(path: daemon.socket, probe: probe)
        let strings = LiveStrings(transport: transport, configuration: .init(environment: ["LANG": "de_DE"]))
        let token = strings.onReload { probe.record(keys: $0.keys, language: $0.language) }
        #expect(await strings.waitUntilSynchronized(timeout: .seconds(30)))
        let before = probe.changes.count

        transport.dropReloads(1)
        try sandbox.save(try Self.german(in: sandbox, [#""Hallo!""#: #""Grüß Gott!""#]), to: Self.german)
        try await probe.wait("the reload to be dropped") { transport.dropped.count == 1 }
        #expect(strings.localizedString("greeting") == "Hallo!")  // missed, for now
        try sandbox.save(try Self.german(in: sandbox, [#""Sprache""#: #""Sprachen""#]), to: Self.german)
        try await probe.wait("the snapshot after the gap") {
            strings.isSynchronized && strings.localizedString("settings.language") == "Sprachen"
        }
        #expect(strings.localizedString("greeting") == "Grüß Gott!")
        #expect(transport.snapshotEpochs.count == 2)
        #expect(probe.changes.dropFirst(before).map(\.keys) == [["Localizable": ["greeting", "settings.language"]]])
        _ = token
    }
}
