import Foundation
import HotStringsTestSupport
import HotStringsTestTraits
import Testing

/// `serve --pseudo-languages` as a real daemon: `en-XA` and `ar-XB` are listed, looked up, selected, and remade in
/// the reload of a save of the development language's file.
@Suite(.needsHotstringsBinary)
struct PseudoLanguageDaemonTests {
    func events(_ text: String) -> [[String: Any]] {
        text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().compactMap { line in
            try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        }
    }

    @Test func pseudoLanguagesAreServedSelectedAndRemadeInTheSourcesReload() throws {
        let sandbox = try Sandbox(prefix: "hs-pseudo-")
        let daemon = try DaemonProcess.serving(sandbox, arguments: ["--pseudo-languages"])
        func run(_ arguments: [String]) throws -> ProcessRun { try runToEnd(arguments + ["--socket", sandbox.socket]) }

        let languages = try #require(try JSONSerialization.jsonObject(
            with: Data(try run(["languages", "--json"]).stdout.utf8)) as? [String: Any])
        let names = (languages["languages"] as? [[String: Any]] ?? []).compactMap { $0["language"] as? String }
        #expect(names == ["Base", "ar-XB", "de", "en", "en-XA", "fr", "pt-BR", "zh-Hans"])
        #expect(try run(["get", "greeting", "--language", "en-XA"]).stdout == "[Ĥéļļö¡ one two]\n")
        #expect(try run(["get", "greeting", "--language", "ar-XB"]).stdout == "\u{202E}Hello\u{202C}!\n")
        #expect(try run(["get", "items.count", "--language", "en-XA"]).stdout == "[%d îţéḿš one two]\n")

        let subscriber = try HotstringsProcess(["subscribe", "--no-snapshot", "--socket", sandbox.socket])
        try waitUntil("the subscription") { try run(["status", "--json"]).stdout.contains("\"subscribers\":1") }
        let english = try String(contentsOfFile: sandbox.bundle + "/en.lproj/Localizable.strings", encoding: .utf16)
        try sandbox.save(english.replacingOccurrences(of: "\"Hello!\"", with: "\"Howdy!\""),
                         to: "en.lproj/Localizable.strings")
        try subscriber.stdout.wait(for: "the reload") { !events($0).isEmpty }
        // An event after the reload: whatever the save caused has been sent before it.
        #expect(try run(["select-language", "en-XA"]).stdout == "en-XA\n")
        try subscriber.stdout.wait(for: "the language event") { events($0).last?["event"] as? String == "language" }

        let received = events(subscriber.stdout.text)
        #expect(received.compactMap { $0["event"] as? String } == ["reload", "language"])
        let changes = try #require(received.first?["changes"] as? [[String: Any]])
        #expect(changes.compactMap { $0["language"] as? String } == ["ar-XB", "en", "en-XA"])
        #expect(changes.allSatisfy { $0["file"] as? String == "en.lproj/Localizable.strings" })
        #expect(changes.compactMap { $0["changed"] as? [String: String] } == [
            ["greeting": "\u{202E}Howdy\u{202C}!"], ["greeting": "Howdy!"], ["greeting": "[Ĥöŵðý¡ one two]"],
        ])
        #expect(try run(["get", "greeting", "--language", "en-XA"]).stdout == "[Ĥöŵðý¡ one two]\n")
        // Selected: a lookup without preferences gets the pseudo-language.
        #expect(try run(["get", "greeting"]).stdout == "[Ĥöŵðý¡ one two]\n")

        try subscriber.process.send(.interrupt)
        #expect(subscriber.waitForExit() == 0)
        #expect(try daemon.terminate() == 0)
    }

    @Test func withoutTheOptionThereAreNoPseudoLanguages() throws {
        let sandbox = try Sandbox(prefix: "hs-pseudo-")
        let daemon = try DaemonProcess.serving(sandbox)
        let languages = try runToEnd(["languages", "--socket", sandbox.socket]).stdout
        #expect(!languages.contains("en-XA") && !languages.contains("ar-XB"))
        // en-XA is English of a region the bundle does not have: en answers.
        #expect(try runToEnd(["get", "greeting", "-l", "en-XA", "--socket", sandbox.socket]).stdout == "Hello!\n")
        #expect(try daemon.terminate() == 0)
    }
}
