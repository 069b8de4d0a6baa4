import BundleWatcher
import Foundation
import HotStringsClient
import HotStringsProtocol
import HotStringsServer
import StringsFormat
import StringsStore

/// What the embedded transport's core handles, one at a time, in arrival order.
enum EmbeddedInput: Sendable {
    /// A settled batch from the watcher.
    case batch(WatchBatch)
    /// A command of the client's engine.
    case command(TransportCommand)
    /// A request of the client (`setLanguage`), with where its answer goes.
    case request(Request, Reply)
}

/// The daemon's logic for a single, in-process subscriber: applies the watcher's batches to the store and
/// turns the store's events, the engine's commands and the client's requests into deliveries, the way
/// `ServerCore` does for its socket clients.
///
/// Inputs are handled one at a time, so the snapshot a subscription gets and the events after it never
/// cross: a batch applied after the subscription reaches the client as events, one applied before is in
/// its snapshot.
final class EmbeddedCore {
    typealias Filter = SubscriptionFilter

    let store: StringsStore
    let watcher: BundleWatcher
    let selection: SelectionFile?
    let deliver: @Sendable (Delivery) -> Void
    let startedAt = ContinuousClock.now
    private var subscription: Filter?
    private var hasScanned = false
    /// Requests that arrived before the first scan was served, answered once the client has its snapshot.
    private var heldRequests: [(Request, Reply)] = []
    private var recentErrors = RecentProblems()

    init(store: StringsStore, watcher: BundleWatcher, selection: SelectionFile?,
         deliver: @escaping @Sendable (Delivery) -> Void) {
        self.store = store
        self.watcher = watcher
        self.selection = selection
        self.deliver = deliver
    }

    /// Handles inputs until the stream ends; requests still held then fail with `.connectionLost`.
    func run(_ inputs: AsyncStream<EmbeddedInput>) async {
        for await input in inputs {
            await handle(input)
        }
        for (_, reply) in heldRequests { reply.resume(returning: .failure(.connectionLost)) }
        heldRequests = []
    }

    private func handle(_ input: EmbeddedInput) async {
        switch input {
        case .batch(let batch):
            await apply(batch)
        case .command(.subscribe(let options)):
            await subscribe(options)
        case .command(.refreshServerInfo):
            let info = HotStringsClient.ServerInfo(
                languages: await store.languages().map(\.language), selectedLanguage: await store.selectedLanguage,
                developmentLanguage: store.developmentLanguage)
            deliver(.event(.serverInfo(info)))
            // The engine asks for this right after subscribing: the client's handshake is complete once this
            // is delivered, so answers to held requests now find the client switched.
            let held = heldRequests
            heldRequests = []
            for (request, reply) in held { await answer(request, reply) }
        case .request(let request, let reply):
            guard hasScanned else {
                heldRequests.append((request, reply))
                return
            }
            await answer(request, reply)
        }
    }

    // MARK: - Batches and events

    private func apply(_ batch: WatchBatch) async {
        let events = await WatchGlue.apply(batch, to: store)
        recentErrors.record(events)
        guard hasScanned else {
            // The first scan: the client connects only now, so its first snapshot already holds the bundle.
            hasScanned = true
            deliver(.event(.connected))
            return
        }
        await forward(events)
    }

    /// Hands the store's events to the subscriber, if there is one.
    private func forward(_ events: [StoreEvent]) async {
        guard let subscription else { return }
        let epoch = store.epoch
        // After a resync a fresh snapshot follows, which also stands for the batch's reload.
        let isResync = events.contains { if case .resync = $0 { true } else { false } }
        for event in events {
            let payload: ServerEvent
            switch event {
            case .reload(_, let changes):
                guard !isResync else { continue }
                // Sent even when the filter leaves nothing, so that `seq` has no gaps.
                let included = changes.filter { subscription.includes(language: $0.language, table: $0.table) }
                payload = .reload(changes: included.map(Payloads.change))
            case .error(_, let problem):
                payload = .error(file: problem.file, line: problem.line, column: problem.column,
                                 message: problem.message)
            case .language(_, let language, let previous):
                payload = .language(language: language, previous: previous)
            case .resync(_, let reason):
                payload = .resync(reason: reason.rawValue)
            }
            deliver(.event(.event(epoch: epoch, seq: event.seq, payload)))
        }
        if isResync { await sendSnapshot(for: subscription) }
    }

    private func subscribe(_ options: HotStringsProtocol.Subscription) async {
        let filter = Filter(options)
        subscription = filter
        if let since = options.since, since.epoch == store.epoch, since.seq == (await store.seq) { return }
        guard options.snapshot else { return }
        await sendSnapshot(for: filter)
    }

    private func sendSnapshot(for filter: Filter) async {
        let snapshot = await store.snapshot(languages: filter.languages.map(Array.init),
                                            tables: filter.tables.map(Array.init))
        deliver(.event(.event(epoch: snapshot.epoch, seq: snapshot.seq,
                              .snapshot(tables: snapshot.tables.map(Payloads.table)))))
    }

    // MARK: - Requests

    private func answer(_ request: Request, _ reply: Reply) async {
        let result: Result<[String: JSONValue], LiveStringsError>
        do {
            result = .success(try await perform(request))
        } catch {
            result = .failure(.rejected(code: error.code.rawValue, message: error.message, available: error.available))
        }
        // Through the delivery queue, behind the events the request caused.
        deliver(.reply(reply, result))
    }

    /// The members of the daemon's answer to `request`, other than `id` and `ok`.
    private func perform(_ request: Request) async throws(ProtocolError) -> [String: JSONValue] {
        switch request {
        case .hello:
            return [
                "server": .string("hotstrings \(HotStringsServer.ServerInfo.version) (embedded)"),
                "protocol": .number(1), "epoch": .integer(store.epoch), "seq": .integer(await store.seq),
                "root": .string(watcher.root), "developmentLanguage": .string(store.developmentLanguage),
            ]
        case .languages:
            let summaries = await store.languages().map { summary -> JSONValue in
                .object([
                    ("language", .string(summary.language)),
                    ("tables", .object(summary.tables.sorted { $0.key < $1.key }.map { ($0.key, .integer($0.value)) })),
                ])
            }
            return ["languages": .array(summaries), "selected": .string(orNull: await store.selectedLanguage),
                    "developmentLanguage": .string(store.developmentLanguage)]
        case .get(let key, let table, let languages):
            let lookup = await store.lookup(key, table: table, preferences: languages)
            return ["value": .string(lookup.value), "language": .string(orNull: lookup.language),
                    "found": .bool(lookup.found)]
        case .table(let language, let table):
            guard let tag = LanguageTag(language), let found = await store.table(TableID(language: tag, table: table))
            else { throw .notFound("no table '\(table)' in language '\(language)'") }
            return ["entries": .object(found.entries.map { ($0.key, .string($0.value)) }),
                    "language": .string(tag.identifier), "seq": .integer(await store.seq)]
        case .subscribe(let options):
            await subscribe(options)
            return ["epoch": .integer(store.epoch), "seq": .integer(await store.seq)]
        case .unsubscribe:
            subscription = nil
            return [:]
        case .selectLanguage(let language):
            return try await select(language)
        case .status:
            return await status()
        }
    }

    private func select(_ language: String?) async throws(ProtocolError) -> [String: JSONValue] {
        var events: [StoreEvent]
        do {
            events = try await store.selectLanguage(language)
        } catch {
            guard case .unsupportedLanguage(let requested, let available) = error else {
                throw ProtocolError(.internal, "\(error)")
            }
            throw .unsupportedLanguage(requested, available: available)
        }
        let selected = await store.selectedLanguage
        if !events.isEmpty, let selection {
            do {
                try selection.write(selected)
            } catch {
                // The selection holds for this run; saying so as an `error` event keeps it from being silent.
                events += await store.report([FileProblem(file: selection.path,
                                                          message: "cannot save the selected language: \(error)")])
            }
        }
        recentErrors.record(events)
        await forward(events)
        return ["selected": .string(orNull: selected)]
    }

    private func status() async -> [String: JSONValue] {
        let status = watcher.status
        let tables = await store.languages().reduce(0) { $0 + $1.tables.count }
        let uptime = ContinuousClock.now - startedAt
        return [
            "root": .string(status.root), "rootPresent": .bool(status.isRootPresent),
            "watchedDirectories": .integer(status.watchedDirectories), "files": .integer(status.files),
            "tables": .integer(tables), "subscribers": .integer(subscription == nil ? 0 : 1),
            "connections": .integer(1), "lastErrors": recentErrors.json,
            "uptime": .double(Double(uptime.components.seconds) + Double(uptime.components.attoseconds) / 1e18),
            "epoch": .integer(store.epoch), "seq": .integer(await store.seq),
        ]
    }
}
