import HotStringsProtocol
import HotStringsTestSupport
import StringsFormat
import Testing
@testable import HotStringsClient

/// The current language: where it comes from, how tags are spelled, and what a switch reports.
struct LanguageTests {
    @Test(arguments: [
        // LANGUAGE is a list; codesets and modifiers go; the first non-empty locale variable decides.
        (["LANGUAGE": "de_CH:fr::en", "LANG": "it_IT.UTF-8"], ["de-CH", "fr", "en"]),
        (["LANGUAGE": "", "LANG": "pt_BR.UTF-8"], ["pt-BR"]),
        (["LANGUAGE": "C:", "LANG": "pt_BR.UTF-8"], ["pt-BR"]),
        (["LANG": "de_DE.UTF-8@euro"], ["de-DE"]),
        (["LC_MESSAGES": "fr_CA", "LANG": "de_DE"], ["fr-CA"]),
        (["LC_ALL": "ja_JP.eucJP", "LC_MESSAGES": "fr_CA", "LANG": "de_DE"], ["ja-JP"]),
        (["LC_ALL": "", "LC_MESSAGES": "fr_CA"], ["fr-CA"]),
        (["LANG": "zh_Hans_CN.UTF-8"], ["zh-Hans-CN"]),
        (["LANG": "sr_RS@latin"], ["sr-RS"]),
        // C and POSIX mean no translation, and then LANGUAGE is ignored too, as in gettext.
        (["LANG": "C"], []),
        (["LANG": "C.UTF-8"], []),
        (["LC_ALL": "POSIX", "LANGUAGE": "de"], []),
        (["LC_ALL": "C", "LANG": "de_DE"], []),
        // LANGUAGE without any locale variable still counts (gettext would be in the C locale).
        (["LANGUAGE": "de:fr"], ["de", "fr"]),
        (["LANGUAGE": "de:de_DE.UTF-8:de"], ["de", "de-DE"]),
        ([:], []),
        (["LANG": "not a tag!"], []),
    ] as [([String: String], [String])])
    func environmentPreferences(environment: [String: String], expected: [String]) {
        #expect(LanguageTags.environmentPreferences(environment) == expected)
    }

    @Test(arguments: [
        ("de_ch", "de-CH"), ("DE-ch", "de-CH"), ("zh_hans_cn", "zh-Hans-CN"), ("German", "de"), ("english", "en"),
        ("base", "Base"), ("en-u-ca-gregory", "en-u-ca-gregory"), ("es-419", "es-419"), ("pt_BR", "pt-BR"),
    ])
    func tagsAreSpelledAsTheDaemonSpellsThem(tag: String, canonical: String) {
        #expect(LanguageTags.canonical(tag) == canonical)
    }

    @Test(arguments: ["", "de-", "-de", "de--CH", "1de", "de CH", "dé"])
    func nonTagsAreRejected(tag: String) {
        #expect(LanguageTags.canonical(tag) == nil)
    }

    @Test func fallbacksDropOneSubtagAtATime() {
        #expect(LanguageTags.fallbacks(of: "zh-Hans-CN") == ["zh-Hans-CN", "zh-Hans", "zh"])
        #expect(LanguageTags.fallbacks(of: "en-u-ca-gregory") == ["en-u-ca-gregory", "en-u-ca", "en"])
        #expect(LanguageTags.fallbacks(of: "de") == ["de"])
    }

    struct PrecedenceCase: Sendable {
        var override: String?
        var selected: String?
        var environment: String?
        var expected: String
    }

    @Test(arguments: [
        PrecedenceCase(override: "fr", selected: "de", environment: "zh_Hans", expected: "fr"),
        PrecedenceCase(selected: "de", environment: "zh_Hans", expected: "de"),
        PrecedenceCase(environment: "zh_Hans", expected: "zh-Hans"),
        PrecedenceCase(environment: "de_CH.UTF-8", expected: "de-CH"),  // de-CH's table counts, via de too
        PrecedenceCase(environment: "it_IT", expected: "en"),  // the bundle has no Italian
        PrecedenceCase(expected: "en"),
        PrecedenceCase(override: "pt_br", expected: "pt-BR"),  // a local override is taken as given
    ])
    func precedence(_ testCase: PrecedenceCase) {
        let (strings, transport) = makeClient(environment: testCase.environment.map { ["LANG": $0] } ?? [:])
        transport.connect(selected: testCase.selected)
        strings.overrideLanguage(testCase.override)
        #expect(strings.currentLanguage == testCase.expected)
    }

    @Test func theEnvironmentPicksTheFirstLanguageTheBundleHas() {
        let (strings, transport) = makeClient(environment: ["LANGUAGE": "it:fr:de", "LANG": "it_IT.UTF-8"])
        transport.connect()
        #expect(strings.currentLanguage == "fr")
        #expect(strings.localizedString("greeting") == "Bonjour")
        #expect(strings.supportedLanguages == ["de", "de-CH", "en", "fr", "zh-Hans"])
        #expect(strings.developmentLanguage == "en")
    }

    @Test func aDaemonLanguageEventSwitchesAndReportsOnlyTheValuesThatDiffer() throws {
        let (strings, transport) = makeClient(environment: ["LANG": "de"])
        transport.connect()
        let recorder = ChangeRecorder()
        let token = recorder.record(strings)
        transport.emit(.language(language: LanguageTag("fr"), previous: nil), seq: 2)
        #expect(strings.currentLanguage == "fr")
        #expect(strings.selectedLanguage == "fr")
        let changes = recorder.take()
        try #require(changes.count == 1)
        #expect(changes[0].cause == .language)
        #expect(changes[0].tables.isEmpty)
        // `button.ok` is "OK" in both; only.de falls back to its key; only.fr appears; InfoPlist comes in.
        #expect(changes[0].keys == [
            "Localizable": ["greeting", "messages.received", "only.de", "only.fr"],
            "InfoPlist": ["CFBundleName"],
        ])
        // The local override wins; clearing it goes back to the selection.
        strings.overrideLanguage("de")
        #expect(strings.localizedString("greeting") == "Hallo")
        strings.overrideLanguage(nil)
        #expect(strings.localizedString("greeting") == "Bonjour")
        #expect(recorder.take().map(\.cause) == [.language, .language])
        // Switching to a language with the same values reports nothing.
        strings.overrideLanguage("fr-FR")
        #expect(strings.currentLanguage == "fr-FR")
        #expect(recorder.take().isEmpty)
        _ = token
    }

    @Test func setLanguageGoesThroughTheDaemon() async throws {
        let transport = FakeTransport { transport, request in
            guard case .selectLanguage(let language) = request else { return .success(.missingReported) }
            guard language == "fr" else {
                return .failure(.rejected(code: "unsupported_language", message: "unsupported language",
                                          available: ["de", "en", "fr"]))
            }
            // The daemon's event comes before its answer.
            transport.emit(.language(language: LanguageTag("fr"), previous: nil), seq: 2)
            return .success(.selection(SelectLanguageAnswer(selected: "fr")))
        }
        let (strings, _) = makeClient(transport: transport)
        transport.connect()
        try await strings.setLanguage("fr")
        #expect(transport.requests.last == .selectLanguage("fr"))
        #expect(strings.localizedString("greeting") == "Bonjour")
        await #expect(throws: LiveStringsError.rejected(code: "unsupported_language", message: "unsupported language",
                                                         available: ["de", "en", "fr"])) {
            try await strings.setLanguage("xx")
        }
    }

    @Test func aLanguageOutsideTheSubscribedOnesSubscribesAgain() throws {
        let (strings, transport) = makeClient(environment: ["LANG": "de_CH"], languages: ["de"])
        transport.emit(.connected)
        let first = transport.takeCommands()
        try #require(first.count == 2)
        guard case .subscribe(let subscription) = first[0] else { throw Failure("expected a subscribe") }
        #expect(subscription.languages == ["Base", "de", "de-CH", "en"])
        #expect(subscription.since == nil)
        #expect(first[1] == .refreshServerInfo)
        transport.emit(.snapshot(tables: Fixtures.payloads(Fixtures.bundle)), seq: 1)
        transport.emit(.serverInfo(Fixtures.info(Fixtures.bundle)))
        #expect(transport.takeCommands().isEmpty)
        strings.overrideLanguage("fr")
        let again = transport.takeCommands()
        // de-CH stays: it answers the configured de too (another region of de, as LanguageMatcher finds).
        #expect(again == [.subscribe(Subscription(languages: ["Base", "de", "de-CH", "en", "fr"], snapshot: true))])
        #expect(!strings.isSynchronized)
        transport.emit(.snapshot(tables: Fixtures.payloads(Fixtures.bundle)), seq: 1)
        #expect(strings.isSynchronized)
        #expect(strings.localizedString("greeting") == "Bonjour")
    }
}

/// A test failure with a message.
struct Failure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
