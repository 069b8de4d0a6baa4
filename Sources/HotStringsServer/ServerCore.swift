import BundleWatcher
import HotStringsProtocol
import LinuxSystem
import StringsFormat
import StringsStore

/// The daemon's logic: requests, subscriptions and fan-out, one input at a time.
///
/// Everything that touches the store runs here, in the order the inputs arrive, so a subscriber's
/// snapshot and the events after it can never cross: a batch applied after a `subscribe` is answered
/// reaches the new subscriber, one applied before is in its snapshot. Output goes to the I/O thread
/// as `IOCommand`s, one hand-over per input.
final class ServerCore {
    typealias Filter = SubscriptionFilter

    let store: StringsStore
    let watcher: BundleWatcher
    let io: IOLoop
    let selection: SelectionFile?
    let startedAt = ContinuousClock.now
    private let onFirstScan: @Sendable () -> Void
    private var subscriptions: [ConnectionID: Filter] = [:]
    private var recentErrors = RecentProblems()
    private var hasScanned = false
    private var heldRequests: [(ConnectionID, [UInt8])] = []
    private var pending: [IOCommand] = []
    private var snapshotCache: [Filter: (seq: UInt64, bytes: [UInt8])] = [:]

    init(store: StringsStore, watcher: BundleWatcher, io: IOLoop, selection: SelectionFile?,
         onFirstScan: @escaping @Sendable () -> Void) {
        self.store = store
        self.watcher = watcher
        self.io = io
        self.selection = selection
        self.onFirstScan = onFirstScan
    }

    /// Handles inputs until the stream ends.
    func run(_ inputs: AsyncStream<CoreInput>) async {
        for await input in inputs {
            await handle(input)
            io.submit(pending)
            pending = []
        }
    }

    private func handle(_ input: CoreInput) async {
        switch input {
        case .opened:
            break
        case .closed(let id):
            subscriptions[id] = nil
        case .request(let id, let line):
            guard hasScanned else {
                // Answers before the first scan would describe an empty bundle: hold them until it is served.
                heldRequests.append((id, line))
                return
            }
            await answer(line, from: id)
            pending.append(.requestDone(id))
        case .overflowed(let id):
            guard subscriptions[id] != nil else { return }
            let seq = await store.seq
            pending.append(.resync(id, EventEncoder.resync(epoch: store.epoch, seq: seq, reason: "slow-client")))
        case .caughtUp(let id):
            guard let subscription = subscriptions[id] else { return }
            pending.append(.snapshot(id, await snapshotBytes(for: subscription)))
        case .batch(let batch):
            await apply(batch)
        }
    }

    // MARK: - Batches and events

    private func apply(_ batch: WatchBatch) async {
        let events = await WatchGlue.apply(batch, to: store)
        if !hasScanned {
            hasScanned = true
            onFirstScan()
            await broadcast(events)
            for (id, line) in heldRequests {
                await answer(line, from: id)
                pending.append(.requestDone(id))
            }
            heldRequests = []
            return
        }
        await broadcast(events)
    }

    private func broadcast(_ events: [StoreEvent]) async {
        let epoch = store.epoch
        // After a resync, each subscriber gets a fresh snapshot, which also stands for the batch's reload.
        let isResync = events.contains { if case .resync = $0 { true } else { false } }
        for event in events {
            switch event {
            case .reload(let seq, let changes):
                guard !isResync else { continue }
                var groups: [Filter: [ConnectionID]] = [:]
                for (id, subscription) in subscriptions { groups[subscription, default: []].append(id) }
                for (subscription, ids) in groups {
                    // Subscribers whose filter matches nothing still get the event, empty, so seq has no gaps.
                    let included = changes.filter { subscription.includes(language: $0.language, table: $0.table) }
                    let line = EventEncoder.reload(epoch: epoch, seq: seq, changes: included.map(Payloads.change))
                    pending.append(.broadcast(line, ids))
                }
            case .error(let seq, let problem):
                recentErrors.append(problem)
                Log.warning("\(problem)")
                send(EventEncoder.error(epoch: epoch, seq: seq, file: problem.file, line: problem.line,
                                        column: problem.column, message: problem.message))
            case .language(let seq, let language, let previous):
                Log.info("language: \(language ?? "none") (was \(previous ?? "none"))")
                send(EventEncoder.language(epoch: epoch, seq: seq, language: language, previous: previous))
            case .resync(let seq, let reason):
                Log.info("resync: \(reason.rawValue)")
                send(EventEncoder.resync(epoch: epoch, seq: seq, reason: reason.rawValue))
            }
        }
        guard isResync else { return }
        for (id, subscription) in subscriptions {
            pending.append(.send(id, await snapshotBytes(for: subscription)))
        }
    }

    private func send(_ line: [UInt8]) {
        guard !subscriptions.isEmpty else { return }
        pending.append(.broadcast(line, Array(subscriptions.keys)))
    }

    private func snapshotBytes(for subscription: Filter) async -> [UInt8] {
        let seq = await store.seq
        if let cached = snapshotCache[subscription], cached.seq == seq { return cached.bytes }
        let snapshot = await store.snapshot(
            languages: subscription.languages.map { Array($0) }, tables: subscription.tables.map { Array($0) }
        )
        let bytes = EventEncoder.snapshot(epoch: snapshot.epoch, seq: snapshot.seq, tables: snapshot.tables.map(Payloads.table))
        snapshotCache = snapshotCache.filter { $0.value.seq == seq }
        snapshotCache[subscription] = (seq, bytes)
        return bytes
    }

    // MARK: - Requests

    private func answer(_ line: [UInt8], from id: ConnectionID) async {
        let (requestID, decoded) = RequestDecoder.decode(line)
        switch decoded {
        case .failure(let error):
            pending.append(.send(id, ResponseEncoder.failure(id: requestID, error)))
        case .success(let request):
            do {
                let fields = try await perform(request, for: id, requestID: requestID)
                pending.append(.send(id, ResponseEncoder.success(id: requestID, fields: fields)))
                if case .subscribe(let options) = request { await startSubscription(id, options) }
            } catch {
                pending.append(.send(id, ResponseEncoder.failure(id: requestID, error)))
            }
        }
    }

    private func perform(_ request: Request, for id: ConnectionID, requestID: RequestID?) async throws(ProtocolError)
        -> [(String, JSONValue)] {
        let epoch = store.epoch
        switch request {
        case .hello:
            return [
                ("server", .string("hotstrings \(ServerInfo.version)")), ("protocol", .number(1)),
                ("epoch", .number(Int64(epoch))), ("seq", .number(Int64(await store.seq))),
                ("root", .string(watcher.root)), ("developmentLanguage", .string(store.developmentLanguage)),
            ]
        case .languages:
            let summaries = await store.languages().map { summary -> JSONValue in
                .object([
                    ("language", .string(summary.language)),
                    ("tables", .object(summary.tables.sorted { $0.key < $1.key }.map { ($0.key, .number(Int64($0.value))) })),
                ])
            }
            return [
                ("languages", .array(summaries)), ("selected", Self.optional(await store.selectedLanguage)),
                ("developmentLanguage", .string(store.developmentLanguage)),
            ]
        case .get(let key, let table, let languages):
            let lookup = await store.lookup(key, table: table, preferences: languages)
            return [("value", .string(lookup.value)), ("language", Self.optional(lookup.language)),
                    ("found", .bool(lookup.found))]
        case .table(let language, let table):
            guard let tag = LanguageTag(language),
                  let found = await store.table(TableID(language: tag, table: table)) else {
                throw .notFound("no table '\(table)' in language '\(language)'")
            }
            return [
                ("entries", .object(found.entries.map { ($0.key, .string($0.value)) })),
                ("language", .string(tag.identifier)), ("seq", .number(Int64(await store.seq))),
            ]
        case .subscribe:
            return [("epoch", .number(Int64(epoch))), ("seq", .number(Int64(await store.seq)))]
        case .unsubscribe:
            subscriptions[id] = nil
            return []
        case .selectLanguage(let language):
            let events: [StoreEvent]
            do {
                events = try await store.selectLanguage(language)
            } catch {
                guard case .unsupportedLanguage(let requested, let available) = error else {
                    throw ProtocolError(.internal, "\(error)")
                }
                throw .unsupportedLanguage(requested, available: available)
            }
            let selected = await store.selectedLanguage
            if !events.isEmpty {
                do {
                    try selection?.write(selected)
                } catch {
                    Log.warning("cannot save the selected language: \(error)")
                }
            }
            await broadcast(events)
            return [("selected", Self.optional(selected))]
        case .status:
            let status = watcher.status
            let tables = await store.languages().reduce(0) { $0 + $1.tables.count }
            return [
                ("root", .string(status.root)), ("rootPresent", .bool(status.isRootPresent)),
                ("watchedDirectories", .number(Int64(status.watchedDirectories))),
                ("files", .number(Int64(status.files))), ("tables", .number(Int64(tables))),
                ("subscribers", .number(Int64(subscriptions.count))),
                ("connections", .number(Int64(io.connectionCount.load(ordering: .relaxed)))),
                ("lastErrors", recentErrors.json),
                ("uptime", .double((ContinuousClock.now - startedAt).seconds)),
                ("epoch", .number(Int64(epoch))), ("seq", .number(Int64(await store.seq))),
            ]
        }
    }

    private func startSubscription(_ id: ConnectionID, _ options: HotStringsProtocol.Subscription) async {
        let subscription = Filter(options)
        subscriptions[id] = subscription
        let seq = await store.seq
        if let since = options.since, since.epoch == store.epoch, since.seq == seq { return }
        guard options.snapshot else { return }
        pending.append(.send(id, await snapshotBytes(for: subscription)))
    }

    private static func optional(_ string: String?) -> JSONValue { string.map(JSONValue.string) ?? .null }
}

extension Duration {
    /// The duration in seconds, as a floating-point number.
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
