import BundleWatcher
import HotStringsClient
import HotStringsProtocol
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

    /// Prepares the watcher and the store for the bundle at `bundle`; nothing runs before `start`.
    ///
    /// - Throws: `EmbeddedStartError` when the development language is no language tag, the bundle cannot
    ///   be watched, or the state directory cannot be created.
    package init(bundle: String, options: LiveStrings.EmbeddedOptions) throws(EmbeddedStartError) {
        guard LanguageTag(options.developmentLanguage) != nil else {
            throw EmbeddedStartError(description: "'\(options.developmentLanguage)' is not a language tag")
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
        watcher.stop()
        deliverer.stop()
        continuation.finish()
    }

    /// Whether the watcher's, the delivery and the service's thread have all ended (after `stop()`).
    package var hasFinished: Bool {
        watcher.hasFinished && deliverer.hasFinished && core.withLock { $0?.hasEnded ?? true }
    }
}
