import Foundation
import StringsFormat
import Testing
@testable import HotStringsClient

/// `LiveStrings.snapshot()` and `snapshot(acceptLanguage:)`: one generation, frozen, in a request's languages.
struct SnapshotTests {
    @Test func aSnapshotAnswersFromItsGenerationWhateverReloadsCome() {
        let (strings, transport) = makeClient(environment: ["LANG": "de_DE.UTF-8"])
        transport.connect()
        let before = strings.snapshot()
        #expect(before.localizedString("greeting") == "Hallo")
        transport.emit(.reload(changes: [Fixtures.update("de/Localizable", changed: ["greeting": "Servus"],
                                                         removed: ["only.de"])]), seq: 2)
        transport.emit(.reload(changes: [Fixtures.update("en/Localizable", changed: ["only.en": "E2"])]), seq: 3)
        #expect(strings.localizedString("greeting") == "Servus")
        #expect(before.localizedString("greeting") == "Hallo")
        #expect(before.localizedString("only.de") == "D")
        #expect(before.localizedString("only.en") == "E")
        #expect(before.localizedString("nowhere", value: "fallback") == "fallback")
        #expect(before.localizedString("messages.received", arguments: ["Ana", 3]) == "Ana hat dir 3 Nachrichten geschickt")
        let after = strings.snapshot()
        #expect(after.generation == before.generation + 2)
        #expect(after.localizedString("greeting") == "Servus" && after.localizedString("only.de") == "only.de")
    }

    @Test func aRequestsAcceptLanguagePicksItsChainNotTheClients() throws {
        let (strings, transport) = makeClient(environment: ["LANG": "fr_FR.UTF-8"])
        transport.connect()
        strings.overrideLanguage("zh-Hans")
        let swiss = try strings.snapshot(acceptLanguage: "de-CH, fr;q=0.8")
        #expect(swiss.language == "de-CH")
        #expect(swiss.localizedString("greeting") == "Grüezi")
        #expect(swiss.localizedString("only.de") == "D")
        // fr answers what de lacks; the client's override (zh-Hans) does not apply.
        #expect(swiss.localizedString("only.fr") == "F")
        #expect(swiss.localizedString("only.en") == "E")
        let excluded = try strings.snapshot(acceptLanguage: "fr;q=0.9, de;q=0")
        #expect(excluded.language == "fr" && excluded.localizedString("only.de") == "only.de")
        let none = try strings.snapshot(acceptLanguage: "")
        #expect(none.language == "en" && none.localizedString("greeting") == "Hello")
        #expect(strings.localizedString("greeting") == "你好")
    }

    @Test func aHeaderIsResolvedOncePerGenerationAndAfterAReloadAgain() throws {
        let (strings, transport) = makeClient()
        transport.connect()
        let first = try strings.snapshot(acceptLanguage: "de")
        let again = try strings.snapshot(acceptLanguage: "de")
        #expect(first.mirror === again.mirror)
        transport.emit(.reload(changes: [Fixtures.update("de/Localizable", changed: ["greeting": "Moin"])]), seq: 2)
        let later = try strings.snapshot(acceptLanguage: "de")
        #expect(later.mirror !== first.mirror && later.generation == first.generation + 1)
        #expect(later.localizedString("greeting") == "Moin" && first.localizedString("greeting") == "Hallo")
    }

    @Test func aMalformedHeaderIsAnInvalidArgumentNamingTheProblem() {
        let (strings, transport) = makeClient()
        transport.connect()
        #expect(throws: LiveStringsError.invalidArgument(
            "invalid Accept-Language: 'de;q=7': the weight must be q= and a number from 0 to 1 with at most three "
                + "decimals")) { try strings.snapshot(acceptLanguage: "de;q=7") }
        do {
            _ = try strings.snapshot(acceptLanguage: String(repeating: "x", count: 5000))
            Issue.record("a 5000-byte header was read")
        } catch {
            #expect(error.code == .invalidArgument)
        }
    }

    @Test func aSnapshotHoldsItsOwnGenerationAliveAndNoMore() {
        let (strings, transport) = makeClient()
        transport.connect()
        weak var held: MirrorSnapshot?
        var snapshot: LiveStrings.Snapshot? = strings.snapshot()
        held = snapshot?.mirror
        for seq in UInt64(2)...6 {
            transport.emit(.reload(changes: [Fixtures.update("en/Localizable", changed: ["greeting": "H\(seq)"])]),
                           seq: seq)
            _ = strings.localizedString("greeting")
        }
        #expect(held != nil && snapshot?.localizedString("greeting") == "Hello")
        snapshot = nil
        #expect(held == nil, "the snapshot's generation outlived the last snapshot of it")
    }
}
