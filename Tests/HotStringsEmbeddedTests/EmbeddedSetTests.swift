import Foundation
import HotStringsClient
import HotStringsEmbedded
import Testing

/// `set` and `remove` in embedded mode: the same op through the same `ServiceHost` as the daemon's.
struct EmbeddedSetTests {
    @Test func aSetIsOneReloadNamingTheKey() async throws {
        let fixture = try EmbeddedBundle()
        let strings = fixture.strings
        #expect(await strings.waitUntilSynchronized(timeout: .seconds(30)))
        #expect(try await strings.set("greeting", to: "Moin", language: "de") == EmbeddedBundle.german)
        try await eventually("the reload") { strings.localizedString("greeting") == "Moin" }
        // The next save's change comes alone, so the set was reported exactly once.
        try fixture.save(try fixture.german([#""Einstellungen""#: #""Optionen""#]), to: EmbeddedBundle.german)
        try await eventually("the save's reload") { strings.localizedString("settings.title") == "Optionen" }
        let changes = Array(fixture.probe.changes.dropFirst())
        #expect(changes.map(\.keys) == [["Localizable": ["greeting"]], ["Localizable": ["settings.title"]]])
        #expect(try await strings.remove("greeting", language: "de") == EmbeddedBundle.german)
    }
}
