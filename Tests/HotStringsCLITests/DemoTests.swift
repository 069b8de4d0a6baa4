import Foundation
import HotStringsClient
import HotStringsTestTraits
import Testing
@testable import HotStringsCLI

/// The environment of a demo run: no locale variables, so the language is the daemon's choice.
private let neutralLocale = ["LANGUAGE": "", "LC_ALL": "C", "LC_MESSAGES": "", "LANG": "C"]

/// `hotstrings demo` as a user runs it: the real binary against a real daemon on a copy of `sample-bundle`.
@Suite(.needsHotstringsBinary)
struct DemoTests {
    @Test func aFrameFollowsTheLanguageSelectedByAnotherProcess() throws {
        let served = try ServedBundle()
        let english = try runToEnd(["demo", "--once", "--socket", served.socket], environment: neutralLocale)
        #expect(english.code == 0, "stderr: \(english.stderr)")
        #expect(english.stdout.contains("  Hello!\n"))
        #expect(english.stdout.contains("Welcome to HotStrings"))
        #expect(english.stdout.contains("Ana sent you 3 messages"))
        #expect(english.stdout.contains("language:    en;"))
        #expect(!english.stdout.contains("\u{1B}["), "--once prints no terminal control codes")

        let selected = try served.run(["select-language", "de"])
        #expect(selected.code == 0 && selected.stdout == "de\n", "stderr: \(selected.stderr)")
        let german = try runToEnd(["demo", "--once", "--socket", served.socket], environment: neutralLocale)
        #expect(german.code == 0, "stderr: \(german.stderr)")
        #expect(german.stdout.contains("  Hallo!\n"))
        #expect(german.stdout.contains("Ana hat dir 3 Nachrichten geschickt"))
        #expect(german.stdout.contains("[ Schließen ]"))
        #expect(german.stdout.contains("language:    de (selected: de)"))
    }

    @Test func aFrameShowsAnEditedFile() throws {
        let served = try ServedBundle()
        // A subscriber shows when the daemon has the edit, so the frame cannot be drawn before it.
        let subscriber = try served.start(["subscribe", "--format", "text"])
        try subscriber.stdout.wait(for: "the snapshot") { $0.contains("snapshot: ") }
        try served.save(#""greeting" = "Salut, le monde !";"#, to: "fr.lproj/Localizable.strings")
        try subscriber.stdout.wait(for: "the reload") { $0.contains("reload fr/Localizable") }
        let french = ["LANGUAGE": "fr", "LC_ALL": "fr_FR.UTF-8"]
        let frame = try runToEnd(["demo", "--once", "--socket", served.socket], environment: french)
        #expect(frame.code == 0, "stderr: \(frame.stderr)")
        #expect(frame.stdout.contains("  Salut, le monde !\n"))
        // Keys the edited file no longer has fall back to the development language.
        #expect(frame.stdout.contains("Welcome to HotStrings"))
    }

    @Test func withoutADaemonTheFrameSaysItIsWaiting() throws {
        let socket = FileManager.default.temporaryDirectory.appendingPathComponent("hs-demo-\(UUID().uuidString)").path
        let result = try runToEnd(["demo", "--once", "--socket", socket, "--timeout", "0.3"])
        #expect(result.code == 2)
        #expect(result.stdout.contains("waiting for the daemon at \(socket)"))
        #expect(result.stderr == "hotstrings demo: error: no answer from the daemon at \(socket)\n")
    }

    @Test(arguments: [
        (LocalizationChange(cause: .reload, language: "de", tables: [LocalizedTable(language: "de", table: "L")],
                            keys: ["L": ["greeting"]]),
         "file edit: de/L, 1 key (greeting)"),
        (LocalizationChange(cause: .language, language: "fr", keys: ["L": ["a", "b", "c", "d"]]),
         "language switched to fr, 4 keys (a, b, c, …)"),
        (LocalizationChange(cause: .snapshot, language: "en", keys: [:]), "snapshot, 0 keys"),
    ])
    func theLastChangeLine(change: LocalizationChange, expected: String) {
        let line = DemoScreen.describe(change, at: Date())
        #expect(line.split(separator: " ", maxSplits: 1).last.map(String.init) == expected)
    }

    @Test(arguments: [["demo", "extra"], ["demo", "--table", ""]])
    func usageErrors(arguments: [String]) {
        let result = run(arguments)
        #expect(result.code == 64)
        #expect(result.stderr.hasPrefix("hotstrings demo: error: "))
    }
}
