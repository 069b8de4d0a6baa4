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
        try await pollUntil("the reload") { strings.localizedString("greeting") == "Moin" }
        // The next save's change comes alone, so the set was reported exactly once.
        try fixture.save(try fixture.german([#""Einstellungen""#: #""Optionen""#]), to: EmbeddedBundle.german)
        try await pollUntil("the save's reload") { strings.localizedString("settings.title") == "Optionen" }
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
        try await pollUntil("the table") {
            strings.localizedString("hint", table: "Gestures", arguments: ["x"]) == "Tippen, x"
        }
        let file = "de.lproj/Gestures.stringsdict"
        #expect(try await strings.set("hint", to: "Wischen, %@", language: "de", table: "Gestures", device: "other")
            == file)
        try await pollUntil("the reload") {
            strings.localizedString("hint", table: "Gestures", arguments: ["x"]) == "Wischen, x"
        }
        #expect(try String(contentsOfFile: fixture.bundle + "/" + file, encoding: .utf8)
            == gestures.replacingOccurrences(of: "<string>Tippen, %@</string>", with: "<string>Wischen, %@</string>"))
    }

    /// `LiveStrings.set` judges what it writes as `lint` does (the table every path is tested with): an error is
    /// `rejected` (`bad_request`) with `lint`'s message and nothing written, and `force` writes it.
    @Test func differingSpecifiersAreRejectedWithLintsMessage() async throws {
        let fixture = try EmbeddedBundle()
        let strings = fixture.strings
        #expect(await strings.waitUntilSynchronized(timeout: .seconds(30)))
        for (path, text) in SpecifierCases.files(translated: false) { try fixture.save(text, to: path) }
        try await pollUntil("the table") {
            strings.localizedString("type", table: SpecifierCases.table, arguments: [3]) == "3 files"
        }
        for table in SpecifierCases.all where table.isRefused {
            let file = fixture.bundle + "/de.lproj/\(SpecifierCases.table)." + (table.form == nil ? "strings" : "stringsdict")
            let before = try String(contentsOfFile: file, encoding: .utf8)
            do {
                try await strings.set(table.key, to: table.german, language: "de", table: SpecifierCases.table,
                                      form: table.form, variable: table.form.map { _ in "messages" })
                Issue.record("\(table.key) was written")
            } catch {
                #expect(error.code == .rejected && error.rejectionCode == "bad_request", "\(error)")
                #expect(error.message == table.refusal)
            }
            #expect(try String(contentsOfFile: file, encoding: .utf8) == before)
            try await strings.set(table.key, to: table.german, language: "de", table: SpecifierCases.table,
                                  form: table.form, variable: table.form.map { _ in "messages" }, force: true)
        }
    }
}
