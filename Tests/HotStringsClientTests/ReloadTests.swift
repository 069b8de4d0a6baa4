import HotStringsProtocol
import Testing
@testable import HotStringsClient

/// Which changes fire reload hooks, with which keys: values are compared after the fallback chain.
struct ReloadTests {
    @Test func theFirstSnapshotReportsEveryKeyOnce() throws {
        let (strings, transport) = makeClient(environment: ["LANG": "de"])
        let recorder = ChangeRecorder()
        let token = recorder.record(strings)
        transport.connect()
        let changes = recorder.take()
        try #require(changes.count == 1)
        #expect(changes[0].cause == .snapshot)
        #expect(changes[0].language == "de")
        #expect(changes[0].keys["Localizable"] == ["greeting", "only.de", "only.en", "only.base", "button.ok",
                                                     "messages.received"])
        #expect(changes[0].tables.contains(LocalizedTable(language: "de", table: "Localizable")))
        #expect(!changes[0].tables.contains(LocalizedTable(language: "fr", table: "Localizable")))
        token.cancel()
    }

    @Test func anEditFiresOnceWithItsKeysAndLookupsSeeTheNewValue() throws {
        let (strings, transport) = makeClient(environment: ["LANG": "de"])
        transport.connect()
        let recorder = ChangeRecorder()
        let token = recorder.record(strings)
        transport.emit(.reload(changes: [
            Fixtures.update("de/Localizable", added: ["new": "Neu"], changed: ["greeting": "Servus"]),
        ]), seq: 2)
        let changes = recorder.take()
        try #require(changes.count == 1)
        #expect(changes[0] == LocalizationChange(
            cause: .reload, language: "de", tables: [LocalizedTable(language: "de", table: "Localizable")],
            keys: ["Localizable": ["greeting", "new"]]))
        #expect(strings.localizedString("greeting") == "Servus")
        #expect(strings.localizedString("new") == "Neu")
        _ = token
    }

    struct DependentCase: Sendable, CustomTestStringConvertible {
        var change: String
        var key: String
        var value: String?
        var fires: Bool
        var testDescription: String { "\(change) \(key) → \(value ?? "removed"): \(fires ? "fires" : "silent")" }
    }

    /// A client in `de-CH`: its chain is de-CH, de, en, Base.
    static let dependentCases: [DependentCase] = [
        DependentCase(change: "de/Localizable", key: "greeting", value: "Servus", fires: false),  // de-CH has it
        DependentCase(change: "de/Localizable", key: "only.de", value: "D2", fires: true),
        DependentCase(change: "de/Localizable", key: "only.en", value: "aus de", fires: true),  // de now wins
        DependentCase(change: "en/Localizable", key: "only.de", value: "from en", fires: false),  // de wins
        DependentCase(change: "en/Localizable", key: "only.en", value: nil, fires: true),  // falls to the key
        DependentCase(change: "Base/Localizable", key: "greeting", value: "Yo", fires: false),
        DependentCase(change: "Base/Localizable", key: "only.base", value: "B2", fires: true),
        DependentCase(change: "fr/Localizable", key: "only.fr", value: "F2", fires: false),  // not in the chain
        DependentCase(change: "de-CH/Localizable", key: "greeting", value: "Hoi", fires: true),
        DependentCase(change: "de-CH/Localizable", key: "greeting", value: "Grüezi", fires: false),  // same value
        DependentCase(change: "de-CH/Localizable", key: "only.de", value: "D", fires: false),  // same effective
    ]

    @Test(arguments: dependentCases)
    func fallbackLanguageChangesFireOnlyWhenTheEffectiveValueChanges(_ testCase: DependentCase) {
        let (strings, transport) = makeClient(environment: ["LANG": "de_CH.UTF-8"])
        transport.connect()
        let recorder = ChangeRecorder()
        let token = recorder.record(strings)
        let change = testCase.value.map { value in
            Fixtures.bundle[testCase.change]?[testCase.key] == nil
                ? Fixtures.update(testCase.change, added: [testCase.key: value])
                : Fixtures.update(testCase.change, changed: [testCase.key: value])
        } ?? Fixtures.update(testCase.change, removed: [testCase.key])
        transport.emit(.reload(changes: [change]), seq: 2)
        let changes = recorder.take()
        if testCase.fires {
            #expect(changes.map(\.keys) == [["Localizable": [testCase.key]]])
            #expect(strings.localizedString(testCase.key) == testCase.value ?? testCase.key)
        } else {
            #expect(changes.isEmpty)
        }
        _ = token
    }

    @Test func oneBatchAcrossLanguagesFiresOnceWithOnlyTheVisibleKeys() throws {
        let (strings, transport) = makeClient(environment: ["LANG": "de-CH"])
        transport.connect()
        let recorder = ChangeRecorder()
        let token = recorder.record(strings)
        transport.emit(.reload(changes: [
            Fixtures.update("de/Localizable", changed: ["greeting": "Servus", "only.de": "D2"]),
            Fixtures.update("Base/Localizable", changed: ["only.base": "B2"]),
            Fixtures.update("fr/Localizable", changed: ["greeting": "Salut"]),
        ]), seq: 2)
        let changes = recorder.take()
        try #require(changes.count == 1)
        #expect(changes[0].keys == ["Localizable": ["only.de", "only.base"]])
        #expect(changes[0].tables == [LocalizedTable(language: "de", table: "Localizable"),
                                      LocalizedTable(language: "Base", table: "Localizable")])
        _ = token
    }

    @Test func deletingATableFiresForTheKeysThatFallBack() throws {
        let (strings, transport) = makeClient(environment: ["LANG": "de-CH"])
        transport.connect()
        let recorder = ChangeRecorder()
        let token = recorder.record(strings)
        transport.emit(.reload(changes: [
            Fixtures.update("de-CH/Localizable", removed: ["greeting"], kind: .deleted),
        ]), seq: 2)
        #expect(recorder.take().map(\.keys) == [["Localizable": ["greeting"]]])
        #expect(strings.localizedString("greeting") == "Hallo")
        // Creating or deleting a table asks for the language list again.
        #expect(transport.takeCommands().last == .refreshServerInfo)
        _ = token
    }

    @Test func aCancelledOrReleasedTokenStopsItsHook() {
        let (strings, transport) = makeClient()
        transport.connect()
        let recorder = ChangeRecorder()
        let kept = ChangeRecorder()
        let token = recorder.record(strings)
        let keptToken = kept.record(strings)
        token.cancel()
        var released: ReloadToken? = ChangeRecorder().record(strings)
        #expect(released != nil)
        released = nil
        transport.emit(.reload(changes: [Fixtures.update("en/Localizable", changed: ["greeting": "Hey"])]), seq: 2)
        #expect(recorder.take().isEmpty)
        #expect(kept.take().count == 1)
        _ = keptToken
    }

    @Test func stoppingEndsHooksButLookupsKeepAnswering() {
        let (strings, transport) = makeClient()
        transport.connect()
        let recorder = ChangeRecorder()
        let token = recorder.record(strings)
        strings.stop()
        #expect(transport.isStopped)
        transport.emit(.reload(changes: [Fixtures.update("en/Localizable", changed: ["greeting": "Hey"])]), seq: 2)
        #expect(recorder.take().isEmpty)
        #expect(strings.localizedString("greeting") == "Hello")
        _ = token
    }

    @Test func theChangeSequenceDeliversAndMergesBeyondItsLimit() async throws {
        let (strings, transport) = makeClient()
        transport.connect()
        let changes = strings.changes(bufferLimit: 2)
        for (seq, value) in [(2, "a"), (3, "b"), (4, "c")] {
            transport.emit(.reload(changes: [
                Fixtures.update("en/Localizable", added: ["k\(seq)": value]),
            ]), seq: UInt64(seq))
        }
        var iterator = changes.makeAsyncIterator()
        let first = try #require(await iterator.next())
        let merged = try #require(await iterator.next())
        #expect(first.keys == ["Localizable": ["k2"]])
        #expect(merged.keys == ["Localizable": ["k3", "k4"]])
        strings.stop()
        #expect(await iterator.next() == nil)
    }

    @Test func aCancelledReaderEndsTheSequence() async {
        let (strings, _) = makeClient()
        let changes = strings.changes()
        let reader = Task {
            var count = 0
            for await _ in changes { count += 1 }
            return count
        }
        reader.cancel()
        #expect(await reader.value == 0)
        _ = strings
    }
}
