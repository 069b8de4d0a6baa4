import HotStringsProtocol
import StringsFormat
import Testing
@testable import HotStringsClient

/// Stream positions: gaps, resyncs, restarted daemons and reconnections, fed to the engine by hand.
struct StreamTests {
    /// A client in `en` whose handshake is done at seq 5, with its commands taken.
    func connected() -> (LiveStrings, FakeTransport, ChangeRecorder, ReloadToken) {
        let (strings, transport) = makeClient()
        transport.connect(seq: 5)
        _ = transport.takeCommands()
        let recorder = ChangeRecorder()
        return (strings, transport, recorder, recorder.record(strings))
    }

    func reload(_ key: String, _ value: String) -> ServerEvent {
        .reload(changes: [Fixtures.update("en/Localizable", changed: [key: value])])
    }

    @Test func theHandshakeSubscribesFromScratchThenAsksForTheLanguages() {
        let (strings, transport) = makeClient()
        transport.emit(.connected)
        #expect(transport.takeCommands() == [.subscribe(Subscription(snapshot: true)), .refreshServerInfo])
        #expect(strings.isConnected)
        #expect(!strings.isSynchronized)
    }

    @Test func aGapSubscribesAgainFromTheMirrorsPositionAndSkipsUntilTheSnapshot() {
        let (strings, transport, recorder, token) = connected()
        transport.emit(reload("greeting", "One"), seq: 6)
        #expect(strings.localizedString("greeting") == "One")
        transport.emit(reload("greeting", "Three"), seq: 8)  // 7 is missing
        #expect(transport.takeCommands() == [
            .subscribe(Subscription(snapshot: true, since: StreamPosition(epoch: Fixtures.epoch, seq: 6))),
        ])
        #expect(strings.localizedString("greeting") == "One")
        #expect(!strings.isSynchronized)
        transport.emit(reload("greeting", "Four"), seq: 9)  // before the snapshot: skipped
        #expect(strings.localizedString("greeting") == "One")
        var tables = Fixtures.bundle
        tables["en/Localizable"]?["greeting"] = "Four"
        tables["en/Localizable"]?["only.en"] = "E7"
        transport.emit(.snapshot(tables: Fixtures.payloads(tables)), seq: 9)
        #expect(strings.isSynchronized)
        #expect(strings.localizedString("greeting") == "Four")
        transport.emit(reload("greeting", "Five"), seq: 9)  // already in the snapshot
        #expect(strings.localizedString("greeting") == "Four")
        transport.emit(reload("greeting", "Ten"), seq: 10)
        #expect(strings.localizedString("greeting") == "Ten")
        // One change per applied event, and the snapshot's reports only what differs from the mirror.
        #expect(recorder.take().map(\.keys) == [
            ["Localizable": ["greeting"]], ["Localizable": ["greeting", "only.en"]], ["Localizable": ["greeting"]],
        ])
        #expect(transport.takeCommands().isEmpty)
        _ = token
    }

    @Test func anEventOfAnotherEpochSubscribesAgain() {
        let (strings, transport, _, token) = connected()
        transport.emit(reload("greeting", "Other"), seq: 6, epoch: 99)
        #expect(transport.takeCommands() == [
            .subscribe(Subscription(snapshot: true, since: StreamPosition(epoch: Fixtures.epoch, seq: 5))),
        ])
        #expect(strings.localizedString("greeting") == "Hello")
        _ = token
    }

    @Test func aResyncWaitsForItsSnapshotAndTheNextConnectionAsksForAFreshOne() {
        let (strings, transport, recorder, token) = connected()
        transport.emit(.resync(reason: "slow-client"), seq: 5)
        transport.emit(reload("greeting", "Skipped"), seq: 6)
        #expect(strings.localizedString("greeting") == "Hello")
        #expect(transport.takeCommands().isEmpty)  // the daemon sends the snapshot by itself
        // The connection drops before the snapshot: the next subscription must not resume.
        transport.emit(.disconnected(reason: "test"))
        #expect(!strings.isConnected)
        #expect(strings.localizedString("greeting") == "Hello")
        transport.emit(.connected)
        #expect(transport.takeCommands() == [.subscribe(Subscription(snapshot: true)), .refreshServerInfo])
        #expect(recorder.take().isEmpty)
        _ = token
    }

    @Test func aReconnectionResumesFromTheMirrorsPosition() {
        let (strings, transport, recorder, token) = connected()
        transport.emit(reload("greeting", "Six"), seq: 6)
        transport.emit(.disconnected(reason: "test"))
        transport.emit(.connected)
        #expect(transport.takeCommands() == [
            .subscribe(Subscription(snapshot: true, since: StreamPosition(epoch: Fixtures.epoch, seq: 6))),
            .refreshServerInfo,
        ])
        // Still current: no snapshot, the events continue.
        transport.emit(reload("greeting", "Seven"), seq: 7)
        transport.emit(.serverInfo(Fixtures.info(Fixtures.bundle)))
        #expect(strings.isSynchronized)
        #expect(strings.localizedString("greeting") == "Seven")
        // The handshake reports what it brought in one change.
        #expect(recorder.take().map(\.keys) == [["Localizable": ["greeting"]], ["Localizable": ["greeting"]]])
        _ = token
    }

    @Test func aRestartedDaemonsSnapshotAndSelectionAreReportedAsOneChange() throws {
        let (strings, transport, recorder, token) = connected()
        transport.emit(.disconnected(reason: "killed"))
        var tables = Fixtures.bundle
        tables["fr/Localizable"]?["greeting"] = "Salut"
        tables["fr/Localizable"]?["button.ok"] = nil
        transport.emit(.connected)
        transport.emit(.snapshot(tables: Fixtures.payloads(tables)), seq: 1, epoch: 7)
        #expect(recorder.take().isEmpty)  // not before the handshake is done
        transport.emit(.serverInfo(Fixtures.info(tables, selected: "fr")))
        let changes = recorder.take()
        try #require(changes.count == 1)
        #expect(changes[0].cause == .snapshot)
        #expect(changes[0].language == "fr")
        #expect(changes[0].tables == [LocalizedTable(language: "fr", table: "Localizable")])
        #expect(changes[0].keys == [
            "Localizable": ["greeting", "messages.received", "only.fr"], "InfoPlist": ["CFBundleName"],
        ])
        #expect(strings.localizedString("greeting") == "Salut")
        #expect(strings.localizedString("button.ok") == "OK")  // from en now, the same text
        // The new epoch is the one followed from now on.
        transport.emit(reload("only.en", "E2"), seq: 2, epoch: 7)
        #expect(strings.localizedString("only.en") == "E2")
        #expect(transport.takeCommands() == [
            .subscribe(Subscription(snapshot: true, since: StreamPosition(epoch: Fixtures.epoch, seq: 5))),
            .refreshServerInfo,
        ])
        _ = token
    }

    @Test func eventsBeforeTheFirstSnapshotAreSkipped() {
        let (strings, transport) = makeClient()
        transport.emit(.connected)
        transport.emit(reload("greeting", "Early"), seq: 3)
        #expect(strings.localizedString("greeting") == "greeting")
        transport.emit(.snapshot(tables: Fixtures.payloads(Fixtures.bundle)), seq: 3)
        transport.emit(.serverInfo(Fixtures.info(Fixtures.bundle)))
        #expect(strings.localizedString("greeting") == "Hello")
        #expect(strings.isSynchronized)
    }

    @Test func whileWaitingForASnapshotLanguageEventsStillCountAndEveryEventTakesItsSeq() {
        let (strings, transport, _, token) = connected()
        transport.emit(.resync(reason: "overflow"), seq: 6)
        transport.emit(reload("greeting", "Skipped"), seq: 7)
        transport.emit(.language(language: LanguageTag("de"), previous: nil), seq: 8)
        #expect(strings.localizedString("greeting") == "Hallo")
        var tables = Fixtures.bundle
        tables["en/Localizable"]?["greeting"] = "Later"
        transport.emit(.snapshot(tables: Fixtures.payloads(tables)), seq: 8)
        transport.emit(.error(file: "de.lproj/Localizable.strings", line: 1, column: 2, message: "bad"), seq: 9)
        transport.emit(.unknown(name: "future", body: [:]), seq: 10)
        transport.emit(reload("only.en", "E11"), seq: 11)
        #expect(strings.localizedString("only.en") == "E11")
        transport.emit(.language(language: nil, previous: LanguageTag("de")), seq: 12)
        #expect(strings.localizedString("greeting") == "Later")
        #expect(transport.takeCommands().isEmpty)  // no gap was seen
        _ = token
    }
}
