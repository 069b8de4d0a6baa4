import HotStringsProtocol

/// Where the answer to a request of a `LiveStrings` transport goes: a caller waiting in `request(_:)`.
package typealias AnswerReply = CheckedContinuation<Result<Answer, LiveStringsError>, Never>

/// A request a transport sent and whose answer it waits for, and what the answer comes to: the one bookkeeping of
/// both transports (the socket's `SocketSession`, embedded mode's session), so that both read answers and turn the
/// server's refusals into `LiveStringsError`s alike.
package struct PendingRequest: Sendable {
    /// What the request is for.
    package enum Purpose: Sendable {
        /// The transport's own (`hello`, `subscribe`): the answer is not needed.
        case handshake
        /// The engine's `languages` (`TransportCommand.refreshServerInfo`): the answer becomes `.serverInfo`.
        case serverInfo
        /// A caller's request (`setLanguage`, `set` …), answered through `reply`.
        case reply(AnswerReply)
    }

    /// What an answer comes to, for the transport to deliver its own way.
    package enum Outcome: Sendable {
        /// Nothing to deliver.
        case none
        /// The transport event to deliver, in stream order.
        case serverInfo(ServerInfo)
        /// The caller's answer, or why it failed.
        case reply(AnswerReply, Result<Answer, LiveStringsError>)
    }

    /// The request sent.
    package var request: Request
    /// What it is for.
    package var purpose: Purpose
    /// When a caller's request stops waiting (`.timedOut`); nil: as long as the connection lasts.
    package var deadline: ContinuousClock.Instant?

    /// A request waiting for its answer.
    package init(_ request: Request, _ purpose: Purpose, deadline: ContinuousClock.Instant? = nil) {
        self.request = request
        self.purpose = purpose
        self.deadline = deadline
    }

    /// What `result`, the typed answer or the server's refusal, comes to.
    package func outcome(of result: Result<Answer, ProtocolError>) -> Outcome {
        switch purpose {
        case .handshake:
            return .none
        case .serverInfo:
            guard case .success(.languages(let languages)) = result else { return .none }
            return .serverInfo(ServerInfo(languages))
        case .reply(let reply):
            return .reply(reply, result.mapError(LiveStringsError.init(rejection:)))
        }
    }

    /// What the members received (or the refusal) come to, read as the answer to `request`; nil when they cannot be
    /// read as that answer, which counts as a line that cannot be read: skipped, the request still waiting.
    package func outcome(reading received: Result<AnswerFields, ProtocolError>) -> Outcome? {
        let answer: Result<Answer, ProtocolError>
        switch received {
        case .success(let fields):
            guard let read = try? Answer(fields, answering: request) else { return nil }
            answer = .success(read)
        case .failure(let error):
            answer = .failure(error)
        }
        return outcome(of: answer)
    }
}

extension LiveStringsError {
    /// The server's refusal of a request: `.rejected` with its code, message and the languages it lists.
    package init(rejection error: ProtocolError) {
        self = .rejected(code: error.code.rawValue, message: error.message, available: error.available)
    }
}
