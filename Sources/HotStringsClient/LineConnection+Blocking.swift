import HotStringsProtocol
import LinuxSystem
import StringsFormat

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
    /// Returns the response's members other than `id` and `ok`, in the order the daemon wrote them, or the
    /// error it answered with. Events that arrive meanwhile are kept for `nextEvent()`.
    /// - Throws: `ConnectionError` when the request cannot be sent or no valid response arrives in time.
    package func request(_ request: Request, timeout: Duration) throws(ConnectionError)
        -> Result<JSONValue, ProtocolError>
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
            let value: JSONValue
            do {
                value = try JSONValue(parsing: line)
            } catch {
                throw .malformed(path: path, reason: "invalid JSON: \(error)")
            }
            guard let members = value.objectMembers else { throw .malformed(path: path, reason: "not a JSON object") }
            if value["event"] != nil {
                pendingEvents.append(line)
                continue
            }
            guard let isOK = value["ok"]?.boolValue else {
                throw .malformed(path: path, reason: "a line that is neither an event nor a response")
            }
            if let echoed = value["id"], !echoed.isNull, echoed != id.json {
                throw .malformed(path: path, reason: "a response to request \(echoed) while waiting for \(id)")
            }
            if isOK {
                return .success(.object(members.filter { $0.0 != "id" && $0.0 != "ok" }))
            }
            let message: ServerMessage
            do {
                message = try ServerMessage.decode(line)
            } catch {
                throw .malformed(path: path, reason: error.reason)
            }
            guard case .response(_, .failure(let error)) = message else {
                throw .malformed(path: path, reason: "a failed response without an error")
            }
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
