import BundleChanges
import BundleWatcher
import Dispatch
import HotStringsLog
import HotStringsProtocol
import HotStringsRelease
import LinuxSystem
import StringsStore
import Synchronization

/// The service, assembled once for every front: the watcher, the store, the selection file, the pull loop, the
/// core's executor and the `ProtocolService`. A front (the daemon's I/O loop, the embedded session, `watch`'s
/// standard output) only moves `ServiceInput`s in and `ServiceOutput`s out; a behaviour added here reaches all.
///
/// Its life is one pass through `Lifecycle`: `configured` until `start`, `running` while the core takes inputs,
/// `draining` from `finish` until the core has handled the last of them, then `stopped`. What exists only
/// while it runs (the core's thread) is carried by the state, not kept beside it.
package final class ServiceHost<Rendering: EventRendering>: Sendable {
    /// What the core hands its front, in order, on the core's thread.
    package typealias Output = ServiceOutput<Rendering>

    /// Where the host is in its life.
    package enum Lifecycle: Sendable {
        /// Made, not started: the inputs wait in their stream.
        case configured(AsyncStream<ServiceInput>)
        /// The core takes inputs on its thread.
        case running(Core)
        /// The inputs are finished; the core handles what was queued before it ends.
        case draining(Core)
        /// The core has ended (or never started).
        case stopped
    }

    /// The core while it exists: its thread, and a signal that it has handled its last input.
    package struct Core: Sendable {
        let executor: ThreadExecutor
        let drained: DispatchSemaphore
    }

    /// Why a host could not be made.
    package struct StartError: Error, Sendable, CustomStringConvertible {
        /// What could not be set up.
        package enum Stage: Sendable {
            /// The bundle, for pulling releases into it.
            case pull
            /// The watcher on the bundle.
            case watch
            /// The state directory, where the selection is saved.
            case stateDirectory
        }

        /// What could not be set up.
        package var stage: Stage
        /// What went wrong, naming the bundle or directory.
        package var description: String
    }

    /// What a front may observe besides the outputs (the daemon logs; embedded mode calls the app back).
    package struct Hooks: Sendable {
        /// Sees every store event before it is sent.
        package var onStoreEvent: (@Sendable (StoreEvent) -> Void)?
        /// Sees every pull's report, on the puller's thread (after a new failure is queued as an `error` event).
        package var onPullReport: (@Sendable (PullReport) -> Void)?

        /// No hooks.
        package init() {}
    }

    /// The options it was made with.
    package let options: ServiceOptions
    /// The bundle's watcher.
    package let watcher: BundleWatcher
    /// The tables.
    package let store: StringsStore
    /// The puller, when the bundle is fed from an origin.
    package let pullLoop: PullLoop?
    /// Why the bundle could not be readied for pulling yet, when that may pass (another pull holds its lock):
    /// the first pull meets it again, and reports it.
    package let passingPullProblem: ReleaseError?
    private let selection: SelectionFile?
    private let hooks: Hooks
    /// The threads that run what may block, so the core never does: one for writes (edits, the selection's save),
    /// one for reads of the bundle (`lint`, `states`, `status`'s release), each started with its first job.
    private let writer = ServiceWorker(name: "hotstrings-edit")
    private let reader = ServiceWorker(name: "hotstrings-read")
    private let inputs: AsyncStream<ServiceInput>.Continuation
    private let lifecycle: Mutex<Lifecycle>
    /// Batches queued and not yet taken by the core (counted only against `ServiceOptions.batchBacklog`).
    private let queuedBatches = Atomic<Int>(0)

    /// Readies the bundle for pulling (when `options.pull` is set), the watcher, the state directory and the
    /// store; nothing runs before `start`.
    /// - Throws: `StartError` when the bundle cannot be pulled into or watched, or (with
    ///   `requiresStateDirectory`) the state directory cannot be created.
    package init(_ options: ServiceOptions, hooks: Hooks = Hooks()) throws(StartError) {
        self.options = options
        self.hooks = hooks
        // Before the watcher: the bundle is created when missing.
        passingPullProblem = try options.pull.flatMap { _ throws(StartError) in try Self.prepareForPulling(options) }
        let watcher: BundleWatcher
        do {
            watcher = try BundleWatcher(root: options.bundle, options: options.watcher)
        } catch {
            throw StartError(stage: .watch, description: "cannot watch \(options.bundle): \(error)")
        }
        self.watcher = watcher
        let selection = options.stateDirectory.map { SelectionFile(directory: $0, root: watcher.root) }
        self.selection = selection
        do {
            try selection?.prepare()
        } catch {
            guard !options.requiresStateDirectory else {
                throw StartError(stage: .stateDirectory, description: "cannot create the state directory: \(error)")
            }
            options.log.warning("cannot prepare the state directory (select-language will fail): \(error)")
        }
        store = StringsStore(developmentLanguage: options.developmentLanguage.identifier,
                             selectedLanguage: selection?.read(), pseudoLanguages: options.pseudoLanguages)
        // Unbounded: it holds settled batches, requests (each front bounds its own) and pull problems, each
        // handled as fast as the store applies it; bounding it would drop batches, and with them file changes.
        let (stream, continuation) = AsyncStream.makeStream(of: ServiceInput.self, bufferingPolicy: .unbounded)
        inputs = continuation
        lifecycle = Mutex(.configured(stream))
        pullLoop = options.pull.map { pull in
            Self.pullLoop(bundle: options.bundle, pull, hooks: hooks) { continuation.yield(.problems($0)) }
        }
    }

    /// Where the host is in its life.
    package var state: Lifecycle { lifecycle.withLock { $0 } }

    /// Starts the core on a thread of its own (a task on the cooperative pool would keep libdispatch's monitor
    /// ticking, and a program that blocks the pool would get no reloads), then the watcher and the puller.
    ///
    /// - Parameters:
    ///   - connectionCount: how many clients the front has, for `status`.
    ///   - webURL: the page's address with its token, for `status` (nil: no page).
    ///   - deliver: called on the core's thread with the outputs of each input, in order.
    /// - Precondition: the host is `configured` (a host starts once).
    package func start(connectionCount: @escaping @Sendable () -> Int, webURL: String? = nil,
                       deliver: @escaping @Sendable ([Output]) -> Void) {
        let core = Core(executor: ThreadExecutor(name: "hotstrings-core"), drained: DispatchSemaphore(value: 0))
        let stream = lifecycle.withLock { state -> AsyncStream<ServiceInput> in
            guard case .configured(let stream) = state else { preconditionFailure("a ServiceHost starts once") }
            state = .running(core)
            return stream
        }
        var environment = environment(connectionCount: connectionCount)
        environment.webURL = webURL
        Task(executorPreference: core.executor) {
            let service = ProtocolService<Rendering>(store: self.store, environment: environment)
            for await input in stream {
                if case .batch = input { self.queuedBatches.subtract(1, ordering: .relaxed) }
                deliver(await service.handle(input))
            }
            // No input is taken any more, so no work's result either: the workers end (an edit waiting for a lock
            // stops waiting; one writing finishes its write).
            self.writer.finish()
            self.reader.finish()
            core.drained.signal()
            // The service was the executor's one task: its thread ends once this last job returns.
            core.executor.finish()
        }
        // Weak: the watcher keeps its handler until it stops, and must not keep the host alive.
        watcher.start { [weak self] batch in self?.enqueue(batch) }
        pullLoop?.start()
    }

    /// Hands `input` to the core, from any thread; false once the host is finishing (the input is dropped).
    @discardableResult
    package func submit(_ input: ServiceInput) -> Bool {
        if case .enqueued = inputs.yield(input) { true } else { false }
    }

    private func enqueue(_ batch: ChangeBatch) {
        if let backlog = options.batchBacklog, queuedBatches.load(ordering: .relaxed) >= backlog {
            // A consumer this far behind has lost track: drop the batch and rescan instead.
            watcher.rescan()
            return
        }
        queuedBatches.add(1, ordering: .relaxed)
        inputs.yield(.batch(batch))
    }

    /// Stops what feeds the host: the puller (a pull in flight is cancelled, an install that began finishes;
    /// waited for unless `waitingForPuller` is false, when this may run on the puller's own thread) and the
    /// watcher. Requests still reach the core until `finish`.
    package func stopSources(waitingForPuller: Bool = true) {
        pullLoop?.stop(waiting: waitingForPuller)
        watcher.stop()
    }

    /// Ends the inputs: the core handles what is queued, then its thread ends. With `waiting`, returns once it
    /// has; without, at once.
    package func finish(waiting: Bool) {
        inputs.finish()
        let core = lifecycle.withLock { state -> Core? in
            switch state {
            case .configured:
                state = .stopped
                return nil
            case .running(let core):
                state = .draining(core)
                return core
            case .draining(let core):
                return core
            case .stopped:
                return nil
            }
        }
        guard waiting, let core else { return }
        core.drained.wait()
        core.executor.join()
        lifecycle.withLock { $0 = .stopped }
    }

    /// Whether the core's thread and the workers' have ended, or never started.
    package var hasEnded: Bool {
        switch state {
        case .configured, .stopped: true
        case .running(let core), .draining(let core):
            core.executor.hasEnded && writer.hasEnded && reader.hasEnded
        }
    }

    private func environment(connectionCount: @escaping @Sendable () -> Int)
        -> ProtocolService<Rendering>.Environment {
        let watcher = watcher
        var environment = ProtocolService<Rendering>.Environment(
            root: watcher.root, watcherStatus: { watcher.status }, connectionCount: connectionCount)
        if let selection {
            environment.saveSelection = { language in try selection.write(language) }
        }
        environment.onStoreEvent = hooks.onStoreEvent
        environment.log = options.log
        if let pullLoop { environment.pullStatus = { pullLoop.status } }
        if var editor = try? BundleEditor(root: watcher.root, developmentLanguage: options.developmentLanguage) {
            editor.lockTimeout = options.editLockTimeout
            editor.servesPseudoLanguages = options.pseudoLanguages
            editor.isFedByPull = options.pull != nil
            environment.bundleEditor = editor
        }
        let (writer, reader, inputs) = (writer, reader, inputs)
        environment.handOff = { work, client, requestID in
            let worker = switch work.lane {
            case .writes: writer
            case .reads: reader
            }
            worker.run {
                let result = work.run { worker.isFinishing }
                // Dropped once the host finishes: nobody waits for the answer then.
                inputs.yield(.workDone(client, requestID, result))
            }
        }
        return environment
    }
}
