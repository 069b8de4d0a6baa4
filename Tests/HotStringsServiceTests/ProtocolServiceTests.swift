import BundleChanges
@testable import BundleWatcher
import HotStringsProtocol
import HotStringsService
import StringsFormat
import StringsStore
import Testing

/// Every op of the protocol against the service alone, in memory: no watcher, no socket, no disk.
struct ProtocolServiceTests {
    @Test func requestsBeforeTheFirstScanAreHeldAndAnsweredAfterIt() async throws {
        let fixture = ServiceFixture()
        #expect(await fixture.send(.get(key: "greeting", table: "Localizable", languages: ["de"])).isEmpty)
        let outputs = try await fixture.scan()
        #expect(outputs.map(\.kind) == ["firstScanServed", "response"])
        let answer = try #require(try outputs.last?.response?.get())
        #expect(try ServiceFixture.members(of: answer)["value"] == .string("Hallo!"))
    }

    @Test func helloNamesTheServerItsPositionAndTheBundle() async throws {
        let fixture = ServiceFixture()
        try await fixture.scan()
        let hello = try await fixture.answer(.hello(client: "tests"))
        #expect(hello["server"] == .string("hotstrings \(HotStringsVersion.number)"))
        #expect(hello["protocol"] == 1 && hello["root"] == .string("/bundle"))
        #expect(hello["developmentLanguage"] == .string("en"))
        let seq = await fixture.store.seq
        #expect(hello["epoch"] == .integer(fixture.store.epoch) && hello["seq"] == .integer(seq))
    }

    @Test func languagesListsTablesWithKeyCounts() async throws {
        let fixture = ServiceFixture()
        try await fixture.scan()
        let answer = try await fixture.answer(.languages)
        let english = try #require(answer["languages"]?.arrayValue?.first { $0["language"] == .string("en") })
        #expect(english["tables"] == .object([("InfoPlist", 1), ("Localizable", 2)]))
        #expect(answer["selected"] == .null && answer["developmentLanguage"] == .string("en"))
    }

    @Test func getFollowsTheFallbackChain() async throws {
        let fixture = ServiceFixture()
        try await fixture.scan()
        let german = try await fixture.answer(.get(key: "farewell", table: "Localizable", languages: ["de-CH"]))
        #expect(german["value"] == .string("Bye") && german["language"] == .string("en") && german["found"] == true)
        let missing = try await fixture.answer(.get(key: "nope", table: "Localizable", languages: ["de"]))
        #expect(missing["value"] == .string("nope") && missing["language"] == .null && missing["found"] == false)
    }

    @Test func tableAnswersEntriesOrNotFound() async throws {
        let fixture = ServiceFixture()
        try await fixture.scan()
        let table = try await fixture.answer(.table(language: "en", table: "Localizable"))
        #expect(table["entries"] == .object([("greeting", "Hello!"), ("farewell", "Bye")]))
        #expect(table["language"] == .string("en"))
        let error = try await fixture.error(.table(language: "fr", table: "Localizable"))
        #expect(error.code == .notFound && error.message.contains("'fr'"))
    }

    /// `table` answers are kept while the store does not change (issue 21): a kept one answers with the new
    /// request's id, and a change of the table is served at once.
    @Test func aKeptTableAnswerServesTheSameContentUntilTheStoreChanges() async throws {
        let fixture = ServiceFixture()
        try await fixture.scan()
        let first = try await fixture.answer(.table(language: "en", table: "Localizable"))
        let again = try await fixture.answer(.table(language: "en", table: "Localizable"))
        #expect(again["entries"] == first["entries"] && again["seq"] == first["seq"])
        #expect(again["entries"] == .object([("greeting", "Hello!"), ("farewell", "Bye")]))
        let outputs = await fixture.service.handle(.request(3, .number(41), .table(language: "en", table: "Localizable")))
        guard case .response(3, let answer)? = outputs.first else {
            throw Unexpected(description: "no answer: \(outputs)")
        }
        #expect(answer.requestID == .number(41))

        let change = try ServiceFixture.batch(["en/Localizable": #""greeting" = "Hi!";"#])
        _ = await fixture.service.handle(.batch(change))
        let changed = try await fixture.answer(.table(language: "en", table: "Localizable"))
        #expect(changed["entries"] == .object([("greeting", "Hi!")]))
        #expect((changed["seq"]?.int64Value ?? 0) > (first["seq"]?.int64Value ?? 0))
    }

    @Test func subscribeAnswersFirstThenSendsItsSnapshotThenEvents() async throws {
        let fixture = ServiceFixture()
        try await fixture.scan()
        let outputs = await fixture.send(.subscribe(Subscription(languages: ["de"])), from: 7)
        #expect(outputs.map(\.kind) == ["response", "snapshot"])
        let snapshot = try #require(outputs.last?.delivered)
        #expect(snapshot.to == [7])
        guard case .snapshot(let tables) = snapshot.event.event else { throw Unexpected(description: "no snapshot") }
        #expect(tables.map(\.language.identifier) == ["de"])

        let change = try ServiceFixture.batch(["de/Localizable": #""greeting" = "Servus!";"#])
        let reload = try #require(await fixture.service.handle(.batch(change)).first?.delivered)
        #expect(reload.to == [7] && reload.event.seq == snapshot.event.seq + 1)
        guard case .reload(let changes) = reload.event.event else { throw Unexpected(description: "no reload") }
        #expect(changes.map(\.changed.first?.1) == ["Servus!"])
    }

    @Test func aCurrentSinceOrSnapshotFalseSendsNoSnapshot() async throws {
        let fixture = ServiceFixture()
        try await fixture.scan()
        let since = StreamPosition(epoch: fixture.store.epoch, seq: await fixture.store.seq)
        #expect(await fixture.send(.subscribe(Subscription(since: since))).map(\.kind) == ["response"])
        #expect(await fixture.send(.subscribe(Subscription(snapshot: false))).map(\.kind) == ["response"])
    }

    @Test func aReloadIsRenderedOncePerFilterAndEmptyWhereTheFilterMatchesNothing() async throws {
        let fixture = ServiceFixture()
        try await fixture.scan()
        for client: ClientID in 1...3 { _ = await fixture.send(.subscribe(Subscription(languages: ["de"])), from: client) }
        _ = await fixture.send(.subscribe(Subscription(tables: ["InfoPlist"])), from: 4)
        let outputs = await fixture.service.handle(.batch(try ServiceFixture.batch(["de/Localizable": #""a" = "b";"#])))
        let delivered = outputs.compactMap(\.delivered).sorted { $0.to.count > $1.to.count }
        #expect(delivered.map(\.to) == [[1, 2, 3], [4]])
        let counts = delivered.map { event -> Int in
            if case .reload(let changes) = event.event.event { changes.count } else { -1 }
        }
        #expect(counts == [1, 0])
    }

    @Test func unsubscribeAndCloseEndTheEvents() async throws {
        let fixture = ServiceFixture()
        try await fixture.scan()
        _ = await fixture.send(.subscribe(Subscription(snapshot: false)), from: 1)
        _ = await fixture.send(.subscribe(Subscription(snapshot: false)), from: 2)
        #expect(try await fixture.answer(.status)["subscribers"] == 2)
        #expect(try await fixture.answer(.unsubscribe, from: 1).isEmpty)
        _ = await fixture.service.handle(.closed(2))
        #expect(try await fixture.answer(.status)["subscribers"] == 0)
        #expect(await fixture.service.handle(.batch(try ServiceFixture.batch(["de/Localizable": #""a" = "b";"#])))
            .isEmpty)
    }

    @Test func selectLanguageIsSavedThenBroadcastBeforeItsAnswer() async throws {
        let fixture = ServiceFixture()
        try await fixture.scan()
        _ = await fixture.send(.subscribe(Subscription(snapshot: false)), from: 2)
        let outputs = await fixture.send(.selectLanguage("de-CH"), from: 1)
        #expect(outputs.map(\.kind) == ["event", "response"])
        #expect(outputs.first?.delivered?.event.event == .language(language: LanguageTag("de-CH"), previous: nil))
        #expect(fixture.selection.saved == ["de-CH"])
        #expect(try await fixture.answer(.languages)["selected"] == .string("de-CH"))

        let error = try await fixture.error(.selectLanguage("ko"))
        #expect(error.code == .unsupportedLanguage && error.available == ["de", "en"])
        #expect(fixture.selection.saved == ["de-CH"])
    }

    @Test func aFailedSaveIsAnInternalErrorAndChangesNothing() async throws {
        let fixture = ServiceFixture()
        try await fixture.scan()
        _ = await fixture.send(.subscribe(Subscription(snapshot: false)), from: 2)
        let seq = await fixture.store.seq
        fixture.selection.fail(with: "write: No space left on device (ENOSPC)")
        let outputs = await fixture.send(.selectLanguage("de"), from: 1)
        #expect(outputs.map(\.kind) == ["response"])  // no `language` event
        guard case .failure(let error)? = outputs.first?.response else { throw Unexpected(description: "ok") }
        #expect(error.code == .internal && error.message.contains("No space left on device"))
        #expect(try await fixture.answer(.languages)["selected"] == .null)
        let after = await fixture.store.seq
        #expect(after == seq)

        fixture.selection.fail(with: nil)
        #expect(try await fixture.answer(.selectLanguage("de"))["selected"] == .string("de"))
    }

    @Test func statusReportsTheWatcherSubscribersAndLastErrors() async throws {
        let fixture = ServiceFixture()
        try await fixture.scan()
        var broken = WatchBatchProblems.batch(file: "fr.lproj/Localizable.strings", message: "expected ';'")
        broken.isFullScan = false
        _ = await fixture.service.handle(.batch(broken))
        let status = try await fixture.answer(.status)
        #expect(status["root"] == .string("/bundle") && status["rootPresent"] == true)
        #expect(status["watchedDirectories"] == 4 && status["files"] == 3 && status["tables"] == 3)
        #expect(status["connections"] == 2 && status["subscribers"] == 0)
        #expect(status["lastErrors"]?.arrayValue?.first?["file"] == .string("fr.lproj/Localizable.strings"))
        let seq = await fixture.store.seq
        #expect(status["uptime"]?.int64Value == nil && status["seq"] == .integer(seq))
    }

    @Test func aBadLineIsAnsweredWithItsError() async throws {
        let fixture = ServiceFixture()
        try await fixture.scan()
        let outputs = await fixture.service.handle(.requestLine(1, Array(#"{"id":4,"op":"fly"}"#.utf8)))
        guard case .response(1, let answer)? = outputs.first, answer.requestID == .number(4),
              case .failure(let error) = answer.result else {
            throw Unexpected(description: "\(outputs.map(\.kind))")
        }
        #expect(error.code == .unknownOp)
    }

    @Test func aSlowClientGetsAResyncThenAFreshSnapshot() async throws {
        let fixture = ServiceFixture()
        try await fixture.scan()
        _ = await fixture.send(.subscribe(Subscription(snapshot: false)), from: 5)
        let resync = await fixture.service.handle(.overflowed(5))
        #expect(resync.map(\.kind) == ["slowClientResync"])
        #expect(resync.first?.delivered?.event.event == .resync(reason: "slow-client"))
        #expect(await fixture.service.handle(.caughtUp(5)).map(\.kind) == ["slowClientSnapshot"])
        #expect(await fixture.service.handle(.overflowed(6)).isEmpty)  // not a subscriber
    }

    /// A front's own subscription made before the first scan (`watch`) gets that scan's `error` events, then the
    /// snapshot that stands for its reload, numbered with its last seq; no `reload`, no answer.
    @Test func aSubscriptionBeforeTheFirstScanGetsItsErrorsThenItsSnapshot() async throws {
        let fixture = ServiceFixture()
        #expect(await fixture.service.handle(.subscribe(9, Subscription())).isEmpty)
        var batch = try ServiceFixture.batch(ServiceFixture.sample.mapValues { $0 }, isFullScan: true)
        batch.problems = WatchBatchProblems.batch(file: "fr.lproj/Localizable.strings", message: "expected '='").problems
        let outputs = await fixture.service.handle(.batch(batch))
        #expect(outputs.map(\.kind) == ["event", "snapshot", "firstScanServed"])
        let error = try #require(outputs.first?.delivered)
        #expect(error.to == [9])
        guard case .error(let file, _, _, _) = error.event.event else { throw Unexpected(description: "no error") }
        #expect(file == "fr.lproj/Localizable.strings")
        let snapshot = try #require(outputs.dropFirst().first?.delivered)
        guard case .snapshot(let tables) = snapshot.event.event else { throw Unexpected(description: "no snapshot") }
        #expect(tables.count == 3 && snapshot.to == [9])
        #expect(snapshot.event.seq == (await fixture.store.seq))
    }
}

/// Batches that carry only a problem.
enum WatchBatchProblems {
    static func batch(file: String, message: String) -> ChangeBatch {
        var batch = ChangeBatch()
        batch.problems = [FileProblem(file: file, line: 1, column: 2, message: message)]
        return batch
    }
}
