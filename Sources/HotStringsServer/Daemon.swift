import BundleChanges
import BundleWatcher
import HotStringsFront
import HotStringsLog
import HotStringsService
import LinuxSystem
import StringsStore
import Synchronization

/// The daemon: the service host and the I/O loop that fronts it on a Unix socket, from start to a clean stop.
///
/// Its life is one pass through `State`: `configured` until `run`, `starting`, `running` (with what exists only then: the
/// socket, the host, the I/O loop and its thread) while it serves, `stopping` from the termination signal
/// until clients have read what was queued and the core has drained, then `stopped`. A start that fails goes
/// from `configured` straight to `stopped`.
package final class Daemon: Sendable {
    /// Where the daemon is in its life.
    package enum State: Sendable {
        /// Made, not started.
        case configured
        /// `run` is setting up the host, the socket and the I/O loop.
        case starting
        /// Serving, with what only a running daemon holds.
        case running(Running)
        /// Told to stop: no new clients; queued bytes are being written, the core drains.
        case stopping
        /// Done; every descriptor is closed and the socket file removed if it was still ours.
        case stopped
    }

    /// What a running daemon holds.
    package struct Running: Sendable {
        // The socket is opened by `start` and closed by `stop`, both on the main thread; the I/O thread reads
        // only its constant `fd` (see the conformance at the end of this file).
        let socket: ListeningSocket
        let host: ServiceHost<WireLines>
        let io: IOLoop
        let ioThread: NamedThread
        /// The page's listener, closed with the socket.
        let webListener: Int32?
    }

    private let configuration: ServerConfiguration
    private let state = Mutex(State.configured)
    /// Where it logs: the service's sink (`hotstrings serve`'s standard error).
    private var log: LogSink { configuration.service.log }

    /// A daemon for `configuration`, not started.
    package init(_ configuration: ServerConfiguration) {
        self.configuration = configuration
    }

    /// Where the daemon is in its life.
    package var currentState: State { state.withLock { $0 } }

    /// Starts, serves until SIGTERM or SIGINT (SIGHUP rescans the bundle), stops; returns the exit status.
    ///
    /// Call from the main thread before any other thread starts: it blocks the signals it handles.
    /// - Precondition: the daemon is `configured` (a daemon runs once).
    /// - Throws: `ServerStartError` when the socket or the bundle cannot be set up.
    package func run() throws(ServerStartError) -> Int32 {
        state.withLock { current in
            guard case .configured = current else { preconditionFailure("a Daemon runs once") }
            current = .starting
        }
        Signals.ignore(.pipe)
        Signals.block([.interrupt, .terminate, .hangup])
        log.debug("open files limit: \(ResourceLimits.raiseOpenFiles())")
        let running: Running
        do {
            running = try start()
        } catch {
            state.withLock { $0 = .stopped }
            throw error
        }
        state.withLock { $0 = .running(running) }
        waitForTermination(running.host.watcher)
        stop()
        _ = SystemdNotify.notify("STOPPING=1\n")
        return 0
    }

    /// Stops a running daemon: the host's sources (a pull in flight is cancelled, an install that began
    /// finishes; the watcher), then lets the I/O loop flush for up to the grace period, drains the core, closes
    /// the socket. Does nothing unless the daemon is `running`.
    func stop() {
        let running = state.withLock { state -> Running? in
            guard case .running(let running) = state else { return nil }
            state = .stopping
            return running
        }
        guard let running else { return }
        running.host.stopSources()
        running.io.stop(grace: configuration.shutdownGrace)
        running.ioThread.join()
        running.host.finish(waiting: true)
        running.socket.close()
        if let listener = running.webListener { SocketIO.close(listener) }
        state.withLock { $0 = .stopped }
    }

    private func start() throws(ServerStartError) -> Running {
        var hooks = ServiceHost<WireLines>.Hooks()
        let log = log
        hooks.onStoreEvent = { Self.log($0, to: log) }
        hooks.onPullReport = { Self.log($0, to: log) }
        let host: ServiceHost<WireLines>
        do {
            host = try ServiceHost(configuration.service, hooks: hooks)
        } catch {
            throw ServerStartError(description: error.description)
        }
        if let passing = host.passingPullProblem {
            log.warning("pull: cannot prepare \(configuration.service.bundle) yet: \(passing)")
        }
        if configuration.service.pull == nil { Self.warnWithoutLanguageFolders(in: host.watcher.root, to: log) }
        let web = try configuration.web.map { options throws(ServerStartError) in
            do throws(SystemError) {
                return try WebServer.open(options, stateDirectory: configuration.service.stateDirectory,
                                          root: host.watcher.root, log: log)
            } catch {
                throw ServerStartError(description: "cannot serve the page: \(error)")
            }
        }
        let socket: ListeningSocket
        do {
            socket = try ListeningSocket.open(path: configuration.socketPath, mode: configuration.socketMode, log: log)
        } catch {
            if let web { SocketIO.close(web.listener) }
            throw error
        }
        let io: IOLoop
        do {
            io = try IOLoop(listener: socket.fd, limits: configuration.limits, web: web, log: log,
                            admits: Self.admission(configuration.allowedUserIDs, log: log),
                            toCore: { host.submit($0) })
        } catch {
            socket.close()
            if let web { SocketIO.close(web.listener) }
            throw ServerStartError(description: "cannot set up the event loop: \(error)")
        }
        if let web { log.info("web: \(web.url)") }
        let where_ = socket.path ?? "the socket passed by systemd"
        let root = host.watcher.root
        host.start(connectionCount: { io.connectionCount.load(ordering: .relaxed) }, webURL: web?.url) { outputs in
            if outputs.contains(where: { if case .firstScanServed = $0 { true } else { false } }) {
                log.info("serving \(root) on \(where_)")
                _ = SystemdNotify.notify("READY=1\n")
            }
            io.submit(outputs)
        }
        let ioThread = NamedThread.run(name: "hotstrings-io") { io.run() }
        return Running(socket: socket, host: host, io: io, ioThread: ioThread, webListener: web?.listener)
    }

    /// Who may connect: this user, root, and the configured extra users; the others are logged to `log`.
    private static func admission(_ allowed: Set<UInt32>, log: LogSink) -> @Sendable (PeerCredentials) -> Bool {
        let ownUser = ProcessStatistics.userID
        return { peer in
            let isAdmitted = peer.userID == ownUser || peer.userID == 0 || allowed.contains(peer.userID)
            if !isAdmitted {
                log.warning("refused a client of user \(peer.userID) (process \(peer.processID))",
                            metadata: ["user": "\(peer.userID)", "process": "\(peer.processID)"])
            }
            return isAdmitted
        }
    }

    /// Warns when `root` holds no language folder: started in the wrong folder (a repository's root), the daemon
    /// would quietly serve whatever String Catalogs lie below it (test fixtures). A bundle that `--pull` fills is
    /// empty at first, and is not looked at.
    private static func warnWithoutLanguageFolders(in root: String, to log: LogSink) {
        guard let entries = try? FileSystem.listDirectory(atPath: root),
              !entries.contains(where: { BundleNames.language(ofFolder: $0.name) != nil }) else { return }
        log.warning("no language folder (<language>.lproj) in \(root): is it the bundle? Only the String Catalogs "
            + "found below it are served")
    }

    /// Logs what the store reports to `log`: problems as warnings (with their file, line and column as metadata),
    /// language switches and resyncs as information.
    private static func log(_ event: StoreEvent, to log: LogSink) {
        switch event {
        case .reload: break
        case .error(_, let problem) where isPullProblem(problem): break   // logged with its pull (Daemon+Pull)
        case .error(_, let problem): log.warning("\(problem)", metadata: problem.logMetadata)
        case .language(_, let language, let previous):
            log.info("language: \(language?.identifier ?? "none") (was \(previous?.identifier ?? "none"))")
        case .resync(_, let reason): log.info("resync: \(reason.rawValue)")
        }
    }

    private func waitForTermination(_ watcher: BundleWatcher) {
        while true {
            let signal = Signals.waitForAny(of: [.interrupt, .terminate, .hangup])
            guard signal == .hangup else {
                log.info("shutting down on \(signal)")
                return
            }
            log.info("SIGHUP: rescanning \(watcher.root)")
            watcher.rescan()
        }
    }
}

// @unchecked: only the main thread opens, holds and closes the socket (`Daemon.start`, `Daemon.stop`); the
// daemon's state carries it between the two under the state's lock.
extension ListeningSocket: @unchecked Sendable {}
