import Foundation
import HotStringsTestSupport
import HotStringsTestTraits
import Testing

/// `hotstrings subscribe` as a real process against a real daemon.
@Suite(.needsHotstringsBinary)
struct ClientSubscribeTests {
    /// The complete JSON lines printed so far, parsed.
    func events(_ text: String) -> [[String: Any]] {
        text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().compactMap { line in
            try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        }
    }

    @Test func subscribersSeeTheReloadOfAnAtomicSaveAndLoseTheDaemonWithExitThree() throws {
        let served = try ServedBundle()
        let json = try served.start(["subscribe"])
        let text = try served.start(["subscribe", "--format", "text"])
        try json.stdout.wait(for: "the JSON snapshot") { events($0).first?["event"] as? String == "snapshot" }
        try text.stdout.wait(for: "the text snapshot") { $0 == "snapshot: 15 tables\n" }
        let snapshot = try #require(events(json.stdout.text).first)
        #expect((snapshot["tables"] as? [Any])?.count == 15)

        var german = try String(contentsOfFile: served.bundle + "/de.lproj/Localizable.strings", encoding: .utf8)
        german = german.replacingOccurrences(of: "\"Hallo!\"", with: "\"Servus!\"")
            .replacingOccurrences(of: "\"map.cafe\" = \"Café-Ecke\";", with: "")
        german += "\n\"files.header\" = \"Dateien\";\n"
        try served.save(german, to: "de.lproj/Localizable.strings")

        let expected = "reload de/Localizable: ~greeting +files.header -map.cafe\n"
        try text.stdout.wait(for: "the text reload") { $0 == "snapshot: 15 tables\n" + expected }
        try json.stdout.wait(for: "the JSON reload") { events($0).count == 2 }
        let reload = events(json.stdout.text)[1]
        #expect(reload["event"] as? String == "reload")
        let change = try #require((reload["changes"] as? [[String: Any]])?.first)
        #expect(change["language"] as? String == "de")
        #expect(change["kind"] as? String == "updated")
        #expect(change["changed"] as? [String: String] == ["greeting": "Servus!"])
        #expect(change["added"] as? [String: String] == ["files.header": "Dateien"])
        #expect(change["removed"] as? [String] == ["map.cafe"])
        // Exactly as received: compact, one object per line, the members in protocol order.
        #expect(json.stdout.text.split(separator: "\n")[1].hasPrefix("{\"event\":\"reload\",\"epoch\":"))

        try text.process.send(.interrupt)
        #expect(text.waitForExit() == 0)
        #expect(text.errorText.isEmpty)

        #expect(try served.stop() == 0)
        #expect(!FileManager.default.fileExists(atPath: served.socket))
        #expect(json.waitForExit() == 3)
        #expect(json.errorText
            == "hotstrings subscribe: error: connection lost: the daemon at \(served.socket) closed the connection\n")
    }

    @Test func filtersLimitTheSnapshotAndParseErrorsPrintAsErrorLines() throws {
        let served = try ServedBundle()
        let filtered = try served.start(
            ["subscribe", "--format", "text", "--languages", "de,fr", "--tables", "InfoPlist"]
        )
        try filtered.stdout.wait(for: "the filtered snapshot") { $0 == "snapshot: 2 tables\n" }
        let json = try served.start(["subscribe", "--languages", "de", "--tables", "InfoPlist"])
        try json.stdout.wait(for: "the JSON snapshot") { !events($0).isEmpty }
        let tables = try #require(events(json.stdout.text).first?["tables"] as? [[String: Any]])
        #expect(tables.map { $0["file"] as? String } == ["de.lproj/InfoPlist.strings"])

        try served.save("\"CFBundleName\" = \"HotStrings\"\n\"x\" = \"y\";", to: "fr.lproj/InfoPlist.strings")
        try filtered.stdout.wait(for: "the error line") {
            $0.hasSuffix("error fr.lproj/InfoPlist.strings:2:1: missing ';' after the value of 'CFBundleName', "
                + "found '\"'\n")
        }
        try filtered.process.send(.terminate)
        #expect(filtered.waitForExit() == 0)
        try json.process.send(.interrupt)
        #expect(json.waitForExit() == 0)
        #expect(try served.stop() == 0)
    }

    @Test func noSnapshotStartsWithTheNextEvent() throws {
        let served = try ServedBundle()
        let subscriber = try served.start(["subscribe", "--no-snapshot", "--format", "text"])
        try waitUntil("the subscription") {
            let status = try served.run(["status", "--json"]).stdout
            return status.contains("\"subscribers\":1")
        }
        try served.save("\"greeting\" = \"Salut !\";\n", to: "fr.lproj/Localizable.strings")
        try subscriber.stdout.wait(for: "the reload") { $0.contains("reload fr/Localizable: ~greeting -") }
        #expect(subscriber.stdout.text.hasPrefix("reload fr/Localizable: ~greeting -welcome.title "))
        let keys = subscriber.stdout.text.split(separator: ":", maxSplits: 1)[1].split(separator: " ")
        #expect(keys.count == 12, "greeting changed, the 11 other keys removed (the .stringsdict keeps 2)")
        try subscriber.process.send(.interrupt)
        #expect(subscriber.waitForExit() == 0)
        #expect(try served.stop() == 0)
    }
}
