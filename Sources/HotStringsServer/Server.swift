import BundleWatcher
import Foundation
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

/// The daemon: the watcher, the store, the socket, until SIGTERM or SIGINT.
package enum Server {
    /// Runs the server on the calling thread until a termination signal; returns the exit status.
    ///
    /// Call from the main thread before any other thread starts: it blocks the signals it handles.
    /// - Throws: `ServerStartError` when the socket or the bundle cannot be set up.
    package static func run(_ configuration: ServerConfiguration) throws(ServerStartError) -> Int32 {
        Signals.ignore(.pipe)
        Signals.block([.interrupt, .terminate, .hangup])
        let openFiles = ResourceLimits.raiseOpenFiles()
        Log.debug("open files limit: \(openFiles)")
        let (listener, ownsSocketFile) = try openListener(configuration)
        let watcher: BundleWatcher
        do {
            watcher = try BundleWatcher(root: configuration.bundle, options: configuration.watcher)
        } catch {
            SocketIO.close(listener)
            if ownsSocketFile { try? FileSystem.removeFile(atPath: configuration.socketPath) }
            throw ServerStartError(description: "cannot watch \(configuration.bundle): \(error)")
        }
        let selection = configuration.stateDirectory.map { SelectionFile(directory: $0, root: watcher.root) }
        do {
            try selection?.prepare()
        } catch {
            Log.warning("cannot prepare the state directory (select-language will fail): \(error)")
        }
        let store = StringsStore(developmentLanguage: configuration.developmentLanguage,
                                 selectedLanguage: selection?.read())
        let (inputs, continuation) = AsyncStream.makeStream(of: CoreInput.self, bufferingPolicy: .unbounded)
        let ownUser = ProcessStatistics.userID
        let allowed = configuration.allowedUserIDs
        let io: IOLoop
        do {
            io = try IOLoop(
                listener: listener, limits: configuration.limits,
                admits: { peer in
                    let isAdmitted = peer.userID == ownUser || peer.userID == 0 || allowed.contains(peer.userID)
                    if !isAdmitted { Log.warning("refused a client of user \(peer.userID) (process \(peer.processID))") }
                    return isAdmitted
                },
                toCore: { continuation.yield($0) }
            )
        } catch {
            throw ServerStartError(description: "cannot set up the event loop: \(error)")
        }
        let socketPath = configuration.socketPath
        let coreDone = DispatchSemaphore(value: 0)
        Task {
            let service = DaemonService(store: store, watcher: watcher, io: io, selection: selection) {
                Log.info("serving \(watcher.root) on \(socketPath)")
                _ = SystemdNotify.notify("READY=1\n")
            }
            await service.run(inputs)
            coreDone.signal()
        }
        let ioDone = DispatchSemaphore(value: 0)
        let ioThread = Thread {
            io.run()
            ioDone.signal()
        }
        ioThread.name = "hotstrings-io"
        ioThread.start()
        watcher.start { batch in continuation.yield(.batch(batch)) }

        while true {
            let signal = Signals.waitForAny(of: [.interrupt, .terminate, .hangup])
            guard signal == .hangup else {
                Log.info("shutting down on \(signal)")
                break
            }
            Log.info("SIGHUP: rescanning \(watcher.root)")
            watcher.rescan()
        }
        watcher.stop()
        io.stop(grace: configuration.shutdownGrace)
        ioDone.wait()
        continuation.finish()
        coreDone.wait()
        if ownsSocketFile { try? FileSystem.removeFile(atPath: configuration.socketPath) }
        _ = SystemdNotify.notify("STOPPING=1\n")
        return 0
    }

    /// The listening socket: systemd's, or a new one at the configured path.
    ///
    /// A socket file that nothing listens on is left from a crash and is replaced; one that answers
    /// belongs to a running daemon, and starting a second one is refused.
    private static func openListener(_ configuration: ServerConfiguration) throws(ServerStartError)
        -> (Int32, ownsSocketFile: Bool) {
        if let activated = SocketActivation.listenerDescriptors().first {
            Log.info("using the socket passed by systemd (fd \(activated))")
            return (activated, false)
        }
        let path = configuration.socketPath
        if UnixSocket.isListening(atPath: path) {
            throw ServerStartError(description: "another hotstrings serve is already listening on \(path)")
        }
        if (try? FileSystem.status(atPath: path, followingSymlinks: false)) != nil {
            Log.info("replacing the stale socket file \(path)")
            try? FileSystem.removeFile(atPath: path)
        }
        do {
            return (try UnixSocket.listen(atPath: path, mode: configuration.socketMode), true)
        } catch {
            throw ServerStartError(description: "cannot listen on \(path): \(error)")
        }
    }
}
