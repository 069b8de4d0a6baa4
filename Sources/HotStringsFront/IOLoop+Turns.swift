import HotStringsService
import LinuxSystem

extension IOLoop {
    // MARK: - Giving a connection an input and doing what it answers

    /// Gives the connection on `fd` an input, does what it answers, and queues it where it now wants to be: in the
    /// queue for the core when it has a request it may hand on, among those to write to when it queued bytes, and
    /// among those whose interest is looked at again at the end of the pass (a connection to be written to is looked
    /// at in its flush).
    func handle(_ fd: Int32, _ state: inout State, _ input: (inout Connection) -> Connection.Actions) {
        let limits = limits
        let outcome = state.table.update(fd) { (entry: inout ConnectionTable.Entry)
            -> (actions: Connection.Actions, wantsTurn: Bool, needsFlush: Bool, needsInterest: Bool) in
            let actions = input(&entry.connection)
            guard !actions.closes else { return (actions, false, false, false) }
            let wantsTurn = !entry.isAwaitingTurn && entry.connection.wantsTurn(limits)
            if wantsTurn { entry.isAwaitingTurn = true }
            let needsFlush = actions.flushes && !entry.isFlushQueued
            if needsFlush { entry.isFlushQueued = true }
            let needsInterest = !entry.isFlushQueued && !entry.isInterestQueued
            if needsInterest { entry.isInterestQueued = true }
            return (actions, wantsTurn, needsFlush, needsInterest)
        }
        guard let outcome, perform(outcome.actions, fd, &state) else { return }
        if outcome.wantsTurn { state.awaitingTurn.append(fd) }
        if outcome.needsFlush { state.needsFlush.append(fd) }
        if outcome.needsInterest { state.needsInterest.append(fd) }
    }

    /// Does what a connection answered besides its place in the loop's queues: counts its requests in the core and
    /// the page's event streams, hands the core its input, closes it or shuts down its writing side; false when it
    /// closed it.
    private func perform(_ actions: Connection.Actions, _ fd: Int32, _ state: inout State) -> Bool {
        state.coreInFlight += actions.backlogChange
        if let warning = actions.warning { log.warning(warning) }
        if actions.opensEventStream { state.context.eventStreams += 1 }
        if let input = actions.input { toCore(input) }
        if actions.closes {
            close(fd, &state)
            return false
        }
        if actions.shutsDownWrite { io.shutdownWrite(fd) }
        return true
    }

    /// Queues `fd` for the next flush, once.
    func markForFlush(_ fd: Int32, _ state: inout State) {
        let isNew = state.table.update(fd) { entry in
            defer { entry.isFlushQueued = true }
            return !entry.isFlushQueued
        } ?? false
        if isNew { state.needsFlush.append(fd) }
    }

    // MARK: - Reading: one bounded read per ready connection per pass

    /// Reads once from each connection the poller reported, in its order, if it reads now.
    func readPass(_ state: inout State) {
        let due = state.turns
        state.turns = []
        for fd in due { readTurn(fd, &state) }
    }

    private func readTurn(_ fd: Int32, _ state: inout State) {
        let limits = limits
        guard state.table.update(fd, { $0.connection.isReading(limits) }) == true else { return }
        let context = state.context
        switch io.receive(fd, into: &state.readBuffer) {
        case .bytes(let count):
            let buffer = state.readBuffer
            handle(fd, &state) { connection in
                buffer.withUnsafeBytes { connection.received(UnsafeRawBufferPointer(rebasing: $0[..<count]), context) }
            }
        case .closed:
            // End of file may be a half-close (`printf … | nc -N`): a socket client's requests before it still get
            // answers. A peer that is gone entirely shows up as a hang-up or a failed write.
            handle(fd, &state) { $0.receivedEnd() }
        case .wouldBlock:
            break
        case .failed:
            close(fd, &state)
        }
    }

    // MARK: - Handing requests to the core, round-robin

    /// Hands requests to the core while its backlog has room: one per connection at a time, in queue order; a
    /// connection with more goes to the back.
    func dispatchPass(_ state: inout State) {
        let limits = limits
        while state.coreInFlight < limits.coreBacklog, let fd = state.awaitingTurn.popFirst() {
            leaveQueue(fd, &state)
            handle(fd, &state) { connection in connection.takeTurn(limits) }
        }
    }

    /// Clears the turn mark of a connection taken from the queue (before `takeTurn`, so that it can queue again).
    private func leaveQueue(_ fd: Int32, _ state: inout State) {
        state.table.update(fd) { $0.isAwaitingTurn = false }
    }

    // MARK: - Writing

    /// Writes what each connection in `State.needsFlush` has queued, as far as its socket takes it, then looks at
    /// what it waits for.
    func flushPass(_ state: inout State) {
        let due = state.needsFlush
        state.needsFlush = []
        for fd in due { flush(fd, &state) }
    }

    private func flush(_ fd: Int32, _ state: inout State) {
        let io = io
        let limits = limits
        let now = state.context.now
        var isGone = false
        // The outbox is written in place (a copy would duplicate its chunk list on every event and client); then
        // the connection says what follows, and what it waits for is told to the poller at once.
        let outcome = state.table.update(fd) { (entry: inout ConnectionTable.Entry)
            -> (actions: Connection.Actions, wantsTurn: Bool, interest: EventPoller.Interest?) in
            entry.isFlushQueued = false
            let written = entry.connection.outbox.flush { bytes in
                switch io.transmit(fd, bytes) {
                case .bytes(let count): return count
                case .wouldBlock: return 0
                case .closed, .failed:
                    isGone = true
                    return 0
                }
            }
            guard !isGone else { return (Connection.Actions.close, false, nil) }
            let actions = entry.connection.flushed(written, at: now)
            guard !actions.closes else { return (actions, false, nil) }
            // Below the answer cap again: lines the framer held while paused wait for the core again.
            let wantsTurn = !entry.isAwaitingTurn && entry.connection.wantsTurn(limits)
            if wantsTurn { entry.isAwaitingTurn = true }
            entry.isInterestQueued = false
            let wanted = entry.connection.interest(limits)
            let change: EventPoller.Interest? = wanted == entry.interest ? nil : wanted
            entry.interest = wanted
            return (actions, wantsTurn, change)
        }
        guard let outcome, perform(outcome.actions, fd, &state) else { return }
        if outcome.wantsTurn { state.awaitingTurn.append(fd) }
        if let interest = outcome.interest { try? io.modify(fd, interest: interest) }
    }

    // MARK: - Deadlines and interest

    /// Ends what is past its deadline: the page's slow requests (408) and idle or lingering connections.
    func expirePass(_ state: inout State) {
        guard let web else { return }
        let context = state.context
        let due = state.table.pageDescriptors.filter { fd in
            state.table[fd]?.connection.deadline(web.limits).map { $0 <= context.now } ?? false
        }
        for fd in due { handle(fd, &state) { $0.expire(context) } }
    }

    /// Tells the poller what each connection touched in this pass, and not written to, waits for now: it reads only
    /// what can be handed on, and waits to write only while bytes are queued.
    func interestPass(_ state: inout State) {
        let due = state.needsInterest
        state.needsInterest = []
        let limits = limits
        for fd in due {
            let change = state.table.update(fd) { entry -> EventPoller.Interest? in
                entry.isInterestQueued = false
                let wanted = entry.connection.interest(limits)
                guard wanted != entry.interest else { return nil }
                entry.interest = wanted
                return wanted
            }
            if let change, let interest = change { try? io.modify(fd, interest: interest) }
        }
    }

    // MARK: - Outputs of the core

    func apply(_ output: ServiceOutput<WireLines>, _ state: inout State) {
        let context = state.context
        switch output {
        case .firstScanServed:
            break
        case .response(let id, let line):
            // The client asked for it: queued whatever its buffer holds; then it may send more.
            deliver(to: id, &state) { $0.answered(line, context) }
        case .offCore(let id):
            // Its requests wait for a worker, not for the core: they leave the core's backlog to other clients.
            deliver(to: id, &state) { $0.movedOffCore() }
        case .snapshot(let id, let bytes):
            // A subscription's snapshot, right after its answer, counted as one.
            deliver(to: id, &state) { $0.requested(bytes, context.limits) }
        case .event(let line, let ids):
            // Subject to each subscriber's buffer cap. One buffer, shared; the page's streams share theirs.
            let serverSent = context.eventStreams > 0 ? HTTPSession.serverSentEvent(line) : nil
            for id in ids {
                guard let fd = state.table.descriptor(of: id) else { continue }
                deliverEvent(line, serverSent, to: fd, &state)
            }
        case .slowClientResync(let id, let line):
            deliver(to: id, &state) { $0.beginResync(line) }
        case .slowClientSnapshot(let id, let bytes):
            deliver(to: id, &state) { $0.endResync(with: bytes) }
        }
    }

    /// Gives the connection on `fd` an event: written at once when nothing waits before it (the rest, if its socket
    /// took only part, queued and written when it is writable), else queued for this pass's flush. `handle` for the
    /// one input that changes nothing but the outbox, without looking at its turn or interest (a flush does), as it
    /// runs for each of thousands of subscribers: one visit and one `send` each.
    private func deliverEvent(_ line: [UInt8], _ serverSent: [UInt8]?, to fd: Int32, _ state: inout State) {
        let io = io
        let outcome = state.table.update(fd) { (entry: inout ConnectionTable.Entry)
            -> (actions: Connection.Actions, needsFlush: Bool) in
            var written = 0
            if let bytes = entry.connection.eventToWriteAtOnce(line, serverSent: serverSent) {
                switch bytes.withUnsafeBytes({ io.transmit(fd, $0) }) {
                case .bytes(let count): written = count
                case .wouldBlock: break
                case .closed, .failed: return (.close, false)
                }
            }
            let actions = entry.connection.event(line, serverSent: serverSent, written: written)
            let needsFlush = actions.flushes && !entry.isFlushQueued
            if needsFlush { entry.isFlushQueued = true }
            return (actions, needsFlush)
        }
        guard let outcome else { return }
        if outcome.actions.input != nil || outcome.actions.closes || outcome.actions.warning != nil {
            guard perform(outcome.actions, fd, &state) else { return }
        }
        if outcome.needsFlush { state.needsFlush.append(fd) }
    }

    /// Gives the connection of client `id`, if it is still connected, what the core sent it.
    private func deliver(to id: ClientID, _ state: inout State, _ input: (inout Connection) -> Connection.Actions) {
        guard let fd = state.table.descriptor(of: id) else { return }
        handle(fd, &state, input)
    }
}
