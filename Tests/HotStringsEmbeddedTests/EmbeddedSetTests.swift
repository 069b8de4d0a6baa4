import Foundation
import HotStringsClient
import HotStringsEmbedded
import HotStringsTestSupport
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

    /// `LiveStrings.set` with `device` sets one device's text of a `.stringsdict` entry's
    /// `NSStringDeviceSpecificRuleType`: only its bytes change, and the client formats the new text on that device.
    @Test func aSetWithADeviceChangesThatDevicesText() async throws {
        let fixture = try EmbeddedBundle()
        let strings = fixture.strings
        let gestures = deviceStringsdict(iphone: ("%lld Tipp", "%lld Tipps"), mac: "Klicken, %@", other: "Tippen, %@")
        #expect(await strings.waitUntilSynchronized(timeout: .seconds(30)))
        try fixture.save(gestures, to: "de.lproj/Gestures.stringsdict")
        try await eventually("the table") {
            strings.localizedString("hint", table: "Gestures", arguments: ["x"]) == "Tippen, x"
        }
        let file = "de.lproj/Gestures.stringsdict"
        #expect(try await strings.set("hint", to: "Wischen, %@", language: "de", table: "Gestures", device: "other")
            == file)
        try await eventually("the reload") {
            strings.localizedString("hint", table: "Gestures", arguments: ["x"]) == "Wischen, x"
        }
        #expect(try String(contentsOfFile: fixture.bundle + "/" + file, encoding: .utf8)
            == gestures.replacingOccurrences(of: "<string>Tippen, %@</string>", with: "<string>Wischen, %@</string>"))
    }
}
