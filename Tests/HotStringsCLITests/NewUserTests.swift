import Foundation
import HotStringsTestSupport
import HotStringsTestTraits
import Testing
@testable import HotStringsCLI

/// What a new user tripped over in the command line (issue 37): misspelt names get a "did you mean", a required
/// option reads as required, help names every format it reads and every folder as it is named, and `serve` in a
/// folder without a language folder says so.
@Suite struct NewUserTests {
    @Test(arguments: [
        (["serv"], "unknown command 'serv'; did you mean 'serve'?"),
        (["lnit", "x"], "unknown command 'lnit'; did you mean 'lint'?"),
        (["pulll", "u", "b"], "unknown command 'pulll'; did you mean 'pull'?"),
        (["help", "publsh"], "unknown command 'publsh'; did you mean 'publish'?"),
        (["--verison"], "unknown option '--verison'; did you mean '--version'?"),
        (["lint", "--jsno", "x"], "unknown option '--jsno'; did you mean '--json'?"),
        (["set", "k", "v", "--langauge", "de"], "unknown option '--langauge'; did you mean '--language'?"),
        (["serve", "--pseudo-language"], "unknown option '--pseudo-language'; did you mean '--pseudo-languages'?"),
        (["get", "k", "--hepl"], "unknown option '--hepl'; did you mean '--help'?"),
    ])
    func aMisspeltNameGetsADidYouMean(arguments: [String], message: String) {
        let result = run(arguments)
        #expect(result.code == 64)
        #expect(result.stderr.contains(message + "\n"), "\(result.stderr)")
    }

    @Test func aNameNearNothingGetsNoGuess() {
        for arguments in [["frobnicate"], ["lint", "--frob", "x"], ["x"], ["get", "k", "--z"]] {
            let result = run(arguments)
            #expect(result.code == 64 && result.stderr.contains("unknown ") && !result.stderr.contains("did you mean"),
                    "\(arguments): \(result.stderr)")
        }
    }

    @Test func editDistanceCountsASwapAsOneEdit() {
        let cases: [(String, String, Int)] = [("jsno", "json", 1), ("serv", "serve", 1), ("", "ab", 2),
                                              ("abc", "abc", 0), ("kitten", "sitting", 3), ("ca", "abc", 3),
                                              ("lnit", "lint", 1)]
        for (a, b, distance) in cases {
            #expect(Suggestion.editDistance(Array(a), Array(b)) == distance, "\(a) \(b)")
        }
        #expect(Suggestion.closest(to: "gte", among: ["set", "get"]) == "get")
    }

    @Test(arguments: ["set", "remove"])
    func theLanguageOfAnEditReadsAsRequired(command: String) {
        let help = run([command, "--help"]).stdout
        #expect(help.contains(" --language <lang> "), "\(help)")
        #expect(!help.contains("[--language <lang>]"), "\(help)")
        #expect(help.contains("(required)"), "\(help)")
        let missing = run(command == "set" ? ["set", "k", "v"] : ["remove", "k"])
        #expect(missing.code == 64 && missing.stderr.contains("missing option --language"), "\(missing.stderr)")
    }

    @Test func helpNamesEveryFormatAndTheReleaseFoldersAsTheyAre() {
        let overview = run(["--help"]).stdout
        #expect(overview.hasPrefix("OVERVIEW: ") && overview.split(separator: "\n")[0].contains(".stringsdict"))
        let lint = run(["lint", "--help"]).stdout
        #expect(lint.split(separator: "\n")[0].contains(".stringsdict"), "\(lint)")
        #expect(lint.contains("*.strings, *.stringsdict and *.xcstrings"), "\(lint)")
        let pull = run(["pull", "--help"]).stdout
        #expect(pull.contains("BUNDLE/..r-<release>") && !pull.contains("BUNDLE/..<release>"), "\(pull)")
    }

    /// `serve` in a folder with no `<language>.lproj` (a repository's root) warns, naming the folder, and still
    /// serves; a bundle's folder does not warn.
    @Test(.needsHotstringsBinary) func serveWarnsWithoutALanguageFolder() throws {
        let sandbox = try Sandbox()
        let notABundle = sandbox.root + "/repository"
        try FileManager.default.createDirectory(atPath: notABundle + "/Tests/Fixtures",
                                                withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: sandbox.bundle + "/Settings.xcstrings",
                                         toPath: notABundle + "/Tests/Fixtures/Settings.xcstrings")
        for (root, warns) in [(notABundle, true), (sandbox.bundle, false)] {
            let daemon = try HotstringsProcess(["serve", root, "--socket", sandbox.root + "/w.sock",
                                                "--state-dir", sandbox.root + "/state"])
            try waitUntil("the daemon to serve \(root)") { daemon.errorText.contains("serving ") }
            let warning = "warning: no language folder (<language>.lproj) in \(root): is it the bundle?"
            #expect(daemon.errorText.contains(warning) == warns, "\(daemon.errorText)")
            #expect(daemon.terminate() == 0)
        }
    }
}
