import Foundation
import HotStringsClient
import HotStringsEmbedded
import HotStringsTestSupport
import Testing

/// Embedded mode serves the sample's `Settings.xcstrings` as the daemon does: a save fires one reload with exactly
/// the changed keys, and `localizedString(_:table:arguments:)` formats the new plural forms.
@Suite struct EmbeddedCatalogTests {
    @Test func aCatalogEditReachesTheReloadHookAndTheNextLookup() async throws {
        let fixture = try EmbeddedBundle(language: "fr_FR.UTF-8")
        let strings = fixture.strings
        #expect(await strings.waitUntilSynchronized(timeout: .seconds(30)))
        let selected = "%lld files selected"
        #expect(strings.localizedString(selected, table: "Settings", arguments: [0]) == "0 fichier sélectionné")
        #expect(strings.localizedString(selected, table: "Settings", arguments: [1_000_000])
            == "1000000 de fichiers sélectionnés", "French 'many' for millions")
        #expect(strings.localizedString("Settings", table: "Settings") == "Réglages")

        let path = fixture.bundle + "/Settings.xcstrings"
        let text = try String(contentsOfFile: path, encoding: .utf8)
        try #require(text.contains("\"%lld fichiers sélectionnés\""))
        try fixture.save(text.replacingOccurrences(of: "\"%lld fichiers sélectionnés\"",
                                                   with: "\"%lld fichiers choisis\""), to: "Settings.xcstrings")
        try await pollUntil("the reload") { fixture.probe.changes.count >= 2 }
        let change = try #require(fixture.probe.changes.last)
        #expect(change.cause == .reload)
        #expect(change.keys == ["Settings": [selected]])
        #expect(change.tables == [LocalizedTable(language: "fr", table: "Settings")])
        #expect(strings.localizedString(selected, table: "Settings", arguments: [2]) == "2 fichiers choisis")
        #expect(strings.localizedString(selected, table: "Settings", arguments: [1]) == "1 fichier sélectionné")
    }
}
