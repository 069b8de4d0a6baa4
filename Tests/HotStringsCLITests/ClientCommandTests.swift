import Foundation
import HotStringsTestSupport
import HotStringsTestTraits
import Testing

/// `get`, `table`, `languages`, `select-language` and `status` as real processes against a real daemon.
@Suite(.needsHotstringsBinary)
struct ClientCommandTests {
    /// The JSON object a command printed on one line.
    func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test(arguments: [
        (["greeting"], "Hello!\n"),
        (["greeting", "--language", "de"], "Hallo!\n"),
        (["greeting", "--language", "de-CH"], "Hallo!\n"),
        (["greeting", "-l", "it,fr"], "Bonjour !\n"),
        (["button.ok", "--language", "de"], "OK\n"),
        (["CFBundleDisplayName", "--table", "InfoPlist", "--language", "de"], "HotStrings-Demo\n"),
    ])
    func getPrintsTheResolvedValue(arguments: [String], expected: String) throws {
        let served = try ServedBundle()
        let result = try served.run(["get"] + arguments)
        #expect(result.stdout == expected)
        #expect(result.stderr.isEmpty)
        #expect(result.code == 0)
        #expect(try served.stop() == 0)
    }

    @Test func getSaysWhichLanguageAnsweredAndExitsOneWhenNoneDid() throws {
        let served = try ServedBundle()
        let fallback = try served.run(["get", "greeting", "--language", "de-CH", "--json"])
        #expect(fallback.code == 0)
        let answer = try object(fallback.stdout)
        #expect(answer["value"] as? String == "Hallo!")
        #expect(answer["language"] as? String == "de")
        #expect(answer["found"] as? Bool == true)

        let missing = try served.run(["get", "no.such.key", "--language", "de"])
        #expect(missing.code == 1)
        #expect(missing.stdout.isEmpty)
        #expect(missing.stderr == "hotstrings get: error: no value for 'no.such.key' in table 'Localizable' "
            + "(tried de and the fallbacks)\n")

        let missingJSON = try served.run(["get", "no such key", "--json"])
        #expect(missingJSON.code == 1)
        let missingAnswer = try object(missingJSON.stdout)
        #expect(missingAnswer["value"] as? String == "no such key")
        #expect(missingAnswer["found"] as? Bool == false)
        #expect(try served.stop() == 0)
    }

    @Test func tablePrintsWhatDumpPrintsForTheSameFile() throws {
        let served = try ServedBundle()
        for (language, table) in [("de", "Localizable"), ("en", "Localizable"), ("fr", "InfoPlist")] {
            let served = try served.run(["table", language, "--table", table])
            let dumped = try runToEnd(["dump", "\(sampleBundlePath)/\(language).lproj/\(table).strings"])
            #expect(served.code == 0)
            #expect(served.stdout == dumped.stdout, "\(language)/\(table)")
            #expect(served.stdout.hasPrefix("{\n  \""))
        }
        let missing = try served.run(["table", "it"])
        #expect(missing.code == 1)
        #expect(missing.stdout.isEmpty)
        #expect(missing.stderr == "hotstrings table: error: no table 'Localizable' in language 'it'\n")
        #expect(try served.stop() == 0)
    }

    @Test func languagesMarkTheDevelopmentAndTheSelectedLanguage() throws {
        let served = try ServedBundle()
        let before = try served.run(["languages"])
        #expect(before.code == 0)
        let lines = before.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 6)
        #expect(lines.contains("de       InfoPlist 4 keys, Localizable 13 keys, Settings 4 keys"))
        #expect(lines.contains("en       InfoPlist 4 keys, Localizable 14 keys, Settings 4 keys  (development language)"))
        #expect(lines.first == "Base     InfoPlist 2 keys, Localizable 3 keys")

        #expect(try served.run(["select-language", "fr"]).stdout == "fr\n")
        let after = try served.run(["languages"])
        #expect(after.stdout.contains("\nfr       InfoPlist 4 keys, Localizable 14 keys, Settings 4 keys  (selected)\n"))
        let json = try object(try served.run(["languages", "--json"]).stdout)
        #expect(json["selected"] as? String == "fr")
        #expect(json["developmentLanguage"] as? String == "en")
        #expect((json["languages"] as? [Any])?.count == 6)
        #expect(try served.stop() == 0)
    }

    @Test func languagesResolvePrintsTheChainWithItsReasons() throws {
        let served = try ServedBundle()
        let chain = try served.run(["languages", "--resolve", "de-AT", "pt", "zh-CN", "zh-TW"])
        #expect(chain.code == 0)
        #expect(chain.stdout == """
            1. de       for de-AT: language and script de
            2. pt-BR    for pt: same as pt-Latn-BR (likely subtags)
            3. zh-Hans  for zh-CN: same as zh-Hans-CN (likely subtags)
            4. en       development language en: exact
            5. Base     base internationalization

            """)
        #expect(try served.run(["select-language", "fr"]).code == 0)
        let json = try object(try served.run(["languages", "--resolve", "--json", "iw"]).stdout)
        let steps = try #require(json["chain"] as? [[String: Any]])
        #expect(steps.compactMap { $0["language"] as? String } == ["fr", "en", "Base"])
        #expect(steps.compactMap { $0["source"] as? String } == ["selected", "development", "base"])
        #expect(try served.stop() == 0)
    }

    @Test func languagesAcceptPrintsTheChainOfAnAcceptLanguageHeader() throws {
        let served = try ServedBundle()
        // fr first by weight; de-CH answered by de; en excluded from the preferences yet still the development
        // language; `*` adds nothing of its own.
        let chain = try served.run(["languages", "--accept", "de-CH;q=0.9, fr, *;q=0.1, en-GB;q=0.5, en;q=0"])
        #expect(chain.code == 0, "\(chain.stderr)")
        #expect(chain.stdout == """
            1. fr    for fr: exact
            2. de    for de-CH: language and script de
            3. en    development language en: exact
            4. Base  base internationalization

            """)
        let json = try object(try served.run(["languages", "--accept", "pt-PT", "--json"]).stdout)
        let steps = try #require(json["chain"] as? [[String: Any]])
        #expect(steps.compactMap { $0["language"] as? String } == ["pt-BR", "en", "Base"])
        #expect(try served.stop() == 0)
    }

    @Test func selectLanguageNormalizesRefusesAndClears() throws {
        let served = try ServedBundle()
        let unsupported = try served.run(["select-language", "it"])
        #expect(unsupported.code == 1)
        #expect(unsupported.stdout.isEmpty)
        #expect(unsupported.stderr == """
            hotstrings select-language: error: unsupported language 'it'
            available languages: de, en, fr, pt-BR, zh-Hans

            """)
        let regional = try served.run(["select-language", "de_at"])
        #expect(regional.code == 0)
        #expect(regional.stdout == "de-AT\n")
        #expect(try served.run(["get", "greeting"]).stdout == "Hallo!\n")

        let cleared = try served.run(["select-language", "--clear"])
        #expect(cleared.code == 0)
        #expect(cleared.stdout.isEmpty)
        #expect(try served.run(["get", "greeting"]).stdout == "Hello!\n")
        #expect(try served.stop() == 0)
    }

    @Test func aSelectedLanguageReachesARunningSubscriber() throws {
        let served = try ServedBundle()
        let subscriber = try served.start(["subscribe", "--format", "text", "--no-snapshot"])
        // The status shows the subscriber once the daemon has registered it; only then can it miss nothing.
        try waitForSubscribers(1, served)
        #expect(try served.run(["select-language", "pt_br"]).stdout == "pt-BR\n")
        try subscriber.stdout.wait(for: "the language event") { $0.contains("language pt-BR (was none)\n") }
        #expect(try served.run(["select-language", "zh-Hans"]).code == 0)
        try subscriber.stdout.wait(for: "the second language event") { $0.hasSuffix("language zh-Hans (was pt-BR)\n") }
        try subscriber.process.send(.interrupt)
        #expect(subscriber.waitForExit() == 0)
        #expect(subscriber.stdout.text == "language pt-BR (was none)\nlanguage zh-Hans (was pt-BR)\n")
        #expect(try served.stop() == 0)
    }

    @Test func statusSummarizesAndJSONHasEveryField() throws {
        let served = try ServedBundle()
        let text = try served.run(["status"])
        #expect(text.code == 0)
        let rows = Dictionary(text.stdout.split(separator: "\n").map { line in
            let parts = line.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
            return (String(parts[0]), parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : "")
        }, uniquingKeysWith: { $1 })
        #expect(rows["files"] == "16", "12 .strings, 3 .stringsdict and 1 .xcstrings files")
        #expect(rows["tables"] == "15", "Settings.xcstrings is table Settings in en, de and fr")
        #expect(rows["subscribers"] == "0")
        #expect(text.stdout.contains("last errors          none\n"))
        #expect(text.stdout.hasPrefix("root                 /"))

        try served.save("\"greeting\" = \"Hallo\"\n\"broken\" = ;", to: "de.lproj/Localizable.strings")
        try waitUntil("the parse error in status") {
            try served.run(["status"]).stdout.contains("last errors          1\n")
        }
        let withError = try served.run(["status"]).stdout
        let problem = "de.lproj/Localizable.strings:2:1: missing ';' after the value of 'greeting', found '\"'"
        #expect(withError.hasSuffix("\n  \(problem)\n"))
        let json = try object(try served.run(["status", "--json"]).stdout)
        for field in ["root", "rootPresent", "watchedDirectories", "files", "tables", "subscribers", "connections",
                      "lastErrors", "uptime", "epoch", "seq"] {
            #expect(json[field] != nil, "\(field)")
        }
        #expect(try served.stop() == 0)
    }

    /// Polls `status --json` until the daemon counts `count` subscribers.
    func waitForSubscribers(_ count: Int, _ served: ServedBundle) throws {
        try waitUntil("\(count) subscribers") {
            try object(try served.run(["status", "--json"]).stdout)["subscribers"] as? Int == count
        }
    }
}
