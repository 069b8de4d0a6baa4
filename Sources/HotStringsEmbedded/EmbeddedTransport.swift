import BundleWatcher
import HotStringsClient
import HotStringsProtocol
import HotStringsRelease
import HotStringsService
import LinuxSystem
import StringsFormat
import StringsStore
import Synchronization

/// A `HotStringsTransport` that runs the daemon's watcher, store and protocol service inside the process.
///
/// The watcher's thread hands each settled batch to a task (`EmbeddedSession`) that feeds it to the same
/// `ProtocolService` the daemon runs, as its one client; a delivery thread hands the service's events and
/// answers to the client, so reload hooks run there, never on the cooperative pool. The session's task, and
/// with it the store's work, runs on a thread of its own (a `ThreadExecutor`), as the daemon's does, so a
/// program that blocks the pool's threads still gets its reloads. There is one connection, made once the
/// first scan is in the store, and it lasts until `stop()`.
package final class EmbeddedTransport: HotStringsTransport {
    /// The watcher of the bundle.
    let watcher: BundleWatcher
    /// The tables.
    let store: StringsStore
    private let selection: SelectionFile?
    private let deliverer = Deliverer()
    private let inputs: Mutex<AsyncStream<EmbeddedInput>?>
    private let continuation: AsyncStream<EmbeddedInput>.Continuation
    private let isStopped = Atomic<Bool>(false)
    private let core = Mutex<ThreadExecutor?>(nil)
    /// The puller, when the bundle is fed from an origin; started by `start`.
    private let pullLoop: PullLoop?

    /// Prepares the watcher and the store for the bundle at `bundle`; nothing runs before `start`.
    ///
    /// - Throws: `EmbeddedStartError` when the development language is no language tag, the bundle cannot
    ///   be watched, or the state directory cannot be created.
    package init(bundle: String, options: LiveStrings.EmbeddedOptions, pull: LiveStrings.PullSource? = nil)
        throws(EmbeddedStartError) {
        guard LanguageTag(options.developmentLanguage) != nil else {
            throw EmbeddedStartError(description: "'\(options.developmentLanguage)' is not a language tag")
        }
        // Before the watcher: the bundle is created when missing.
        let pullOptions = try pull.map { source throws(EmbeddedStartError) in
            try Self.pullOptions(source, bundle: bundle)
        }
        var watcherOptions = BundleWatcher.Options()
        watcherOptions.maximumFileSize = options.maximumFileSize
        watcherOptions.followsExternalSymlinks = options.followsExternalSymlinks
        let watcher: BundleWatcher
        do {
            watcher = try BundleWatcher(root: bundle, options: watcherOptions)
        } catch {
            throw EmbeddedStartError(description: "cannot watch \(bundle): \(error)")
        }
        self.watcher = watcher
        selection = options.stateDirectory.map { SelectionFile(directory: $0, root: watcher.root) }
        do {
            try selection?.prepare()
        } catch {
            throw EmbeddedStartError(description: "cannot create the state directory: \(error)")
        }
        store = StringsStore(developmentLanguage: options.developmentLanguage, selectedLanguage: selection?.read())
        // Unbounded: it holds settled batches, the engine's few commands and pending requests, each handled
        // as fast as the store applies it; bounding it would drop batches, and with them file changes.
        let (stream, continuation) = AsyncStream.makeStream(of: EmbeddedInput.self, bufferingPolicy: .unbounded)
        inputs = Mutex(stream)
        self.continuation = continuation
        if let pull, let pullOptions {
            pullLoop = Self.makePullLoop(pull, options: pullOptions, bundle: bundle, continuation: continuation)
        } else {
            pullLoop = nil
        }
    }

    package func start(_ handler: @escaping @Sendable (TransportEvent) -> Void) {
        guard let stream = inputs.withLock({ $0.take() }) else { preconditionFailure("a transport is started once") }
        deliverer.start(handler)
        let watcher = watcher
        var environment = ProtocolService<TransportEvents>.Environment(
            root: watcher.root, watcherStatus: { watcher.status }, connectionCount: { 1 })
        if let selection {
            environment.saveSelection = { language in try selection.write(language) }
        }
        if let pullLoop { environment.pullStatus = { pullLoop.status } }
        let session = EmbeddedSession(service: ProtocolService(store: store, environment: environment),
                                      deliver: { [deliverer] in deliverer.enqueue($0) })
        let core = ThreadExecutor(name: "hotstrings-core")
        self.core.withLock { $0 = core }
        Task(executorPreference: core) {
            await session.run(stream)
            // The session was the executor's one task: its thread ends once this last job returns.
            core.finish()
        }
        let continuation = continuation
        watcher.start { batch in continuation.yield(.batch(batch)) }
        pullLoop?.start()
    }

    package func send(_ command: TransportCommand) {
        continuation.yield(.command(command))
    }

    package func request(_ request: Request) async throws(LiveStringsError) -> [String: JSONValue] {
        let result = await withCheckedContinuation { (reply: Reply) in
            guard !isStopped.load(ordering: .acquiring),
                  case .enqueued = continuation.yield(.request(request, reply))
            else {
                reply.resume(returning: .failure(.notConnected))
                return
            }
        }
        return try result.get()
    }

    package func stop() {
        guard !isStopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        // Not waiting for the pull thread: `stop()` may come from `onFailure` on that thread.
        pullLoop?.stop(waiting: false)
        watcher.stop()
        deliverer.stop()
        continuation.finish()
    }

    /// Whether the watcher's, the delivery, the service's and the puller's thread have all ended (after `stop()`).
    package var hasFinished: Bool {
        watcher.hasFinished && deliverer.hasFinished && core.withLock { $0?.hasEnded ?? true }
            && (pullLoop?.hasEnded ?? true)
    }

    /// Where the puller stands (nil without `pull`).
    package var pullStatus: PullStatus? { pullLoop?.status }

    /// The options of `source`, after readying `bundle` for it (created if missing, leftovers removed).
    private static func pullOptions(_ source: LiveStrings.PullSource, bundle: String) throws(EmbeddedStartError)
        -> PullOptions {
        guard source.interval > .zero else {
            throw EmbeddedStartError(description: "the pull interval is not positive")
        }
        guard source.keptReleases >= 0 else { throw EmbeddedStartError(description: "keptReleases is negative") }
        guard source.maximumFileSize > 0 else {
            throw EmbeddedStartError(description: "maximumFileSize is not positive")
        }
        guard source.maximumReleaseSize > 0 else {
            throw EmbeddedStartError(description: "maximumReleaseSize is not positive")
        }
        guard source.timeout > .zero else { throw EmbeddedStartError(description: "the timeout is not positive") }
        var options: PullOptions
        do throws(ReleaseError) {
            options = try PullOptions(url: source.url)
            // A passing failure (another pull holds the lock) is met again, and reported, by the first pull.
            _ = try ReleaseStore(bundle: bundle).prepareForPulling()
        } catch {
            throw EmbeddedStartError(description: "cannot pull into \(bundle): \(error)")
        }
        options.keptReleases = source.keptReleases
        options.maximumFileSize = source.maximumFileSize
        options.maximumReleaseSize = source.maximumReleaseSize
        options.limits.idleTimeout = source.timeout
        return options
    }

    /// A loop pulling into `bundle` whose failures reach the session as `error` events and `source.onFailure`
    /// (the first of a run of identical ones), and whose installs reach `source.onInstall`.
    private static func makePullLoop(_ source: LiveStrings.PullSource, options: PullOptions, bundle: String,
                                     continuation: AsyncStream<EmbeddedInput>.Continuation) -> PullLoop {
        let schedule = PullSchedule(interval: source.interval)
        return PullLoop(puller: Puller(bundle: bundle, options: options), schedule: schedule) { report in
            switch report.result {
            case .success(let outcome):
                if case .installed = outcome.kind { source.onInstall?(outcome.release) }
            case .failure(let error):
                guard !report.isRepeatedFailure else { return }
                continuation.yield(.problems([error.problem]))
                source.onFailure?(error.problem)
            }
        }
    }
}
