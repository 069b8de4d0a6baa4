import HotStringsProtocol
import HotStringsLog
import HotStringsService
import LinuxSystem
import Synchronization

/// The I/O thread that fronts a service host: accepts clients, reads requests, writes answers and events.
/// The daemon runs one with its Unix socket (and the page when asked); embedded mode runs one for the page alone.
///
/// It never blocks on a client: sockets are non-blocking, each client's unsent bytes wait in its `Outbox`, and
/// writable interest is asked for only while something waits. Each client is a `Connection`, a state machine value
/// that says what to do; the loop does it, over `LoopIO`'s system calls. Work that needs the store goes to the
/// service host's core as `ServiceInput`; the core answers with `ServiceOutput`s, rendered as lines (`WireLines`),
/// handed over under a lock: the loop's queue of outputs.
///
/// Each pass of the loop waits once, applies the core's outputs, reads once (at most `Limits.bytesPerTurn`) from
/// every ready connection that reads now, hands requests to the core, writes to every connection with bytes queued,
/// ends what is past its deadline, and last tells the poller what each connection it touched waits for now (once, so
/// a client read and handed on in the same pass costs no `epoll_ctl`). Requests go to the core round-robin:
/// connections with complete lines wait in one queue, each hands on one request (skipping at most
/// `Limits.linesPerTurn` empty lines) and goes to the back, and no more than `Limits.coreBacklog` requests wait in the
/// core at once. So one client's flood, of requests or of empty lines, delays another's request by about one request
/// per busy client, not by the whole flood.
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

    let io: any LoopIO
    /// The Unix socket's listener (nil: the page alone, as in embedded mode).
    let listener: Int32?
    let limits: Limits
    let admits: @Sendable (PeerCredentials) -> Bool
    let toCore: @Sendable (ServiceInput) -> Void
    /// The page's HTTP listener and rules (nil: no page).
    let web: WebServer?
    /// Where refused clients and requests are logged (the warnings connections return, failed accepts).
    let log: LogSink
    /// What the core handed over and the loop has not applied yet, in order.
    private let outputs = Mutex<[ServiceOutput<WireLines>]>([])
    private let stopping = Mutex<ContinuousClock.Instant?>(nil)
    /// How many socket clients are connected, for `status`.
    package let connectionCount = Atomic<Int>(0)

    /// The ID of the first client it accepts (those after count up): an embedded front keeps the IDs below for its
    /// own session.
    let firstClientID: ClientID

    /// A loop over `listener` (nil: none) and `web`'s listener (nil: no page), handing requests to `toCore`, making
    /// its system calls through `io` and logging to `log`.
    /// - Throws: `SystemError` when `io`'s poller cannot take a listener.
    package init(
        io: any LoopIO, listener: Int32?, limits: Limits, web: WebServer? = nil, firstClientID: ClientID = 1,
        log: LogSink,
        admits: @escaping @Sendable (PeerCredentials) -> Bool,
        toCore: @escaping @Sendable (ServiceInput) -> Void
    ) throws(SystemError) {
        self.io = io
        self.listener = listener
        self.log = log
        self.firstClientID = firstClientID
        self.limits = limits
        self.web = web
        self.admits = admits
        self.toCore = toCore
        if let listener { try io.add(listener, interest: .readable) }
        if let web { try io.add(web.listener, interest: .readable) }
    }

    /// A loop with the system's epoll and sockets (`SystemLoopIO`).
    /// - Throws: `SystemError` when the poller cannot be made or cannot take a listener.
    package convenience init(
        listener: Int32?, limits: Limits, web: WebServer? = nil, firstClientID: ClientID = 1, log: LogSink,
        admits: @escaping @Sendable (PeerCredentials) -> Bool,
        toCore: @escaping @Sendable (ServiceInput) -> Void
    ) throws(SystemError) {
        try self.init(io: SystemLoopIO(), listener: listener, limits: limits, web: web, firstClientID: firstClientID,
                      log: log, admits: admits, toCore: toCore)
    }

    /// Hands the core's outputs to the I/O thread; safe from any thread.
    package func submit(_ new: [ServiceOutput<WireLines>]) {
        guard !new.isEmpty else { return }
        outputs.withLock { $0 += new }
        io.wake()
    }

    /// Stops accepting; the loop ends once every queued byte is written or `grace` has passed.
    package func stop(grace: Duration) {
        stopping.withLock { $0 = .now + grace }
        io.wake()
    }

    var isStopping: Bool { stopping.withLock { $0 } != nil }

    /// Runs the loop on the calling thread until `stop` and the flush are done.
    package func run() {
        var state = State(self)
        // The poller is closed when the loop is released, not here: the core may still submit outputs
        // (and wake the poller) until it has drained its inputs, and a closed eventfd's number can be reused.
        defer { closeAll(&state) }
        while true {
            guard case .wait(let timeout) = prepare(&state, at: .now) else { return }
            let ready: [EventPoller.Ready]
            do {
                ready = try io.wait(timeout: timeout)
            } catch {
                return
            }
            pass(ready, &state, at: .now)
        }
    }

    /// Applies what `submit` handed over since the last time, in order.
    func applySubmittedOutputs(_ state: inout State) {
        for output in outputs.withLock({ queued in defer { queued = [] }; return queued }) {
            apply(output, &state)
        }
    }

    // MARK: - The loop's state

    /// Everything the loop changes, confined to its thread.
    struct State {
        var table = ConnectionTable()
        var nextID: ClientID
        /// What the connections' inputs are given: the caps, the page's rules, the time of this pass.
        var context: Connection.Context
        var isAccepting = true
        /// Set while accepting fails for lack of descriptors: the listeners are out of the poller until then.
        var acceptPausedUntil: ContinuousClock.Instant?
        /// Connections the poller reported readable in this pass, in its order.
        var turns: [Int32] = []
        /// Connections with complete lines, waiting for room in the core's backlog, first come first served.
        var awaitingTurn = FairQueue()
        /// Requests handed to the core and not yet answered, over all socket clients.
        var coreInFlight = 0
        /// Connections with bytes to write (or a close to finish) in the next flush, in the order they got them (an
        /// array and a flag per connection: cheaper than a set for a broadcast to 10,000).
        var needsFlush: [Int32] = []
        /// Connections whose interest is looked at again at the end of this pass.
        var needsInterest: [Int32] = []
        /// The buffer every read goes into (one, reused).
        var readBuffer: [UInt8]

        init(_ loop: IOLoop) {
            nextID = loop.firstClientID
            context = Connection.Context(limits: loop.limits, page: loop.web, now: .now)
            readBuffer = [UInt8](repeating: 0, count: loop.limits.bytesPerTurn)
        }
    }

    /// What the loop does before its next wait.
    enum Next: Equatable {
        /// Wait this long (nil: until something happens).
        case wait(Duration?)
        /// Return: stopped, and every connection flushed or its grace passed.
        case finish
    }

    /// Gets ready for the next wait at `now`: resumes paused accepts, begins a stop asked for, and says how long the
    /// wait may be (the next deadline of a paused accept, a page's connection or the stop).
    func prepare(_ state: inout State, at now: ContinuousClock.Instant) -> Next {
        state.context.now = now
        if let pausedUntil = state.acceptPausedUntil, now >= pausedUntil, state.isAccepting {
            resumeAccepting(&state)
        }
        let deadline = stopping.withLock { $0 }
        if let deadline {
            if state.isAccepting { beginStop(&state) }
            if state.table.isEmpty || now >= deadline { return .finish }
        }
        let wakeAt = [deadline, state.acceptPausedUntil, nextPageDeadline(state)].compactMap { $0 }.min()
        return .wait(wakeAt.map { max(.zero, $0 - now) })
    }

    /// One pass after a wait that found `ready` at `now`.
    func pass(_ ready: [EventPoller.Ready], _ state: inout State, at now: ContinuousClock.Instant) {
        state.context.now = now
        applySubmittedOutputs(&state)
        for event in ready {
            if event.fd == listener {
                if state.isAccepting { acceptClients(&state) }
                continue
            }
            if let web, event.fd == web.listener {
                if state.isAccepting { acceptPageClients(web, &state) }
                continue
            }
            guard let interest = state.table.update(event.fd, { $0.interest }) else { continue }
            if event.isHangUp, !interest.contains(.readable) {
                // epoll reports a hang-up whatever the interest: a client not being read is closed now,
                // or the level-triggered report would wake the loop again and again.
                close(event.fd, &state)
                continue
            }
            if event.isReadable || event.isHangUp { state.turns.append(event.fd) }
            if event.isWritable { markForFlush(event.fd, &state) }
        }
        readPass(&state)
        dispatchPass(&state)
        expirePass(&state)
        flushPass(&state)
        // A flush that took a client back under its answer cap queued it for the core; nothing else may wake
        // the loop for it (its socket is read no more while its framer holds lines), so hand them on now.
        if !state.awaitingTurn.isEmpty, state.coreInFlight < limits.coreBacklog {
            dispatchPass(&state)
            flushPass(&state)
        }
        interestPass(&state)
    }

    // MARK: - Accepting

    /// Accepts every pending socket client whose user `admits` allows.
    private func acceptClients(_ state: inout State) {
        guard let listener else { return }
        while let fd = accept(listener, "cannot accept a client", &state) {
            guard let credentials = try? io.peerCredentials(fd), admits(credentials) else {
                io.close(fd)
                continue
            }
            if admit(fd, .lines(state.nextID, limits: limits), &state) { connectionCount.add(1, ordering: .relaxed) }
        }
    }

    /// Accepts every pending client of the page, making room by closing the one idle longest at the cap.
    private func acceptPageClients(_ web: WebServer, _ state: inout State) {
        while let fd = accept(web.listener, "web: cannot accept a connection", &state) {
            if state.table.pageDescriptors.count >= web.limits.connections {
                let oldest = state.table.pageDescriptors.compactMap { fd in
                    state.table[fd]?.connection.evictableSince.map { (fd: fd, since: $0) }
                }.min { $0.since < $1.since }?.fd
                guard let oldest else {
                    io.close(fd)
                    continue
                }
                close(oldest, &state)
            }
            _ = admit(fd, .http(state.nextID, page: web, at: state.context.now), &state)
        }
    }

    /// The next pending connection on `listener`; nil when there is none, or when accepting failed: out of
    /// descriptors (EMFILE, ENFILE) the listener stays readable and level-triggered epoll would spin, so the
    /// listeners leave the poller for a moment, or until a client leaves.
    private func accept(_ listener: Int32, _ failure: String, _ state: inout State) -> Int32? {
        do {
            return try io.accept(listener)
        } catch {
            log.warning("\(failure): \(error); pausing accepts")
            pauseAccepting(&state)
            return nil
        }
    }

    /// Watches the new connection on `fd` and gives it the next client ID; false (and `fd` closed) when the poller
    /// cannot take it.
    private func admit(_ fd: Int32, _ connection: Connection, _ state: inout State) -> Bool {
        let interest = connection.interest(limits)
        do {
            try io.add(fd, interest: interest)
        } catch {
            io.close(fd)
            return false
        }
        state.table.insert(ConnectionTable.Entry(connection: connection, interest: interest), at: fd)
        state.nextID += 1
        return true
    }

    private func pauseAccepting(_ state: inout State) {
        guard state.acceptPausedUntil == nil else { return }
        if let listener { io.remove(listener) }
        if let web { io.remove(web.listener) }
        state.acceptPausedUntil = state.context.now + .milliseconds(100)
    }

    private func resumeAccepting(_ state: inout State) {
        guard state.acceptPausedUntil != nil else { return }
        state.acceptPausedUntil = nil
        if let listener { try? io.add(listener, interest: .readable) }
        if let web { try? io.add(web.listener, interest: .readable) }
    }

    // MARK: - Stopping and closing

    /// Stops accepting; the page's connections are closed, the socket's clients are written what is queued (what was
    /// handed over before the stop included: outputs are otherwise applied only after the next wait), then closed.
    private func beginStop(_ state: inout State) {
        applySubmittedOutputs(&state)
        state.isAccepting = false
        if state.acceptPausedUntil == nil {
            if let listener { io.remove(listener) }
            if let web { io.remove(web.listener) }
        }
        state.acceptPausedUntil = nil
        for fd in state.table.allDescriptors { handle(fd, &state) { $0.stop() } }
        flushPass(&state)
        interestPass(&state)
    }

    /// Closes the connection on `fd` and tells the core.
    func close(_ fd: Int32, _ state: inout State) {
        guard let entry = state.table.remove(fd) else { return }
        let connection = entry.connection
        // Its answers will not come back as responses (the ID is gone), so its share of the core's backlog is released
        // now (none while its requests wait for a worker: released then).
        state.coreInFlight -= connection.requestsInCore
        if connection.isEventStream { state.context.eventStreams -= 1 }
        io.remove(fd)
        io.close(fd)
        if !connection.isHTTP { connectionCount.subtract(1, ordering: .relaxed) }
        toCore(.closed(connection.id))
        if state.acceptPausedUntil != nil, !isStopping { resumeAccepting(&state) }
    }

    /// Closes every connection left when the loop ends.
    private func closeAll(_ state: inout State) {
        for fd in state.table.allDescriptors {
            guard let entry = state.table.remove(fd) else { continue }
            io.remove(fd)
            io.close(fd)
            if !entry.connection.isHTTP { connectionCount.subtract(1, ordering: .relaxed) }
        }
    }

    /// The earliest deadline of a page's connection, for the poller's timeout.
    private func nextPageDeadline(_ state: State) -> ContinuousClock.Instant? {
        guard let web else { return nil }
        return state.table.pageDescriptors.compactMap { state.table[$0]?.connection.deadline(web.limits) }.min()
    }
}
