import HotStringsProtocol
import HotStringsService
import LinuxSystem

extension IOLoop {
    // MARK: - Reading: one bounded read per ready connection per pass

    /// Reads once from each connection the poller reported, in its order.
    func readPass(_ state: inout State) {
        let due = state.turns
        state.turns = []
        for fd in due { readTurn(fd, &state) }
    }

    /// Whether the connection may have more of its requests handed to the core now (its own limits).
    func mayTakeRequests(_ connection: Connection, _ limits: Limits) -> Bool {
        !connection.isClosing && !connection.isAwaitingWork && connection.inFlight < limits.requestsInFlight
            && connection.outbox.requestedBytes < limits.answerBytesSoftCap
    }

    private func readTurn(_ fd: Int32, _ state: inout State) {
        guard var connection = state.connections[fd], mayTakeRequests(connection, state.limits),
              !connection.mayHoldLines, !connection.hasReadEnd else { return }
        switch SocketIO.receive(fd, into: &state.readBuffer) {
        case .bytes(let count):
            state.readBuffer.withUnsafeBytes {
                connection.framer.append(UnsafeRawBufferPointer(rebasing: $0[..<count]))
            }
            connection.mayHoldLines = true
        case .closed:
            // End of file may be a half-close (`printf … | nc -N`): the requests before it still get
            // answers. A peer that is gone entirely shows up as a hang-up or a failed write.
            connection.hasReadEnd = true
        case .wouldBlock:
            break
        case .failed:
            close(fd, &state)
            return
        }
        state.connections[fd] = connection
        awaitCore(fd, &state)
        finishIfAllAnswered(fd, &state)
        updateInterest(fd, &state)
    }

    // MARK: - Handing requests to the core, round-robin

    /// Hands requests to the core while its backlog has room: one per connection at a time, in queue order.
    func dispatchPass(_ state: inout State) {
        while state.coreInFlight < state.limits.coreBacklog, let fd = state.awaitingCore.popFirst() {
            state.connections[fd]?.isAwaitingCore = false
            dispatchOne(fd, &state)
        }
    }

    /// Hands on the connection's next request, skipping (and counting) up to `linesPerTurn` empty lines;
    /// then it goes to the back of the queue if it has more.
    private func dispatchOne(_ fd: Int32, _ state: inout State) {
        guard var connection = state.connections[fd], mayTakeRequests(connection, state.limits) else { return }
        var budget = state.limits.linesPerTurn
        var isTooLarge = false
        while budget > 0 {
            guard let line = connection.framer.nextLine() else {
                connection.mayHoldLines = false
                break
            }
            budget -= 1
            if case .success(let bytes) = line {
                guard !bytes.isEmpty else { continue }
                connection.inFlight += 1
                state.coreInFlight += 1
                toCore(.requestLine(connection.id, bytes))
            } else {
                connection.mayHoldLines = false
                isTooLarge = true
            }
            break
        }
        if isTooLarge {
            connection.outbox.enqueueRegardless(ResponseEncoder.failure(id: nil, .tooLarge()))
            connection.isClosing = true
        }
        state.connections[fd] = connection
        if isTooLarge { state.markForFlush(fd) }
        awaitCore(fd, &state)
        finishIfAllAnswered(fd, &state)
        updateInterest(fd, &state)
    }

    /// Puts a connection with complete lines it may hand on at the back of the queue for the core.
    func awaitCore(_ fd: Int32, _ state: inout State) {
        guard let connection = state.connections[fd], !connection.isAwaitingCore, connection.mayHoldLines,
              mayTakeRequests(connection, state.limits) else { return }
        state.connections[fd]?.isAwaitingCore = true
        state.awaitingCore.append(fd)
    }

    /// A half-closed client whose requests are all answered is closed once its answers are written.
    func finishIfAllAnswered(_ fd: Int32, _ state: inout State) {
        guard let connection = state.connections[fd], connection.hasReadEnd, !connection.isClosing,
              connection.inFlight == 0, !connection.mayHoldLines else { return }
        state.connections[fd]?.isClosing = true
        state.markForFlush(fd)
    }

    /// Reads only what can be handed on: a client at its in-flight limit, over its answer cap, or with lines
    /// still waiting in its framer is not read (its requests would queue answers without limit).
    func updateInterest(_ fd: Int32, _ state: inout State) {
        guard var connection = state.connections[fd] else { return }
        let wantsRead = mayTakeRequests(connection, state.limits) && !connection.hasReadEnd
            && !connection.mayHoldLines && connection.outbox.pendingBytes < state.limits.outboxBytes
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

    // MARK: - Writing

    /// Writes what each connection in `State.needsFlush` has queued, as far as its socket takes it.
    func flushPass(_ state: inout State) {
        let due = state.needsFlush
        state.needsFlush = []
        for fd in due {
            state.connections[fd]?.isFlushQueued = false
            flush(fd, &state)
        }
    }

    private func flush(_ fd: Int32, _ state: inout State) {
        guard state.connections[fd] != nil else { return }
        // The outbox is written in place (a copy would duplicate its chunk list on every event and client).
        var isGone = false
        let isEmpty = state.connections[fd]!.outbox.flush { bytes in
            switch SocketIO.transmit(fd, bytes) {
            case .bytes(let count): return count
            case .wouldBlock: return 0
            case .closed, .failed:
                isGone = true
                return 0
            }
        }
        guard !isGone, var connection = state.connections[fd] else {
            close(fd, &state)
            return
        }
        if isEmpty, connection.isClosing {
            close(fd, &state)
            return
        }
        if isEmpty, connection.outbox.phase == .resyncing, !connection.hasReportedCaughtUp {
            connection.hasReportedCaughtUp = true
            toCore(.caughtUp(connection.id))
        }
        state.connections[fd] = connection
        // Below the answer cap again: lines the framer held while paused wait for the core again.
        awaitCore(fd, &state)
        updateInterest(fd, &state)
    }

    // MARK: - Outputs of the core

    func apply(_ output: ServiceOutput<WireLines>, _ state: inout State) {
        if let web, applyWeb(web, output, &state) { return }
        switch output {
        case .firstScanServed:
            break
        case .response(let id, let bytes):
            // The client asked for it: queued whatever its buffer holds; then it may send more.
            guard let fd = state.descriptors[id] else { return }
            queueAnswer(bytes, fd, &state)
            guard let connection = state.connections[fd] else { return }
            state.connections[fd]?.inFlight -= 1
            if connection.isAwaitingWork {
                // The answer of the request a worker had: the requests held behind it are the core's again.
                state.connections[fd]?.isAwaitingWork = false
                state.coreInFlight += connection.inFlight - 1
            } else {
                state.coreInFlight -= 1
            }
            // Lines already buffered by the framer wait for the core again; a half-closed client may be done.
            awaitCore(fd, &state)
            finishIfAllAnswered(fd, &state)
            updateInterest(fd, &state)
        case .offCore(let id):
            // Its requests wait for a worker, not for the core: they leave the core's backlog to other clients.
            guard let fd = state.descriptors[id], let connection = state.connections[fd],
                  !connection.isAwaitingWork else { return }
            state.connections[fd]?.isAwaitingWork = true
            state.coreInFlight -= connection.inFlight
            updateInterest(fd, &state)
        case .snapshot(let id, let bytes):
            // A subscription's snapshot, right after its answer, counted as one.
            guard let fd = state.descriptors[id] else { return }
            queueAnswer(bytes, fd, &state)
        case .event(let bytes, let ids):
            // Subject to each subscriber's buffer cap. One buffer, shared.
            for id in ids {
                guard let fd = state.descriptors[id], state.connections[fd] != nil else { continue }
                switch state.connections[fd]!.outbox.enqueue(bytes) {
                case .queued, .skipped:
                    state.markForFlush(fd)
                case .overflowed:
                    state.connections[fd]!.overflows += 1
                    if state.connections[fd]!.overflows >= state.limits.overflowsBeforeClosing {
                        close(fd, &state)
                    } else {
                        toCore(.overflowed(id))
                        state.markForFlush(fd)
                    }
                }
            }
        case .slowClientResync(let id, let line):
            guard let fd = state.descriptors[id] else { return }
            state.connections[fd]?.outbox.beginResync(line)
            state.connections[fd]?.hasReportedCaughtUp = false
            state.markForFlush(fd)
        case .slowClientSnapshot(let id, let bytes):
            guard let fd = state.descriptors[id] else { return }
            state.connections[fd]?.outbox.enqueueRegardless(bytes)
            state.connections[fd]?.outbox.endResync()
            state.markForFlush(fd)
        }
    }

    /// Queues an answer; a client whose unsent answers would pass the hard cap is closed instead.
    private func queueAnswer(_ bytes: [UInt8], _ fd: Int32, _ state: inout State) {
        guard let connection = state.connections[fd] else { return }
        let unsent = connection.outbox.requestedBytes
        if unsent > 0, unsent + bytes.count > state.limits.answerBytesHardCap {
            log.warning("closing client \(connection.id): \(unsent + bytes.count) bytes of answers unread, "
                + "over the \(state.limits.answerBytesHardCap)-byte cap")
            close(fd, &state)
            return
        }
        state.connections[fd]?.outbox.enqueueRegardless(bytes)
        state.markForFlush(fd)
    }
}
