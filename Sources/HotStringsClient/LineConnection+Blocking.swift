import HotStringsProtocol
import LinuxSystem

/// One line read in the blocking style, or why there is none.
package enum IncomingLine: Sendable, Equatable {
    /// A complete line without its `"\n"`.
    case line([UInt8])
    /// The daemon closed the connection; no partial line is returned.
    case closed
    /// The wait was interrupted from another thread.
    case interrupted
}

extension LineConnection {
    /// Sends `request` and waits up to `timeout` for its response (the CLI's and the tests' style).
    ///
    /// Returns the response's members other than `id` and `ok`, as the daemon wrote them (to be read as the op's
    /// answer), or the error it answered with. Events that arrive meanwhile are kept for `nextEvent()`.
    /// - Throws: `ConnectionError` when the request cannot be sent or no valid response arrives in time.
    package func request(_ request: Request, timeout: Duration) throws(ConnectionError)
        -> Result<AnswerFields, ProtocolError>
    {
        let id = RequestID.number(queue(request))
        let deadline = ContinuousClock.now + timeout
        while true {
            let line: [UInt8]
            switch try nextLine(until: deadline, timeout: timeout) {
            case .line(let received): line = received
            case .closed: throw .connectionLost(path: path)
            case .interrupted: throw .interrupted
            }
            let message: ServerMessage
            do {
                message = try ServerMessage.decode(line)
            } catch {
                throw .malformed(path: path, reason: error.reason)
            }
            switch message {
            case .event:
                pendingEvents.append(line)
            case .response(let echoed, let result):
                if let echoed, echoed != id {
                    throw .malformed(path: path, reason: "a response to request \(echoed) while waiting for \(id)")
                }
                return result
            }
        }
    }

    /// Sends `request`, waits up to `timeout` for its response and reads it as `Body`, the op's answer.
    ///
    /// - Throws: `ConnectionError` when the request cannot be sent, no valid response arrives in time, or the
    ///   response is not a `Body` (`.malformed`, naming the member).
    package func request<Body: AnswerBody>(_ request: Request, as body: Body.Type, timeout: Duration)
        throws(ConnectionError) -> Result<Body, ProtocolError>
    {
        switch try self.request(request, timeout: timeout) {
        case .success(let fields):
            do {
                return .success(try Body(fields))
            } catch {
                throw .malformed(path: path, reason: error.reason)
            }
        case .failure(let error):
            return .failure(error)
        }
    }

    /// The next event line as the daemon sent it (without its `"\n"`), waiting as long as it takes; events
    /// kept by `request(_:timeout:)` come first.
    ///
    /// Returns `.closed` when the daemon closes the connection and `.interrupted` after `interrupt()`.
    /// - Throws: `ConnectionError` when reading fails.
    package func nextEvent() throws(ConnectionError) -> IncomingLine {
        if !pendingEvents.isEmpty { return .line(pendingEvents.removeFirst()) }
        return try nextLine(until: nil, timeout: nil)
    }

    /// The next complete line, sending what is queued and reading and waiting until `timeout` (nil: no limit).
    /// - Throws: `.timedOut` after `timeout`, or what sending and reading throw.
    package func nextLine(timeout: Duration?) throws(ConnectionError) -> IncomingLine {
        try nextLine(until: timeout.map { ContinuousClock.now + $0 }, timeout: timeout)
    }

    /// Sends everything queued, waiting for room until `timeout` passes; reads nothing meanwhile (a test of a
    /// client that never reads relies on that; requests are small enough not to need it otherwise).
    /// - Throws: `.timedOut` when the daemon does not read in time, `.interrupted`, or what writing throws.
    package func send(timeout: Duration) throws(ConnectionError) {
        let deadline = ContinuousClock.now + timeout
        try flush()
        while hasUnsentBytes {
            if interrupter.isInterrupted { throw .interrupted }
            if !(try waitForRoom(timeout: deadline - .now)), ContinuousClock.now >= deadline {
                throw .timedOut(path: path, after: timeout)
            }
            try flush()
        }
    }

    /// The next complete line, flushing queued bytes and waiting until `deadline` (forever when nil).
    private func nextLine(until deadline: ContinuousClock.Instant?, timeout: Duration?)
        throws(ConnectionError) -> IncomingLine
    {
        while true {
            try flush()
            if let line = try nextLine() { return .line(line) }
            if isClosedByPeer { return .closed }
            if interrupter.isInterrupted { return .interrupted }
            // Waiting first costs nothing when bytes are there (the wait is level-triggered) and saves a read
            // that would find nothing right after a request was sent.
            let isReady = try wait(timeout: deadline.map { $0 - .now })
            if try readAvailable() { continue }
            if !isReady, !interrupter.isInterrupted, let deadline, ContinuousClock.now >= deadline {
                throw .timedOut(path: path, after: timeout ?? .zero)
            }
        }
    }
}
