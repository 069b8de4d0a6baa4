import HotStringsProtocol
import HotStringsService

/// The socket's line protocol on a connection: request lines in, handed to the core one per turn, answers and events
/// out, each line ending in `"\n"`.
///
/// A client is read only while what it sends can be handed on: fewer than `IOLoop.Limits.requestsInFlight` of its
/// requests unanswered, none waiting for a worker, less than `answerBytesSoftCap` of answers unread, no complete line
/// waiting in its framer, its event backlog under the cap. So a client that floods or stops reading holds at most its
/// framer's line and its capped outbox.
struct LineSession {
    /// Where its input is.
    enum Phase: Equatable {
        /// Reading requests.
        case reading
        /// The client shut down its writing side (`printf … | nc -N`): the requests it sent are answered, then it is
        /// closed.
        case inputEnded
        /// No more requests are taken: what is queued is written, then it is closed.
        case closing
    }

    /// Its requests with the core.
    enum Requests: Equatable {
        /// Handed to the core and not answered yet, each counted in the core's backlog.
        case inCore(Int)
        /// As many unanswered, one of them off the core, waiting for a worker (`ServiceOutput.offCore`): until its
        /// answer, none is counted in the core's backlog (the core holds the others), and no more are handed on.
        case awaitingWork(Int)

        /// How many are unanswered.
        var count: Int {
            switch self {
            case .inCore(let count), .awaitingWork(let count): count
            }
        }

        /// How many count in the core's backlog.
        var inBacklog: Int { if case .inCore(let count) = self { count } else { 0 } }
    }

    private(set) var phase = Phase.reading
    private(set) var requests = Requests.inCore(0)
    private var framer = LineFramer()
    /// The framer may hold complete lines (set by every read, cleared when `nextLine` finds none): the client is not
    /// read until they are handed on.
    private(set) var mayHoldLines = false

    /// Whether its next request may be handed on now (its own limits; the core's backlog is the loop's).
    func mayTakeRequests(_ outbox: Outbox, _ limits: IOLoop.Limits) -> Bool {
        guard phase != .closing, case .inCore(let count) = requests else { return false }
        return count < limits.requestsInFlight && outbox.requestedBytes < limits.answerBytesSoftCap
    }

    /// Whether it is read: only what can be handed on, or its requests would queue answers without limit.
    func isReading(_ outbox: Outbox, _ limits: IOLoop.Limits) -> Bool {
        phase == .reading && !mayHoldLines && mayTakeRequests(outbox, limits) && outbox.pendingBytes < limits.outboxBytes
    }

    /// Bytes read: into the framer; the lines they complete wait for the client's turn.
    mutating func received(_ bytes: UnsafeRawBufferPointer) -> Connection.Actions {
        framer.append(bytes)
        mayHoldLines = true
        return .none
    }

    /// The client shut down its writing side: what it sent is answered, then it is closed.
    mutating func receivedEnd() -> Connection.Actions {
        guard phase == .reading else { return .none }
        phase = .inputEnded
        return finishIfAllAnswered()
    }

    /// Hands on the next request, skipping (and counting) up to `linesPerTurn` empty lines; a line over the framer's
    /// cap is answered `too_large` and the connection closed once that is written.
    mutating func takeTurn(_ id: ClientID, _ outbox: inout Outbox, _ limits: IOLoop.Limits) -> Connection.Actions {
        guard mayTakeRequests(outbox, limits) else { return .none }
        var actions = Connection.Actions()
        for _ in 0..<limits.linesPerTurn {
            guard let line = framer.nextLine() else {
                mayHoldLines = false
                break
            }
            guard case .success(let bytes) = line else {
                mayHoldLines = false
                outbox.enqueueRegardless(ResponseEncoder.failure(id: nil, .tooLarge()))
                phase = .closing
                return .flush
            }
            guard !bytes.isEmpty else { continue }
            requests = .inCore(requests.count + 1)
            actions.input = .requestLine(id, bytes)
            actions.backlogChange = 1
            break
        }
        let finished = finishIfAllAnswered()
        actions.flushes = finished.flushes
        return actions
    }

    /// Its answer: queued whatever its buffer holds (the client asked for it); then it may send more.
    mutating func answered(_ line: [UInt8], _ id: ClientID, _ outbox: inout Outbox, _ limits: IOLoop.Limits)
        -> Connection.Actions {
        var actions = Self.queueAnswer(line, id, &outbox, limits)
        guard !actions.closes, requests.count > 0 else { return actions }
        switch requests {
        case .inCore(let count):
            requests = .inCore(count - 1)
            actions.backlogChange = -1
        case .awaitingWork(let count):
            // The answer of the request a worker had: the requests held behind it are the core's again.
            requests = .inCore(count - 1)
            actions.backlogChange = count - 1
        }
        if finishIfAllAnswered().flushes { actions.flushes = true }
        return actions
    }

    /// Its requests wait for a worker, not for the core: they leave the core's backlog to other clients.
    mutating func movedOffCore() -> Connection.Actions {
        guard case .inCore(let count) = requests else { return .none }
        requests = .awaitingWork(count)
        return Connection.Actions(backlogChange: -count)
    }

    /// The loop stops: no more requests; what is queued is written, then it is closed.
    mutating func stop() -> Connection.Actions {
        phase = .closing
        framer = LineFramer()
        mayHoldLines = false
        return .flush
    }

    /// Queues bytes the client asked for; a client whose unsent answers would pass the hard cap is closed instead.
    static func queueAnswer(_ bytes: [UInt8], _ id: ClientID, _ outbox: inout Outbox, _ limits: IOLoop.Limits)
        -> Connection.Actions {
        let unsent = outbox.requestedBytes
        if unsent > 0, unsent + bytes.count > limits.answerBytesHardCap {
            return Connection.Actions(closes: true, warning: "closing client \(id): \(unsent + bytes.count) bytes of "
                + "answers unread, over the \(limits.answerBytesHardCap)-byte cap")
        }
        outbox.enqueueRegardless(bytes)
        return .flush
    }

    /// A half-closed client whose requests are all answered is closed once its answers are written.
    private mutating func finishIfAllAnswered() -> Connection.Actions {
        guard phase == .inputEnded, requests.count == 0, !mayHoldLines else { return .none }
        phase = .closing
        return .flush
    }
}
