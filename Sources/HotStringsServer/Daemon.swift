import BundleWatcher
import Dispatch
import HotStringsRelease
import HotStringsService
import LinuxSystem
import Synchronization

/// The daemon: the socket, the watcher, the I/O thread and the protocol core, from start to a clean stop.
///
/// Its life is one pass through `State`: `configured` until `run`, `running` while it serves, `stopping`
/// from the termination signal until clients have read what was queued and the core has drained, then
/// `stopped`. A start that fails goes from `configured` straight to `stopped`.
package final class Daemon: Sendable {
    /// Where the daemon is in its life.
    package enum State: Sendable, Equatable {
        /// Made, not started.
        case configured
        /// Serving.
        case running
        /// Told to stop: no new clients; queued bytes are being written, the core drains.
        case stopping
        /// Done; every descriptor is closed and the socket file removed if it was still ours.
        case stopped
    }

    private let configuration: ServerConfiguration
    private let state = Mutex(State.configured)

    /// A daemon for `configuration`, not started.
    package init(_ configuration: ServerConfiguration) {
        self.configuration = configuration
    }

    /// Where the daemon is in its life.
    package var currentState: State { state.withLock { $0 } }

    /// Starts, serves until SIGTERM or SIGINT (SIGHUP rescans the bundle), stops; returns the exit status.
    ///
    /// Call from the main thread before any other thread starts: it blocks the signals it handles, and
    /// sets the socket's mode through the process-wide umask.
    /// - Precondition: the daemon is `configured` (a daemon runs once).
    /// - Throws: `ServerStartError` when the socket or the bundle cannot be set up.
    package func run() throws(ServerStartError) -> Int32 {
        state.withLock { current in
            precondition(current == .configured, "a Daemon runs once")
            current = .running
        }
        Signals.ignore(.pipe)
        Signals.block([.interrupt, .terminate, .hangup])
        Log.debug("open files limit: \(ResourceLimits.raiseOpenFiles())")
        let running: Running
        do {
            running = try start()
        } catch {
            state.withLock { $0 = .stopped }
            throw error
        }
        waitForTermination(running.watcher)
        state.withLock { $0 = .stopping }
        running.stop(grace: configuration.shutdownGrace)
        state.withLock { $0 = .stopped }
        _ = SystemdNotify.notify("STOPPING=1\n")
        return 0
    }

    /// What a running daemon holds.
    private struct Running {
        let socket: ListeningSocket
        let watcher: BundleWatcher
        let io: IOLoop
        let inputs: AsyncStream<CoreInput>.Continuation
        let ioThread: NamedThread
        let core: ThreadExecutor
        let coreDone: DispatchSemaphore
        let pullLoop: PullLoop?

        /// Stops the puller (a pull in flight is cancelled, an install that began finishes), then the watcher,
        /// lets the I/O loop flush for up to `grace`, drains the core, closes the socket.
        func stop(grace: Duration) {
            pullLoop?.stop()
            watcher.stop()
            io.stop(grace: grace)
            ioThread.join()
            inputs.finish()
            coreDone.wait()
            core.finish()
            core.join()
            socket.close()
        }
    }

    private func start() throws(ServerStartError) -> Running {
        if configuration.pull != nil { try Self.preparePulledBundle(configuration.bundle) }
        let socket = try ListeningSocket.open(path: configuration.socketPath, mode: configuration.socketMode)
        let watcher: BundleWatcher
        do {
            watcher = try BundleWatcher(root: configuration.bundle, options: configuration.watcher)
        } catch {
            socket.close()
            throw ServerStartError(description: "cannot watch \(configuration.bundle): \(error)")
        }
        let (inputs, continuation) = AsyncStream.makeStream(of: CoreInput.self, bufferingPolicy: .unbounded)
        let io: IOLoop
        do {
            io = try IOLoop(listener: socket.fd, limits: configuration.limits,
                            admits: Self.admission(configuration.allowedUserIDs),
                            toCore: { continuation.yield($0) })
        } catch {
            socket.close()
            throw ServerStartError(description: "cannot set up the event loop: \(error)")
        }
        let where_ = socket.path ?? "the socket passed by systemd"
        let core = ThreadExecutor(name: "hotstrings-core")
        let pullLoop = Self.pullLoop(configuration) { continuation.yield($0) }
        let coreDone = Server.startCore(configuration, watcher: watcher, io: io, inputs: inputs, on: core,
                                        pullLoop: pullLoop) {
            Log.info("serving \(watcher.root) on \(where_)")
            _ = SystemdNotify.notify("READY=1\n")
        }
        let ioThread = NamedThread.run(name: "hotstrings-io") { io.run() }
        watcher.start { batch in continuation.yield(.batch(batch)) }
        pullLoop?.start()
        return Running(socket: socket, watcher: watcher, io: io, inputs: continuation,
                       ioThread: ioThread, core: core, coreDone: coreDone, pullLoop: pullLoop)
    }

    /// Who may connect: this user, root, and the configured extra users.
    private static func admission(_ allowed: Set<UInt32>) -> @Sendable (PeerCredentials) -> Bool {
        let ownUser = ProcessStatistics.userID
        return { peer in
            let isAdmitted = peer.userID == ownUser || peer.userID == 0 || allowed.contains(peer.userID)
            if !isAdmitted { Log.warning("refused a client of user \(peer.userID) (process \(peer.processID))") }
            return isAdmitted
        }
    }

    private func waitForTermination(_ watcher: BundleWatcher) {
        while true {
            let signal = Signals.waitForAny(of: [.interrupt, .terminate, .hangup])
            guard signal == .hangup else {
                Log.info("shutting down on \(signal)")
                return
            }
            Log.info("SIGHUP: rescanning \(watcher.root)")
            watcher.rescan()
        }
    }
}
