import BundleWatcher
import Dispatch
import HotStringsRelease
import HotStringsService
import LinuxSystem
import StringsStore

/// How `hotstrings serve` runs.
package struct ServerConfiguration: Sendable {
    /// The bundle directory.
    package var bundle: String
    /// The socket path (ignored under systemd socket activation).
    package var socketPath: String
    /// The socket file's mode.
    package var socketMode: UInt32 = 0o600
    /// The language every lookup falls back to before Base.
    package var developmentLanguage = "en"
    /// Settling and the file size cap.
    package var watcher = BundleWatcher.Options()
    /// Where the selected language is saved; nil keeps it in memory only.
    package var stateDirectory: String?
    /// Users besides our own and root that may connect.
    package var allowedUserIDs: Set<UInt32> = []
    /// Per-client buffer and request limits.
    var limits = IOLoop.Limits()
    /// How long shutdown waits for clients to read what is queued for them.
    package var shutdownGrace: Duration = .seconds(1)
    /// The origin the daemon keeps pulling releases from into the bundle, and when (nil: it does not pull).
    package var pull: (options: PullOptions, schedule: PullSchedule)?

    /// A configuration with defaults for everything but the bundle and the socket.
    package init(bundle: String, socketPath: String) {
        self.bundle = bundle
        self.socketPath = socketPath
    }

    /// Unsent bytes a client may have before it is resynchronized (8 MiB by default).
    package var clientBufferBytes: Int {
        get { limits.outboxBytes }
        set { limits.outboxBytes = newValue }
    }
}

/// Why the server could not start.
package struct ServerStartError: Error, CustomStringConvertible {
    /// What went wrong, for the one-line message on standard error.
    package var description: String
}

/// Runs the daemon as `hotstrings serve` does.
package enum Server {
    /// Runs a `Daemon` on the calling thread until a termination signal; returns the exit status.
    ///
    /// Call from the main thread before any other thread starts (see `Daemon.run`).
    /// - Throws: `ServerStartError` when the socket or the bundle cannot be set up.
    package static func run(_ configuration: ServerConfiguration) throws(ServerStartError) -> Int32 {
        try Daemon(configuration).run()
    }

    /// Starts the protocol service over `io` on a task that runs on `core`'s thread, with the store's work:
    /// the one place that builds the selection file and the service.
    ///
    /// Returns a semaphore signalled once the service has handled its last input (after `inputs` finishes).
    static func startCore(
        _ configuration: ServerConfiguration, watcher: BundleWatcher, io: IOLoop,
        inputs: AsyncStream<CoreInput>, on core: ThreadExecutor, pullLoop: PullLoop?,
        onFirstScan: @escaping @Sendable () -> Void
    ) -> DispatchSemaphore {
        let selection = configuration.stateDirectory.map { SelectionFile(directory: $0, root: watcher.root) }
        do {
            try selection?.prepare()
        } catch {
            Log.warning("cannot prepare the state directory (select-language will fail): \(error)")
        }
        let store = StringsStore(developmentLanguage: configuration.developmentLanguage,
                                 selectedLanguage: selection?.read())
        let coreDone = DispatchSemaphore(value: 0)
        Task(executorPreference: core) {
            let service = DaemonService(store: store, watcher: watcher, io: io, selection: selection,
                                        pullLoop: pullLoop, onFirstScan: onFirstScan)
            await service.run(inputs)
            coreDone.signal()
        }
        return coreDone
    }
}
