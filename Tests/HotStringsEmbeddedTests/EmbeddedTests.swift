import Foundation
import HotStringsProtocol
import Testing
import HotStringsClient
import HotStringsEmbedded
import HotStringsTestSupport

/// `LiveStrings` with the watcher and the store in the process, on a temporary copy of `sample-bundle`, with
/// real inotify.
struct EmbeddedTests {
    @Test func lookupsAnswerAfterTheFirstScanThroughTheFallbackChain() async throws {
        let fixture = try EmbeddedBundle(language: "de_CH.UTF-8")
        let strings = fixture.strings
        #expect(await strings.waitUntilSynchronized(timeout: .seconds(30)))
        #expect(strings.isConnected)
        #expect(strings.currentLanguage == "de-CH")
        #expect(strings.supportedLanguages == ["de", "en", "fr", "pt-BR", "zh-Hans"])
        let cases: [(key: String, table: String, expected: String)] = [
            ("greeting", "Localizable", "Hallo!"),                  // de-CH → de
            ("files.header", "Localizable", "Name\tSize"),          // not in German → en
            ("CFBundleDisplayName", "InfoPlist", "HotStrings-Demo"),
            ("no.such.key", "Localizable", "no.such.key"),          // missing everywhere → the key
        ]
        for (key, table, expected) in cases {
            #expect(strings.localizedString(key, table: table) == expected, "\(table)/\(key)")
        }
        #expect(strings.format("messages.received", "Ana", 3) == "Ana hat dir 3 Nachrichten geschickt")
        // The first snapshot is reported once, as from the daemon (hooks run just after the view is published).
        try await pollUntil("the first snapshot's change") { !fixture.probe.changes.isEmpty }
        #expect(fixture.probe.changes.map(\.cause) == [.snapshot])
    }

    @Test func anAtomicSaveFiresOnceWithItsKeysAndLookupsSeeTheNewValues() async throws {
        let fixture = try EmbeddedBundle()
        let strings = fixture.strings
        #expect(await strings.waitUntilSynchronized(timeout: .seconds(30)))

        try fixture.save(try fixture.german([#""Hallo!""#: #""Servus!""#],
                                            appending: "\n\"farewell\" = \"Tschüss\";\n"), to: EmbeddedBundle.german)
        try await pollUntil("the reload") { fixture.probe.changes.count >= 2 }
        #expect(strings.localizedString("greeting") == "Servus!")
        #expect(strings.localizedString("farewell") == "Tschüss")

        // A second edit is reported alone, so the first save was reported exactly once.
        try fixture.save(try fixture.german([#""Einstellungen""#: #""Optionen""#]), to: EmbeddedBundle.german)
        try await pollUntil("the second reload") { fixture.probe.changes.count >= 3 }
        let changes = Array(fixture.probe.changes.dropFirst())  // the first snapshot
        #expect(changes.map(\.keys) == [["Localizable": ["greeting", "farewell"]],
                                        ["Localizable": ["settings.title"]]])
        #expect(changes.map(\.cause) == [.reload, .reload])
        #expect(changes.first?.tables == [LocalizedTable(language: "de", table: "Localizable")])
        #expect(strings.localizedString("settings.title") == "Optionen")
    }

    @Test func setLanguageSwitchesTheCurrentLanguageBeforeItReturns() async throws {
        let fixture = try EmbeddedBundle(language: "en_US.UTF-8")
        let strings = fixture.strings
        #expect(await strings.waitUntilSynchronized(timeout: .seconds(30)))
        #expect(strings.localizedString("greeting") == "Hello!")

        try await strings.setLanguage("fr")
        #expect(strings.currentLanguage == "fr")
        #expect(strings.selectedLanguage == "fr")
        #expect(strings.localizedString("greeting") == "Bonjour !")
        let change = try #require(fixture.probe.changes.last)
        #expect(change.cause == .language && change.language == "fr" && change.contains("greeting"))

        await #expect(throws: LiveStringsError.self) { try await strings.setLanguage("ko") }
        do {
            try await strings.setLanguage("ko")
        } catch {
            guard error.code == .rejected else { throw error }
            #expect(error.rejectionCode == "unsupported_language")
            #expect(error.availableLanguages == ["de", "en", "fr", "pt-BR", "zh-Hans"])
        }
        #expect(strings.currentLanguage == "fr")

        try await strings.setLanguage(nil)
        #expect(strings.currentLanguage == "en-US")  // from LANG again
        #expect(strings.localizedString("greeting") == "Hello!")
    }

    @Test func aSelectionIsSavedInTheStateDirectoryForTheNextRun() async throws {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("hs-state-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: state) }
        let first = try EmbeddedBundle(language: "en_US.UTF-8", stateDirectory: state)
        #expect(await first.strings.waitUntilSynchronized(timeout: .seconds(30)))
        try await first.strings.setLanguage("pt-BR")
        first.strings.stop()

        let second = try LiveStrings.embedded(
            bundle: first.bundle, configuration: LiveStrings.Configuration(environment: ["LANG": "en_US.UTF-8"]),
            options: LiveStrings.EmbeddedOptions(stateDirectory: state))
        defer { second.stop() }
        #expect(await second.waitUntilSynchronized(timeout: .seconds(30)))
        #expect(second.selectedLanguage == "pt-BR")
        #expect(second.localizedString("greeting") == "Olá!")
    }

    @Test func aParseErrorKeepsTheLastGoodValue() async throws {
        let fixture = try EmbeddedBundle()
        let strings = fixture.strings
        #expect(await strings.waitUntilSynchronized(timeout: .seconds(30)))
        try fixture.save(try fixture.german([#""Hallo!""#: #""Servus!""#]), to: EmbeddedBundle.german)
        try await pollUntil("the reload") { fixture.probe.changes.count == 2 }
        #expect(strings.localizedString("greeting") == "Servus!")
        let reloads = fixture.probe.changes.count

        // A missing semicolon: the file no longer parses.
        try fixture.save(try fixture.german([#""Servus!";"#: #""Kaputt""#]), to: EmbeddedBundle.german)
        try await pollUntil("the error in status") {
            let status = try await fixture.transport.request(.status)
            let files = status["lastErrors"]?.arrayValue?.compactMap { $0["file"]?.stringValue } ?? []
            return files.contains(EmbeddedBundle.german)
        }
        #expect(strings.localizedString("greeting") == "Servus!")
        #expect(strings.localizedString("settings.title") == "Einstellungen")
        #expect(fixture.probe.changes.count == reloads)

        // The next good save is served again.
        try fixture.save(try fixture.german([#""Kaputt""#: #""Grüezi!";"#]), to: EmbeddedBundle.german)
        try await pollUntil("the repaired reload") { strings.localizedString("greeting") == "Grüezi!" }
    }

    @Test func stopEndsTheWatcherAndKeepsTheLastStrings() async throws {
        let fixture = try EmbeddedBundle()
        let strings = fixture.strings
        #expect(await strings.waitUntilSynchronized(timeout: .seconds(30)))
        #expect(!fixture.transport.hasFinished)

        strings.stop()
        try await pollUntil("the watcher and delivery threads to end") { fixture.transport.hasFinished }
        #expect(strings.localizedString("greeting") == "Hallo!")
        await #expect(throws: LiveStringsError.notConnected) { try await strings.setLanguage("fr") }
        let answer = await #expect(throws: LiveStringsError.self) { try await fixture.transport.request(.languages) }
        #expect(answer == .notConnected)
    }

    @Test func requestsAreAnsweredAsTheDaemonAnswersThem() async throws {
        let fixture = try EmbeddedBundle()
        #expect(await fixture.strings.waitUntilSynchronized(timeout: .seconds(30)))
        let transport = fixture.transport

        let get = try await transport.request(.get(key: "files.header", table: "Localizable", languages: ["de-CH"]))
        #expect(get["value"] == .string("Name\tSize") && get["language"] == .string("en") && get["found"] == true)
        let table = try await transport.request(.table(language: "de", table: "InfoPlist"))
        #expect(table["entries"]?["CFBundleName"] == .string("HotStrings"))
        await #expect(throws: LiveStringsError.self) {
            try await transport.request(.table(language: "ko", table: "Localizable"))
        }
        guard case .languages(let languages) = try await transport.request(.languages) else {
            Issue.record("not a languages answer")
            return
        }
        let info = ServerInfo(languages)
        #expect(info.languages == ["Base", "de", "en", "fr", "pt-BR", "zh-Hans"] && info.selectedLanguage == nil)
        let hello = try await transport.request(.hello(client: "tests"))
        #expect(hello["protocol"] == 1 && hello["root"]?.stringValue?.hasSuffix("/bundle") == true)
    }
}
