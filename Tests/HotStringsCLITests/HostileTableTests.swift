import Foundation
import HotStringsTestSupport
import HotStringsTestTraits
import StringsFormat
import Testing
@testable import HotStringsCLI

/// What a malicious translator can put in tables (issue 20): variables that expand k⁸-fold (finding 2), `%*d`
/// (finding 6), catalog languages that are paths (finding 7). `compile` refuses them (and `lint`: HotStringsLintTests'
/// `HostileTableLintTests`), the daemon keeps the last good table, `get` formats within bounds.
struct HostileTableTests {
    @Test(arguments: HostileTables.escapingLanguages)
    func compileRefusesALanguageThatIsNotATagAndWritesNothing(language: String) throws {
        try withFiles(["T.xcstrings": HostileTables.catalog(language: language)]) { root in
            let output = "\(root)/out/a"
            let result = run(["compile", "\(root)/T.xcstrings", output])
            #expect(result.code == ExitCode.failure)
            #expect(result.stdout.isEmpty)
            let shown = DisplayText.escaped(language)
            #expect(result.stderr == "\(root)/T.xcstrings:2:3: error: key 'greeting': language '\(shown)' is not a "
                + "language tag; nothing written\n")
            #expect(!FileManager.default.fileExists(atPath: "\(root)/out"))
            let left = try FileManager.default.contentsOfDirectory(atPath: root)
            #expect(left == ["T.xcstrings"])
        }
    }

    @Test func compileRefusesASourceLanguageThatIsNotATag() throws {
        let catalog = HostileTables.catalog(language: "fr", sourceLanguage: "../../escaped")
        try withFiles(["T.xcstrings": catalog]) { root in
            let result = run(["compile", "\(root)/T.xcstrings", "\(root)/out/a"])
            #expect(result.code == ExitCode.failure)
            #expect(result.stderr == "\(root)/T.xcstrings: error: sourceLanguage '../../escaped' is not a language "
                + "tag; nothing written\n")
            let left = try FileManager.default.contentsOfDirectory(atPath: root)
            #expect(left == ["T.xcstrings"])
        }
    }

    @Test func theWritingPointKeepsEveryFolderInTheOutputFolder() {
        #expect(CompileCommand.folder(of: "de", in: "/tmp/out")?.path == "/tmp/out/de.lproj")
        #expect(CompileCommand.folder(of: "pt_BR", in: "out/a")?.lastPathComponent == "pt_BR.lproj")
        for language in HostileTables.escapingLanguages + ["/etc", "de/../..", ".de"] {
            #expect(CompileCommand.folder(of: language, in: "/tmp/out") == nil, "\(language)")
        }
    }
}

/// The bombs and `%*d` against a real daemon and `get`.
@Suite(.needsHotstringsBinary)
struct HostileTableDaemonTests {
    @Test func theDaemonKeepsTheLastGoodTableAndOtherKeysAnswer() throws {
        let served = try ServedBundle()
        let good = ExpansionFixture.stringsdict(key: "bomb", format: "%#@n@", other: "%d items")
        try served.save(good, to: "en.lproj/Bomb.stringsdict")
        try waitUntil("the good table served") {
            try served.run(["get", "bomb", "--table", "Bomb"]).stdout == "%d items\n"
        }
        try served.save(HostileTables.pluralBomb, to: "en.lproj/Bomb.stringsdict")
        try served.sandbox.write(HostileTables.catalogBomb, to: "Hostile.xcstrings")
        try waitUntil("both errors in status") {
            let status = try served.run(["status"]).stdout
            return status.contains("en.lproj/Bomb.stringsdict:4:3: entry 'bomb': variable 'a' nests more than 8")
                && status.contains("Hostile.xcstrings:1:")
        }
        let bomb = try served.run(["get", "bomb", "--table", "Bomb"])
        #expect(bomb.stdout == "%d items\n", "the last good version")
        #expect(try served.run(["get", "bomb", "--table", "Bomb", "3"]).stdout == "3 items\n")
        #expect(try served.run(["get", "bomb", "--table", "Hostile"]).code == 1, "never served")
        #expect(try served.run(["get", "greeting"]).stdout == "Hello!\n")
        #expect(try served.stop() == 0)
    }

    @Test func getFormatsStarWidthsWithinBounds() throws {
        let served = try ServedBundle()
        try served.save("\"star\" = \"[%*d]\";\n\"precision\" = \"[%.*d]\";\n", to: "en.lproj/Star.strings")
        try waitUntil("the table served") { try served.run(["get", "star", "--table", "Star"]).stdout == "[%*d]\n" }
        for (count, expected) in [("9223372036854775807", "[7]"), ("4294967296", "[7]"), ("-5", "[7    ]"),
                                  ("-9223372036854775808", "[7]")] {
            // `--socket` before `--`, which makes the rest arguments (negative numbers too).
            let result = try runToEnd(["get", "star", "--table", "Star", "--socket", served.socket, "--", count, "7"])
            #expect(result.code == 0 && result.stdout == expected + "\n", "\(count): \(result)")
        }
        let precision = try runToEnd(["get", "precision", "--table", "Star", "--socket", served.socket, "--",
                                      "-5", "7"])
        #expect(precision.stdout == "[7]\n")
        let capped = try served.run(["get", "star", "--table", "Star", "2147483647", "7"])
        #expect(capped.code == 0 && capped.stdout.utf8.count == 1_000_003)
        #expect(try served.stop() == 0)
    }
}

/// Small `.stringsdict` texts for these tests.
enum ExpansionFixture {
    /// One entry `key` with one plural variable `n` whose `other` is `other`.
    static func stringsdict(key: String, format: String, other: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0">
        <dict>
          <key>\(key)</key>
          <dict>
            <key>NSStringLocalizedFormatKey</key><string>\(format)</string>
            <key>n</key>
            <dict>
              <key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>
              <key>NSStringFormatValueTypeKey</key><string>d</string>
              <key>other</key><string>\(other)</string>
            </dict>
          </dict>
        </dict>
        </plist>
        """
    }
}
