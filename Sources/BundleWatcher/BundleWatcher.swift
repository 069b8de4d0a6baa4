import BundleChanges
import LinuxSystem
import StringsFormat
import Synchronization

/// Watches a bundle directory with inotify and hands on one `ChangeBatch` per settled change.
///
/// The watcher runs on a thread of its own, blocked in `ppoll` (its `Poller`) until the kernel has events or a
/// settle deadline passes; it never polls, so an idle bundle costs no CPU. The first batch is a full
/// scan of the bundle. Batches are delivered on the watcher's thread, in order.
package final class BundleWatcher: Sendable {
    /// How the watcher reads and settles.
    package struct Options: Sendable {
        /// Settle and batching times.
        package var settling = SettleTiming()
        /// Files larger than this are reported as errors and not read (16 MiB by default).
        package var maximumFileSize = 16 << 20
        /// Batches at least this large are parsed in parallel.
        package var parallelParseThreshold = 16
        /// Whether tables and folders reached through symbolic links that lead outside the bundle are read.
        ///
        /// Off by default: a daemon serving a bundle that others can write would otherwise read, with its own
        /// privileges, whatever file a link names (`leak.lproj -> /root/secrets`). Links that stay inside the
        /// bundle (Kubernetes' `..data` layout, the over-the-air releases) are always followed.
        package var followsExternalSymlinks = false
        /// How many folders deep below the root String Catalogs are searched for (`Resources` is 1,
        /// `Features/Chat` 2): a deeper folder is reported once and not searched.
        package var catalogSearchDepth = BundleNames.catalogSearchDepth
        /// How many folders (other than the root and the language folders) are watched for String Catalogs at
        /// most: each takes one inotify watch of the user's `fs.inotify.max_user_watches`. The first folder
        /// beyond it is reported, and folders beyond it are not searched.
        package var catalogSearchFolders = 1024

        /// Creates the default options.
        package init() {}
    }

    private struct Control {
        var isStopping = false
        var rescan: ResyncReason?
        var status: WatcherStatus
    }

    /// The bundle root, resolved to an absolute path without symlinks.
    package let root: String
    private let options: Options
    private let inotify: Inotify
    private let poller: Poller
    /// Polls the inotify descriptor alone, for the read ahead's quiet time: `poller`'s wake-ups (`stop`, `rescan`)
    /// are left for the loop's own wait.
    private let quietPoller: Poller
    private let control: Mutex<Control>
    private let finished = Mutex(false)
    /// Whether reads are paused; held while events are read, so `pauseReading()` waits out a read in progress.
    private let isReadingPaused = Mutex(false)

    /// Prepares a watcher for the bundle at `root`.
    ///
    /// - Throws: `SystemError` when the root cannot be resolved or inotify cannot be set up.
    package init(root: String, options: Options = Options()) throws(SystemError) {
        self.root = try FileSystem.resolvedPath(root)
        self.options = options
        inotify = try Inotify()
        poller = try Poller()
        try poller.add(inotify.fileDescriptor)
        quietPoller = try Poller()
        try quietPoller.add(inotify.fileDescriptor)
        control = Mutex(Control(status: WatcherStatus(
            root: self.root, isRootPresent: true, watchedDirectories: 0, files: 0, pendingPaths: 0
        )))
    }

    /// Starts watching; `onBatch` is called on the watcher's thread, first with the full scan.
    package func start(onBatch: @escaping @Sendable (ChangeBatch) -> Void) {
        let reader = TableReader(
            root: root, maximumFileSize: options.maximumFileSize, parallelThreshold: options.parallelParseThreshold,
            followsExternalSymlinks: options.followsExternalSymlinks
        )
        let settler = Settler<SettleKey>(configuration: options.settling)
        // Detached: `stop()` ends it at its next wake-up, and `hasFinished` tells when it has.
        let limits = WatchLoop.SearchLimits(depth: options.catalogSearchDepth, folders: options.catalogSearchFolders)
        _ = NamedThread.run(name: "hotstrings-watcher") { [self] in
            let loop = WatchLoop(root: root, inotify: inotify, reader: reader, settler: settler, searchLimits: limits)
            loop.waitForEvents = { [quietPoller] deadline in _ = try? quietPoller.wait(timeout: deadline - .now) }
            run(loop, onBatch: onBatch)
        }
    }

    /// Asks for a full rescan of the bundle (as SIGHUP does).
    package func rescan() {
        control.withLock { $0.rescan = .requested }
        poller.wake()
    }

    /// Stops the watcher: its thread ends at its next wake-up, which `stop` causes at once.
    package func stop() {
        control.withLock { $0.isStopping = true }
        poller.wake()
    }

    /// Stops reading inotify events until `resumeReading()`, so that a test can make the kernel's queue overflow.
    ///
    /// The descriptor leaves the poller rather than being skipped, because `poll` is level-triggered and an
    /// unread queue would wake the thread in a loop. Once this returns, no event is read: a read in progress
    /// has ended, and a read the thread was about to make (its wait may have returned just before) is skipped.
    package func pauseReading() {
        isReadingPaused.withLock { $0 = true }
        poller.remove(inotify.fileDescriptor)
    }

    /// Reads inotify events again after `pauseReading()`.
    /// - Throws: `SystemError` from the poller when the watcher has stopped.
    package func resumeReading() throws(SystemError) {
        isReadingPaused.withLock { $0 = false }
        try poller.add(inotify.fileDescriptor)
    }

    /// Whether the watcher's thread has ended.
    package var hasFinished: Bool { finished.withLock { $0 } }

    /// What the watcher is doing now; already up to date with a batch when `onBatch` receives it.
    package var status: WatcherStatus { control.withLock { $0.status } }

    private func run(_ loop: WatchLoop, onBatch: @Sendable (ChangeBatch) -> Void) {
        // The inotify and poller descriptors are closed when the watcher is released, not here: `stop()`
        // or `rescan()` may still wake the poller from another thread, and a closed descriptor number
        // can be reused at once by someone else's file or socket.
        defer { finished.withLock { $0 = true } }
        // Status first, so that whoever reacts to a batch finds `status` up to date with it.
        let first = loop.start()
        publish(loop)
        onBatch(first)
        while true {
            let timeout = loop.nextDeadline.map { max(.zero, $0 - .now) }
            let ready: [Int32]
            do {
                ready = try poller.wait(timeout: timeout)
            } catch {
                onBatch(ChangeBatch(problems: [FileProblem(file: ".", message: "watcher stopped: \(error)")]))
                return
            }
            let (isStopping, rescan) = control.withLock { state in
                defer { state.rescan = nil }
                return (state.isStopping, state.rescan)
            }
            if isStopping { return }
            if let rescan { loop.requestRescan(rescan) }
            if ready.contains(inotify.fileDescriptor) {
                do {
                    loop.handle(try readQueuedEvents(), at: .now)
                } catch {
                    loop.requestRescan(.overflow)
                }
            }
            let batch = loop.takeSettled(at: .now, queuedEvents: readQueuedEvents)
            publish(loop)
            if let batch { onBatch(batch) }
        }
    }

    /// The events queued now, or none while reading is paused.
    private func readQueuedEvents() throws(SystemError) -> [InotifyEvent] {
        try isReadingPaused.withLock { isPaused throws(SystemError) in isPaused ? [] : try inotify.readEvents() }
    }

    private func publish(_ loop: WatchLoop) {
        let statistics = loop.statistics
        control.withLock { $0.status = statistics }
    }
}
