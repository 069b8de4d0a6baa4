import HotStringsProtocol
import LinuxSystem
import Synchronization

/// The server's I/O thread: accepts clients, reads request lines, writes responses and events.
///
/// It never blocks on a client: sockets are non-blocking, each client's unsent bytes wait in its
/// `Outbox`, and writable interest is asked for only while something waits. Work that needs the store
/// goes to the core as `CoreInput`; the core answers with `IOCommand`s, handed over under a lock.
final class IOLoop: Sendable {
    struct Limits: Sendable {
        /// Unsent bytes a client may have before it is resynchronized.
        var outboxBytes = 8 << 20
        /// Requests a client may have unanswered before its socket is no longer read.
        var requestsInFlight = 64
        /// Times a client may overflow before it is closed.
        var overflowsBeforeClosing = 3
    }

    private let poller: EventPoller
    private let listener: Int32
    private let limits: Limits
    private let admits: @Sendable (PeerCredentials) -> Bool
    private let toCore: @Sendable (CoreInput) -> Void
    private let commands = Mutex<[IOCommand]>([])
    private let stopping = Mutex<ContinuousClock.Instant?>(nil)
    /// How many clients are connected, for `status`.
    let connectionCount = Atomic<Int>(0)

    init(
        listener: Int32, limits: Limits,
        admits: @escaping @Sendable (PeerCredentials) -> Bool,
        toCore: @escaping @Sendable (CoreInput) -> Void
    ) throws(SystemError) {
        self.listener = listener
        self.limits = limits
        self.admits = admits
        self.toCore = toCore
        poller = try EventPoller()
        try poller.add(listener, interest: .readable)
    }

    /// Hands commands to the I/O thread; safe from any thread.
    func submit(_ new: [IOCommand]) {
        guard !new.isEmpty else { return }
        commands.withLock { $0 += new }
        poller.wake()
    }

    /// Stops accepting; the loop ends once every queued byte is written or `grace` has passed.
    func stop(grace: Duration) {
        stopping.withLock { $0 = .now + grace }
        poller.wake()
    }

    /// Runs the loop on the calling thread until `stop` and the flush are done.
    func run() {
        var state = State(limits: limits)
        // The poller is closed when the loop is released, not here: the core may still submit commands
        // (and wake the poller) until it has drained its inputs, and a closed eventfd's number can be reused.
        defer {
            for fd in state.connections.keys { SocketIO.close(fd) }
        }
        var isAccepting = true
        while true {
            if let pausedUntil = state.acceptPausedUntil, ContinuousClock.now >= pausedUntil, isAccepting {
                resumeAccepting(&state)
            }
            let deadline = stopping.withLock { $0 }
            if let deadline {
                if isAccepting {
                    isAccepting = false
                    poller.remove(listener)
                    for fd in Array(state.connections.keys) { state.connections[fd]?.isClosing = true; flush(fd, &state) }
                }
                if state.connections.isEmpty || ContinuousClock.now >= deadline { return }
            }
            let wakeAt = [deadline, state.acceptPausedUntil].compactMap { $0 }.min()
            let timeout: Duration? = wakeAt.map { max(.zero, $0 - .now) }
            let ready: [EventPoller.Ready]
            do {
                ready = try poller.wait(timeout: timeout)
            } catch {
                return
            }
            for command in commands.withLock({ queued in defer { queued = [] }; return queued }) {
                apply(command, &state)
            }
            for event in ready {
                if event.fd == listener {
                    if isAccepting { acceptAll(&state) }
                    continue
                }
                if event.isHangUp, let connection = state.connections[event.fd],
                   connection.isClosing || !connection.isReading {
                    // epoll reports a hang-up whatever the interest: a client not being read is closed now,
                    // or the level-triggered report would wake the loop again and again.
                    close(event.fd, &state)
                    continue
                }
                if event.isReadable || event.isHangUp { read(event.fd, &state) }
                if event.isWritable, state.connections[event.fd] != nil { flush(event.fd, &state) }
            }
        }
    }

    // MARK: - Connections

    private struct Connection {
        let id: ConnectionID
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
    }

    private struct State {
        let limits: Limits
        var connections: [Int32: Connection] = [:]
        var descriptors: [ConnectionID: Int32] = [:]
        var nextID: ConnectionID = 1
        /// Set while accepting fails for lack of descriptors: the listener is out of the poller until then.
        var acceptPausedUntil: ContinuousClock.Instant?
    }

    private func acceptAll(_ state: inout State) {
        while true {
            let accepted: Int32?
            do {
                accepted = try UnixSocket.accept(listener)
            } catch {
                // Out of descriptors (EMFILE, ENFILE): the listener stays readable, and level-triggered epoll
                // would spin. Take it out of the poller for a moment, or until a client leaves.
                Log.warning("cannot accept a client: \(error); pausing accepts")
                poller.remove(listener)
                state.acceptPausedUntil = .now + .milliseconds(100)
                return
            }
            guard let fd = accepted else { return }
            guard let credentials = try? UnixSocket.peerCredentials(fd), admits(credentials) else {
                SocketIO.close(fd)
                continue
            }
            do {
                try poller.add(fd, interest: .readable)
            } catch {
                SocketIO.close(fd)
                continue
            }
            let id = state.nextID
            state.nextID += 1
            state.connections[fd] = Connection(id: id, outbox: Outbox(limit: state.limits.outboxBytes))
            state.descriptors[id] = fd
            connectionCount.add(1, ordering: .relaxed)
            toCore(.opened(id, credentials))
        }
    }

    private func resumeAccepting(_ state: inout State) {
        guard state.acceptPausedUntil != nil else { return }
        state.acceptPausedUntil = nil
        try? poller.add(listener, interest: .readable)
    }

    private func read(_ fd: Int32, _ state: inout State) {
        guard var connection = state.connections[fd], !connection.isClosing else { return }
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        var isGone = false
        // Lines the framer already holds go first: they wait there while the client has too many in flight.
        var isTooLarge = handOnLines(&connection, limit: state.limits.requestsInFlight)
        while !isTooLarge, !connection.hasReadEnd, connection.inFlight < state.limits.requestsInFlight {
            let result = buffer.withUnsafeMutableBytes { bytes in
                Result { () throws(SystemError) in try SocketIO.read(fd, into: bytes) }
            }
            guard case .success(let outcome) = result else {
                isGone = true
                break
            }
            if case .data(let count) = outcome {
                buffer.withUnsafeBytes { connection.framer.append(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
                isTooLarge = handOnLines(&connection, limit: state.limits.requestsInFlight)
            } else if case .closed = outcome {
                // End of file may be a half-close (`printf … | nc -N`): the requests before it still get
                // answers. A peer that is gone entirely shows up as a hang-up or a failed write.
                connection.hasReadEnd = true
                break
            } else {
                break
            }
        }
        if isGone {
            state.connections[fd] = connection
            close(fd, &state)
            return
        }
        if isTooLarge {
            connection.outbox.enqueueRegardless(ResponseEncoder.failure(id: nil, .tooLarge()))
            connection.isClosing = true
        }
        // Nothing in flight means the framer holds no complete line either: all that was sent is answered.
        if connection.hasReadEnd, connection.inFlight == 0 { connection.isClosing = true }
        state.connections[fd] = connection
        updateInterest(fd, &state)
        if connection.isClosing { flush(fd, &state) }
    }

    /// Sends complete lines to the core until `limit` requests are in flight; returns whether a line was too long.
    private func handOnLines(_ connection: inout Connection, limit: Int) -> Bool {
        while connection.inFlight < limit, let line = connection.framer.nextLine() {
            switch line {
            case .success(let bytes):
                guard !bytes.isEmpty else { continue }
                connection.inFlight += 1
                toCore(.request(connection.id, bytes))
            case .failure:
                return true
            }
        }
        return false
    }

    private func flush(_ fd: Int32, _ state: inout State) {
        guard state.connections[fd] != nil else { return }
        // The outbox is written in place (a copy would duplicate its chunk list on every event and client).
        var failure: SystemError?
        let isEmpty = state.connections[fd]!.outbox.flush { bytes in
            do throws(SystemError) {
                return try SocketIO.write(fd, bytes)
            } catch {
                failure = error
                return 0
            }
        }
        guard failure == nil, var connection = state.connections[fd] else {
            close(fd, &state)
            return
        }
        if isEmpty, connection.isClosing {
            state.connections[fd] = connection
            close(fd, &state)
            return
        }
        if isEmpty, connection.outbox.phase == .resyncing, !connection.hasReportedCaughtUp {
            connection.hasReportedCaughtUp = true
            toCore(.caughtUp(connection.id))
        }
        let wasBlocked = !connection.isReading
        state.connections[fd] = connection
        updateInterest(fd, &state)
        // Lines the framer holds from before the client was paused are not announced by epoll again.
        if wasBlocked, state.connections[fd]?.isReading == true { read(fd, &state) }
    }

    private func updateInterest(_ fd: Int32, _ state: inout State) {
        guard var connection = state.connections[fd] else { return }
        // A client that does not read its responses is not read either: its requests would queue answers
        // without limit (responses are exempt from the outbox cap, events are not).
        let wantsRead = !connection.isClosing && !connection.hasReadEnd
            && connection.inFlight < state.limits.requestsInFlight
            && connection.outbox.pendingBytes < state.limits.outboxBytes
        let wantsWrite = !connection.outbox.isEmpty
        guard wantsRead != connection.isReading || wantsWrite != connection.isWriting else { return }
        var interest: EventPoller.Interest = []
        if wantsRead { interest.insert(.readable) }
        if wantsWrite { interest.insert(.writable) }
        connection.isReading = wantsRead
        connection.isWriting = wantsWrite
        state.connections[fd] = connection
        try? poller.modify(fd, interest: interest)
    }

    private func close(_ fd: Int32, _ state: inout State) {
        guard let connection = state.connections.removeValue(forKey: fd) else { return }
        state.descriptors[connection.id] = nil
        poller.remove(fd)
        SocketIO.close(fd)
        connectionCount.subtract(1, ordering: .relaxed)
        toCore(.closed(connection.id))
        if state.acceptPausedUntil != nil, stopping.withLock({ $0 }) == nil { resumeAccepting(&state) }
    }

    // MARK: - Commands from the core

    private func apply(_ command: IOCommand, _ state: inout State) {
        switch command {
        case .send(let id, let bytes):
            guard let fd = state.descriptors[id] else { return }
            state.connections[fd]?.outbox.enqueueRegardless(bytes)
            flush(fd, &state)
        case .broadcast(let bytes, let ids):
            for id in ids {
                guard let fd = state.descriptors[id], state.connections[fd] != nil else { continue }
                switch state.connections[fd]!.outbox.enqueue(bytes) {
                case .queued, .skipped:
                    flush(fd, &state)
                case .overflowed:
                    state.connections[fd]!.overflows += 1
                    if state.connections[fd]!.overflows >= state.limits.overflowsBeforeClosing {
                        close(fd, &state)
                    } else {
                        toCore(.overflowed(id))
                        flush(fd, &state)
                    }
                case .hopeless:
                    close(fd, &state)
                }
            }
        case .resync(let id, let line):
            guard let fd = state.descriptors[id] else { return }
            state.connections[fd]?.outbox.beginResync(line)
            state.connections[fd]?.hasReportedCaughtUp = false
            flush(fd, &state)
        case .snapshot(let id, let bytes):
            guard let fd = state.descriptors[id] else { return }
            state.connections[fd]?.outbox.enqueueRegardless(bytes)
            state.connections[fd]?.outbox.endResync()
            flush(fd, &state)
        case .requestDone(let id):
            guard let fd = state.descriptors[id], state.connections[fd] != nil else { return }
            state.connections[fd]?.inFlight -= 1
            let wasBlocked = state.connections[fd]?.isReading == false
            updateInterest(fd, &state)
            // Lines already buffered by the framer are handed on once the client may send again.
            if wasBlocked, state.connections[fd]?.isReading == true { read(fd, &state) }
            // After a half-close: hand on the lines still buffered, or close once the last one is answered.
            else if state.connections[fd]?.hasReadEnd == true { read(fd, &state) }
        case .close(let id):
            guard let fd = state.descriptors[id] else { return }
            state.connections[fd]?.isClosing = true
            flush(fd, &state)
        }
    }
}
