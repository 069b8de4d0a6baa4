import Foundation
import HotStringsClient
import HotStringsEmbedded
import HotStringsTestSupport
import Testing

/// `EmbeddedOptions.pseudoLanguages`: the embedded host serves `en-XA` and `ar-XB` as `serve --pseudo-languages`.
struct EmbeddedPseudoLanguageTests {
    @Test func theOptionServesThePseudoLanguagesAndRemakesThemOnASave() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("hs-pseudo-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let bundle = root + "/bundle"
        try FileManager.default.copyItem(atPath: sampleBundlePath, toPath: bundle)
        let strings = try LiveStrings.embedded(
            bundle: bundle, configuration: LiveStrings.Configuration(environment: ["LANG": "en_US.UTF-8"]),
            options: LiveStrings.EmbeddedOptions(pseudoLanguages: true))
        defer { strings.stop() }
        #expect(await strings.waitUntilSynchronized(timeout: .seconds(30)))
        #expect(strings.supportedLanguages == ["ar-XB", "de", "en", "en-XA", "fr", "pt-BR", "zh-Hans"])

        try await strings.setLanguage("en-XA")
        #expect(strings.localizedString("greeting") == "[Ĥéļļö¡ one two]")
        #expect(strings.format("items.count", 3) == "[3 îţéḿš one two]")

        let file = bundle + "/en.lproj/Localizable.strings"
        let english = try String(contentsOfFile: file, encoding: .utf16)
        try Data(english.replacingOccurrences(of: "\"Hello!\"", with: "\"Howdy!\"").utf8)
            .write(to: URL(fileURLWithPath: file), options: .atomic)
        try await pollUntil("the pseudo value to change") {
            strings.localizedString("greeting") == "[Ĥöŵðý¡ one two]"
        }
        try await strings.setLanguage("ar-XB")
        #expect(strings.localizedString("greeting") == "\u{202E}Howdy\u{202C}!")
    }
}
