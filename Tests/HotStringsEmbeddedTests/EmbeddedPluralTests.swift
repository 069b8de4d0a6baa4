import Foundation
import HotStringsClient
import HotStringsEmbedded
import HotStringsTestSupport
import Testing

/// Plural forms in embedded mode: `LiveStrings.embedded(bundle:)` over a temporary bundle with a `.stringsdict`,
/// edited live (in XML and in binary), with real inotify.
struct EmbeddedPluralTests {
    /// A `.stringsdict` with `files.count` (`%#@files@`, one and other) and `items.left` (`%1$@: %2$#@items@`).
    static func stringsdict(one: String, other: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict>
        <key>files.count</key><dict>
            <key>NSStringLocalizedFormatKey</key><string>%#@files@</string>
            <key>files</key><dict>
                <key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>
                <key>NSStringFormatValueTypeKey</key><string>d</string>
                <key>one</key><string>\(one)</string><key>other</key><string>\(other)</string></dict></dict>
        <key>items.left</key><dict>
            <key>NSStringLocalizedFormatKey</key><string>%1$@: %2$#@items@</string>
            <key>items</key><dict>
                <key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>
                <key>NSStringFormatValueTypeKey</key><string>d</string>
                <key>one</key><string>one item left</string><key>other</key><string>%d items left</string></dict></dict>
        </dict></plist>
        """
    }

    /// A bundle with English plurals and German and French strings without them; removed on release.
    final class PluralBundle {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("hs-plural-\(UUID().uuidString)").path

        init() throws {
            try write(#""title" = "Files";"#, to: "en.lproj/Localizable.strings")
            try write(EmbeddedPluralTests.stringsdict(one: "%d file", other: "%d files"),
                      to: "en.lproj/Localizable.stringsdict")
            try write(#""title" = "Dateien";"#, to: "de.lproj/Localizable.strings")
            try write(#""title" = "Fichiers";"#, to: "fr.lproj/Localizable.strings")
        }

        deinit {
            try? FileManager.default.removeItem(atPath: root)
        }

        /// Writes `text` to `path` in the bundle the way editors save: a temporary file renamed over it.
        func write(_ text: String, to path: String) throws {
            try write(Data(text.utf8), to: path)
        }

        func write(_ data: Data, to path: String) throws {
            let url = URL(fileURLWithPath: root + "/" + path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(),
                                                    withIntermediateDirectories: true)
            try data.write(to: url, options: .atomic)
        }
    }

    @Test func aLiveEditOfTheStringsdictGivesTheNewFormsWithTheRulesOfTheTablesLanguage() async throws {
        let bundle = try PluralBundle()
        let strings = try LiveStrings.embedded(
            bundle: bundle.root, configuration: LiveStrings.Configuration(environment: ["LANG": "de_DE.UTF-8"]))
        defer { strings.stop() }
        #expect(await strings.waitUntilSynchronized(timeout: .seconds(30)))
        #expect(strings.currentLanguage == "de-DE")
        #expect(strings.localizedString("title") == "Dateien")
        // Not in German: the English rule, with English rules.
        #expect(strings.localizedString("files.count", arguments: [1]) == "1 file")
        #expect(strings.localizedString("files.count", arguments: [2]) == "2 files")
        #expect(strings.localizedString("items.left", arguments: ["Inbox", 1]) == "Inbox: one item left")
        #expect(strings.localizedString("items.left", arguments: ["Inbox", 7]) == "Inbox: 7 items left")
        // A French lookup falls back to the same English rule: 0 is "other" in English ("one" in French).
        strings.overrideLanguage("fr")
        #expect(strings.localizedString("title") == "Fichiers")
        #expect(strings.localizedString("files.count", arguments: [0]) == "0 files")
        strings.overrideLanguage(nil)

        try bundle.write(Self.stringsdict(one: "%d document", other: "%d documents"),
                         to: "en.lproj/Localizable.stringsdict")
        try await pollUntil("the edited plural forms") {
            strings.localizedString("files.count", arguments: [1]) == "1 document"
        }
        #expect(strings.localizedString("files.count", arguments: [3]) == "3 documents")
        #expect(strings.localizedString("title") == "Dateien")
    }

    @Test func aGermanStringsdictWinsAndABinaryOneIsServedLive() async throws {
        let bundle = try PluralBundle()
        let strings = try LiveStrings.embedded(
            bundle: bundle.root, configuration: LiveStrings.Configuration(environment: ["LANG": "de_DE.UTF-8"]))
        defer { strings.stop() }
        #expect(await strings.waitUntilSynchronized(timeout: .seconds(30)))
        #expect(strings.localizedString("files.count", arguments: [1]) == "1 file")

        // Compiled to a binary property list, as Xcode ships it.
        let xml = Data(Self.stringsdict(one: "%d Datei", other: "%d Dateien").utf8)
        let object = try PropertyListSerialization.propertyList(from: xml, options: [], format: nil)
        let binary = try PropertyListSerialization.data(fromPropertyList: object, format: .binary, options: 0)
        #expect(binary.starts(with: Array("bplist00".utf8)))
        try bundle.write(binary, to: "de.lproj/Localizable.stringsdict")
        try await pollUntil("the German binary plural forms") {
            strings.localizedString("files.count", arguments: [1]) == "1 Datei"
        }
        #expect(strings.localizedString("files.count", arguments: [0]) == "0 Dateien")
        #expect(strings.localizedString("items.left", arguments: ["Eingang", 7]) == "Eingang: 7 items left")
    }
}
