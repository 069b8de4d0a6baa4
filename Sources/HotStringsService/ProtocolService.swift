import BundleChanges
import BundleWatcher
import HotStringsLog
import HotStringsProtocol
import HotStringsRelease
import StringsFormat
import StringsStore

/// The HotStrings protocol, once, for every transport: answers requests, applies the watcher's batches to
/// the store, and fans events out to subscribers. The daemon's I/O loop and the embedded transport are
/// adapters that feed it `ServiceInput`s and deliver its `ServiceOutput`s.
///
/// Confined to one task: `handle(_:)` is called for one input at a time, in arrival order, so a
/// subscriber's snapshot and the events after it never cross (a batch applied after a `subscribe` is
/// answered reaches the new subscriber as events, one applied before is in its snapshot).
package final class ProtocolService<Rendering: EventRendering> {
    /// What the service needs besides the store.
    package struct Environment: Sendable {
        /// The bundle root, as `hello` reports it.
        package var root: String
        /// The watcher's counters, for `status`.
        package var watcherStatus: @Sendable () -> WatcherStatus
        /// How many clients are connected, for `status`.
        package var connectionCount: @Sendable () -> Int
        /// Saves a new selection before it is applied (nil: kept in memory only); throwing refuses it.
        package var saveSelection: (@Sendable (String?) throws -> Void)?
        /// The caps on the snapshots kept for reuse.
        package var snapshotCacheLimits = SnapshotCacheLimits()
        /// Sees every store event before it is sent (the daemon logs them).
        package var onStoreEvent: (@Sendable (StoreEvent) -> Void)?
        /// Where the puller stands, for `status` (nil: the bundle is not pulled into by this process).
        package var pullStatus: (@Sendable () -> PullStatus)?
        /// The page's address with its token, for `status` (nil: no page is served).
        package var webURL: String?
        /// Writes `set` and `remove` into the bundle's files (nil: they are refused).
        package var bundleEditor: BundleEditor?
        /// Where what the operator should see goes (an `internal` error answered on a line); nothing by default.
        package var log = LogSink.discarding
        /// Runs a request's work on a worker thread and hands its result back as `ServiceInput.workDone` for that
        /// client and request (the host's workers). Nil runs the work on the spot, blocking: only for tests of the
        /// service alone.
        package var handOff: (@Sendable (OffCoreWork, ClientID, RequestID?) -> Void)?

        /// An environment; the selection is kept in memory unless `saveSelection` is set.
        package init(root: String, watcherStatus: @escaping @Sendable () -> WatcherStatus,
                     connectionCount: @escaping @Sendable () -> Int) {
            self.root = root
            self.watcherStatus = watcherStatus
            self.connectionCount = connectionCount
        }
    }

    /// A rendered event.
    package typealias Event = Rendering.Rendered
    /// What `handle(_:)` returns.
    package typealias Output = ServiceOutput<Rendering>

    let store: StringsStore
    let environment: Environment
    let startedAt = ContinuousClock.now
    var subscriptions: [ClientID: SubscriptionFilter] = [:]
    private var subscribersByFilter: [SubscriptionFilter: Int] = [:]
    private var snapshots: SnapshotCache<Event>
    var recentProblems = RecentProblems()
    private var hasScanned = false
    private var heldRequests: [ServiceInput] = []
    var outputs: [Output] = []
    /// Rendered `table` answers, kept while the store does not change.
    var tableAnswers = TableAnswers<Rendering.RenderedAnswer>()
    /// The keys clients reported missing, merged and bounded.
    var missingKeys = MissingKeys()
    /// The clients with a request's work off the core, and the requests each sent since, held until that work's
    /// answer so that a client's answers keep the order of its requests.
    var clientsAwaitingWork: [ClientID: [ServiceInput]] = [:]

    /// A service over `store`.
    package init(store: StringsStore, environment: Environment) {
        self.store = store
        self.environment = environment
        snapshots = SnapshotCache(limits: environment.snapshotCacheLimits)
    }

    /// Handles one input; returns what to deliver, in order.
    package func handle(_ input: ServiceInput) async -> [Output] {
        await process(input)
        defer { outputs = [] }
        return outputs
    }

    func process(_ input: ServiceInput) async {
        if let client = input.requester, clientsAwaitingWork[client] != nil {
            // Answered after the client's request whose work is off the core, in the order they came.
            clientsAwaitingWork[client]?.append(input)
            return
        }
        switch input {
        case .requestLine(let client, let line):
            guard hasScanned else { return hold(input) }
            let (requestID, decoded) = RequestDecoder.decode(line)
            switch decoded {
            case .success(let request): await answer(request, id: requestID, from: client)
            case .failure(let error): respond(to: client, requestID, .failure(error))
            }
        case .request(let client, let requestID, let request):
            guard hasScanned else { return hold(input) }
            await answer(request, id: requestID, from: client)
        case .closed(let client):
            unsubscribe(client)
            // Its work off the core ends all the same (an edit lands, a selection is applied); nothing more waits.
            clientsAwaitingWork[client] = nil
        case .overflowed(let client):
            guard subscriptions[client] != nil else { break }
            let resync = Rendering.render(.resync(reason: "slow-client"), epoch: store.epoch, seq: await store.seq)
            outputs.append(.slowClientResync(client, resync))
        case .caughtUp(let client):
            guard let filter = subscriptions[client] else { break }
            outputs.append(.slowClientSnapshot(client, await snapshot(for: filter)))
        case .batch(let batch):
            await apply(batch)
        case .problems(let problems):
            await broadcast(await store.report(problems))
        case .subscribe(let client, let options):
            guard hasScanned else {
                // The first scan's snapshot reaches it (see `broadcast`).
                register(client, SubscriptionFilter(options))
                return
            }
            await subscribe(client, options)
        case .workDone(let client, let requestID, let result):
            await finishWork(of: client, requestID, result)
        }
    }

    /// Queues the rendered answer to `requestID` of `client`.
    func respond(to client: ClientID, _ requestID: RequestID?, _ result: Result<Answer, ProtocolError>) {
        outputs.append(.response(client, Rendering.render(ServiceAnswer(requestID: requestID, result: result),
                                                          log: environment.log)))
    }

    /// How many snapshots are kept for reuse and their bytes (what finding 5's cap bounds).
    package var snapshotCacheUsage: (entries: Int, bytes: Int) { (snapshots.count, snapshots.bytes) }

    private func hold(_ input: ServiceInput) {
        // Answers before the first scan would describe an empty bundle: held until it is served.
        heldRequests.append(input)
    }

    // MARK: - Batches and events

    private func apply(_ batch: ChangeBatch) async {
        let events = await store.apply(batch)
        await broadcast(events, isFirstScan: !hasScanned)
        guard !hasScanned else { return }
        hasScanned = true
        outputs.append(.firstScanServed)
        let held = heldRequests
        heldRequests = []
        for input in held { await process(input) }
    }

    /// Sends the store's events to the subscribers: a `reload` rendered once per distinct filter (empty for
    /// a filter that matches none of its changes, so `seq` has no gaps), everything else once for all.
    func broadcast(_ events: [StoreEvent], isFirstScan: Bool = false) async {
        recentProblems.record(events)
        let epoch = store.epoch
        // After a resync, each subscriber gets a fresh snapshot, which also stands for the batch's reload; so
        // does the first scan for those subscribed before it (only a host's own front can be, `watch`).
        let isResync = isFirstScan || events.contains { if case .resync = $0 { true } else { false } }
        for event in events {
            environment.onStoreEvent?(event)
            switch event {
            case .reload(let seq, _):
                guard !isResync, !subscriptions.isEmpty else { continue }
                var audiences: [SubscriptionFilter: [ClientID]] = [:]
                for (client, filter) in subscriptions { audiences[filter, default: []].append(client) }
                for (filter, clients) in audiences {
                    let reload = ServerEvent(event) { filter.includes(language: $0.language, table: $0.table) }
                    outputs.append(.event(Rendering.render(reload, epoch: epoch, seq: seq), to: clients))
                }
            case .error, .language, .resync:
                sendToAll(ServerEvent(event), seq: event.seq)
            }
        }
        guard isResync else { return }
        for (client, filter) in subscriptions {
            outputs.append(.snapshot(client, await snapshot(for: filter)))
        }
    }

    private func sendToAll(_ event: ServerEvent, seq: UInt64) {
        guard !subscriptions.isEmpty else { return }
        outputs.append(.event(Rendering.render(event, epoch: store.epoch, seq: seq), to: Array(subscriptions.keys)))
    }

    // MARK: - Subscriptions and snapshots

    /// Subscribes `client` with `options` (replacing its subscription); queues its snapshot unless `since`
    /// is still current or it asked for none.
    func subscribe(_ client: ClientID, _ options: Subscription) async {
        let filter = SubscriptionFilter(options)
        register(client, filter)
        if let since = options.since, since.epoch == store.epoch, since.seq == (await store.seq) { return }
        guard options.snapshot else { return }
        outputs.append(.snapshot(client, await snapshot(for: filter)))
    }

    /// Subscribes `client` with `filter`, replacing its subscription.
    private func register(_ client: ClientID, _ filter: SubscriptionFilter) {
        unsubscribe(client)
        subscriptions[client] = filter
        subscribersByFilter[filter, default: 0] += 1
    }

    /// Ends `client`'s subscription, and drops its filter's snapshot when it was the last with that filter.
    func unsubscribe(_ client: ClientID) {
        guard let filter = subscriptions.removeValue(forKey: client) else { return }
        let remaining = (subscribersByFilter[filter] ?? 1) - 1
        subscribersByFilter[filter] = remaining > 0 ? remaining : nil
        if remaining <= 0 { snapshots.remove(filter) }
    }

    private func snapshot(for filter: SubscriptionFilter) async -> Event {
        let seq = await store.seq
        if let cached = snapshots.value(for: filter, seq: seq) { return cached }
        let snapshot = await store.snapshot(languages: filter.languages.map { $0.map(\.identifier) },
                                            tables: filter.tables.map(Array.init))
        let rendered = Rendering.render(ServerEvent(snapshot), epoch: snapshot.epoch, seq: snapshot.seq)
        snapshots.insert(rendered, size: Rendering.size(of: rendered), for: filter, seq: snapshot.seq)
        return rendered
    }
}

/// The caps on the snapshots the service keeps for subscribers with the same filter.
package struct SnapshotCacheLimits: Sendable {
    /// Snapshots kept at most (16 by default).
    package var entries: Int
    /// Bytes of snapshots kept at most (64 MiB by default).
    package var bytes: Int

    /// Caps; the defaults suit a daemon.
    package init(entries: Int = 16, bytes: Int = 64 << 20) {
        self.entries = entries
        self.bytes = bytes
    }
}
