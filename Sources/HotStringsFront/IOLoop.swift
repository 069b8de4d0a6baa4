import HotStringsLog
import HotStringsProtocol
import HotStringsService
import LinuxSystem
import Synchronization

/// The I/O thread that fronts a service host: accepts clients, reads request lines, writes responses and events.
/// The daemon runs one with its Unix socket (and the page when asked); embedded mode runs one for the page alone.
///
/// It never blocks on a client: sockets are non-blocking, each client's unsent bytes wait in its
/// `Outbox`, and writable interest is asked for only while something waits. Work that needs the store
/// goes to the service host's core as `ServiceInput`; the core answers with `ServiceOutput`s, rendered as lines
/// (`WireLines`), handed over under a lock.
///
/// Each pass of the loop waits once, applies the core's commands, reads once (at most `Limits.bytesPerTurn`)
/// from every ready connection whose earlier lines are all handed on, hands requests to the core, then
/// writes to every connection with bytes queued. Requests go to the core round-robin: connections with
/// complete lines wait in one queue, each hands on one request (skipping at most `Limits.linesPerTurn`
/// empty lines) and goes to the back, and no more than `Limits.coreBacklog` requests wait in the core at
/// once. So one client's flood, of requests or of empty lines, delays another's request by about one
/// request per busy client, not by the whole flood.
package final class IOLoop: Sendable {
    /// Per-connection limits, and what happens past each.
    package struct Limits: Sendable {
        /// Unsent event bytes a client may have before it is resynchronized.
        package var outboxBytes = 8 << 20
        /// Requests a client may have unanswered before its socket is no longer read.
        var requestsInFlight = 64
        /// Times a client may overflow before it is closed.
        var overflowsBeforeClosing = 3
        /// Lines (empty ones count) taken from one connection per turn.
        var linesPerTurn = 32
        /// Requests of all clients handed to the core and not answered yet; more wait in their framers. A small
        /// number keeps a `get` close to the front while others pipeline large tables (with 16, two such clients
        /// made a `get` wait 1.2 to 2.2 ms at p50 on 2 cores; with 4, 0.44 to 0.73 ms, for about a third less
        /// table throughput).
        var coreBacklog = 4
        /// Bytes read from one connection per turn (one `read`).
        var bytesPerTurn = 64 << 10
        /// Unsent answer bytes past which a client's requests are no longer read, until it has read them.
        var answerBytesSoftCap = 1 << 20
        /// Unsent answer bytes past which the client is closed (a single answer may be larger than this).
        var answerBytesHardCap = 16 << 20

        /// The defaults.
        package init() {}
    }

    let poller: EventPoller
    /// The Unix socket's listener (nil: the page alone, as in embedded mode).
    let listener: Int32?
    let limits: Limits
    let admits: @Sendable (PeerCredentials) -> Bool
    let toCore: @Sendable (ServiceInput) -> Void
    /// The page's HTTP listener and rules (nil: no page).
    let web: WebServer?
    /// Where refused clients and requests are logged.
    let log: LogSink
    private let commands = Mutex<[ServiceOutput<WireLines>]>([])
    private let stopping = Mutex<ContinuousClock.Instant?>(nil)
    /// How many clients are connected, for `status`.
    package let connectionCount = Atomic<Int>(0)

    /// The ID of the first client it accepts (those after count up): an embedded front keeps the IDs below for its
    /// own session.
    let firstClientID: ClientID

    /// A loop over `listener` (nil: none) and `web`'s listener (nil: no page), handing requests to `toCore` and
    /// logging to `log`.
    package init(
        listener: Int32?, limits: Limits, web: WebServer? = nil, firstClientID: ClientID = 1, log: LogSink,
        admits: @escaping @Sendable (PeerCredentials) -> Bool,
        toCore: @escaping @Sendable (ServiceInput) -> Void
    ) throws(SystemError) {
        self.listener = listener
        self.log = log
        self.firstClientID = firstClientID
        self.limits = limits
        self.web = web
        self.admits = admits
        self.toCore = toCore
        poller = try EventPoller()
        if let listener { try poller.add(listener, interest: .readable) }
        if let web { try poller.add(web.listener, interest: .readable) }
    }

    /// Hands the core's outputs to the I/O thread; safe from any thread.
    package func submit(_ new: [ServiceOutput<WireLines>]) {
        guard !new.isEmpty else { return }
        commands.withLock { $0 += new }
        poller.wake()
    }

    /// Stops accepting; the loop ends once every queued byte is written or `grace` has passed.
    package func stop(grace: Duration) {
        stopping.withLock { $0 = .now + grace }
        poller.wake()
    }

    var isStopping: Bool { stopping.withLock { $0 } != nil }

    /// Applies what `submit` handed over since the last time, in order.
    private func applyQueuedCommands(_ state: inout State) {
        for command in commands.withLock({ queued in defer { queued = [] }; return queued }) {
            apply(command, &state)
        }
    }

    /// Runs the loop on the calling thread until `stop` and the flush are done.
    package func run() {
        var state = State(limits: limits, firstClientID: firstClientID)
        // The poller is closed when the loop is released, not here: the core may still submit commands
        // (and wake the poller) until it has drained its inputs, and a closed eventfd's number can be reused.
        defer {
            for fd in state.connections.keys { SocketIO.close(fd) }
            for fd in state.web.connections.keys { SocketIO.close(fd) }
        }
        var isAccepting = true
        while true {
            if let pausedUntil = state.acceptPausedUntil, ContinuousClock.now >= pausedUntil, isAccepting {
                resumeAccepting(&state)
            }
            let deadline = stopping.withLock { $0 }
            if let deadline {
                if isAccepting {
                    // What was handed over before the stop is queued before the connections close: the commands
                    // are otherwise applied only after the next wait, when a connection without output was closed.
                    applyQueuedCommands(&state)
                    isAccepting = false
                    if let listener { poller.remove(listener) }
                    if let web { poller.remove(web.listener) }
                    for fd in state.web.connections.keys { closeWeb(fd, &state) }
                    for fd in state.connections.keys {
                        state.connections[fd]?.isClosing = true
                        state.markForFlush(fd)
                    }
                    flushPass(&state)
                }
                if state.connections.isEmpty || ContinuousClock.now >= deadline { return }
            }
            let wakeAt = [deadline, state.acceptPausedUntil, nextWebDeadline(state)].compactMap { $0 }.min()
            let timeout: Duration? = wakeAt.map { max(.zero, $0 - .now) }
            let ready: [EventPoller.Ready]
            do {
                ready = try poller.wait(timeout: timeout)
            } catch {
                return
            }
            applyQueuedCommands(&state)
            for event in ready {
                if event.fd == listener {
                    if isAccepting { acceptAll(&state) }
                    continue
                }
                if let web {
                    if event.fd == web.listener {
                        if isAccepting { acceptWeb(web, &state) }
                        continue
                    }
                    if state.web.connections[event.fd] != nil {
                        webEvent(web, event, &state)
                        continue
                    }
                }
                guard let connection = state.connections[event.fd] else { continue }
                if event.isHangUp, connection.isClosing || !connection.isReading {
                    // epoll reports a hang-up whatever the interest: a client not being read is closed now,
                    // or the level-triggered report would wake the loop again and again.
                    close(event.fd, &state)
                    continue
                }
                if event.isReadable || event.isHangUp { state.turns.append(event.fd) }
                if event.isWritable { state.markForFlush(event.fd) }
            }
            readPass(&state)
            dispatchPass(&state)
            flushPass(&state)
            if let web { expireWeb(web, &state) }
            // A flush that took a client back under its answer cap queued it for the core; nothing else may wake
            // the loop for it (its socket is read no more while its framer holds lines), so hand them on now.
            if !state.awaitingCore.isEmpty, state.coreInFlight < limits.coreBacklog {
                dispatchPass(&state)
                flushPass(&state)
            }
        }
    }

    // MARK: - Connections

    struct Connection {
        let id: ClientID
        var framer = LineFramer()
        var outbox: Outbox
        var inFlight = 0
        var overflows = 0
        var isReading = true
        var isWriting = false
        var isClosing = false
        var hasReportedCaughtUp = false
        /// The client shut down its writing side: what it sent is answered, then the connection is closed.
        var hasReadEnd = false
        /// The framer may hold complete lines (set by every append, cleared when `nextLine` finds none).
        var mayHoldLines = false
        /// In the queue of connections waiting to hand a request to the core.
        var isAwaitingCore = false
        /// In `State.needsFlush`.
        var isFlushQueued = false
        /// A request of its is off the core, waiting for a worker (`ServiceOutput.offCore`): until its answer, the
        /// requests it has in flight wait in the core and are not counted in `State.coreInFlight`, and it hands on
        /// no more.
        var isAwaitingWork = false
    }

    struct State {
        let limits: Limits
        var connections: [Int32: Connection] = [:]
        var descriptors: [ClientID: Int32] = [:]
        var nextID: ClientID
        /// Set while accepting fails for lack of descriptors: the listener is out of the poller until then.
        var acceptPausedUntil: ContinuousClock.Instant?
        /// Connections the poller reported readable in this pass, in its order.
        var turns: [Int32] = []
        /// Connections with complete lines, waiting for room in the core's backlog, first come first served.
        var awaitingCore = FairQueue()
        /// Requests handed to the core and not yet answered, over all connections.
        var coreInFlight = 0
        /// Connections with bytes to write (or a close to finish) in the next flush pass, in the order they
        /// got them (an array and a flag per connection: cheaper than a set for a broadcast to 10,000).
        var needsFlush: [Int32] = []
        /// The buffer every read goes into (one, reused).
        var readBuffer: [UInt8]
        /// The page's HTTP connections.
        var web = WebState()

        init(limits: Limits, firstClientID: ClientID) {
            self.limits = limits
            nextID = firstClientID
            readBuffer = [UInt8](repeating: 0, count: limits.bytesPerTurn)
        }

        /// Queues `fd` for the next flush pass, once.
        mutating func markForFlush(_ fd: Int32) {
            guard let connection = connections[fd], !connection.isFlushQueued else { return }
            connections[fd]!.isFlushQueued = true
            needsFlush.append(fd)
        }
    }

    private func acceptAll(_ state: inout State) {
        guard let listener else { return }
        while true {
            let accepted: Int32?
            do {
                accepted = try UnixSocket.accept(listener)
            } catch {
                // Out of descriptors (EMFILE, ENFILE): the listener stays readable, and level-triggered epoll
                // would spin. Take it out of the poller for a moment, or until a client leaves.
                log.warning("cannot accept a client: \(error); pausing accepts")
                poller.remove(listener)
                state.acceptPausedUntil = .now + .milliseconds(100)
                return
            }
            guard let fd = accepted else { return }
            guard let credentials = try? UnixSocket.peerCredentials(fd), admits(credentials) else {
                SocketIO.close(fd)
                continue
            }
            guard let id = admit(fd, &state) else { continue }
            state.connections[fd] = Connection(id: id, outbox: Outbox(limit: state.limits.outboxBytes))
            state.descriptors[id] = fd
            connectionCount.add(1, ordering: .relaxed)
        }
    }

    /// Watches the new connection `fd` and gives it the next client ID; nil (and `fd` closed) when the poller
    /// cannot take it.
    func admit(_ fd: Int32, _ state: inout State) -> ClientID? {
        do {
            try poller.add(fd, interest: .readable)
        } catch {
            SocketIO.close(fd)
            return nil
        }
        defer { state.nextID += 1 }
        return state.nextID
    }

    func resumeAccepting(_ state: inout State) {
        guard state.acceptPausedUntil != nil, let listener else { return }
        state.acceptPausedUntil = nil
        try? poller.add(listener, interest: .readable)
    }

    func close(_ fd: Int32, _ state: inout State) {
        guard let connection = state.connections.removeValue(forKey: fd) else { return }
        state.descriptors[connection.id] = nil
        // Its answers will not come back as `requestDone` (the ID is gone), so its share is released now (none
        // while its requests wait for a worker: released then).
        if !connection.isAwaitingWork { state.coreInFlight -= connection.inFlight }
        poller.remove(fd)
        SocketIO.close(fd)
        connectionCount.subtract(1, ordering: .relaxed)
        toCore(.closed(connection.id))
        if state.acceptPausedUntil != nil, !isStopping { resumeAccepting(&state) }
    }
}
