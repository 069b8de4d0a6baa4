/// Why a request through the daemon failed. Lookups never fail; only requests such as `setLanguage` do.
public enum LiveStringsError: Error, Sendable, Hashable, CustomStringConvertible {
    /// There is no connection to the daemon right now (the client keeps trying in the background).
    case notConnected
    /// The server listening at `path` runs as the user `userID`, which is neither this process's user, nor
    /// root, nor one of `Configuration.trustedServerUserIDs`: the client refused to talk to it (another user
    /// may have taken the socket's place) and keeps trying in the background.
    case untrustedServer(path: String, userID: UInt32)
    /// The connection ended before the answer arrived.
    case connectionLost
    /// No answer arrived within the configured request timeout.
    case timedOut
    /// The daemon refused the request: its error `code` (such as `unsupported_language`), its `message`,
    /// and for an unsupported language the languages that are `available`.
    case rejected(code: String, message: String, available: [String]?)

    /// A one-line explanation.
    public var description: String {
        switch self {
        case .notConnected: "not connected to the hotstrings daemon"
        case .untrustedServer(let path, let userID):
            "refusing the server at \(path): it runs as uid \(userID), not as this user or root, and that uid is "
                + "not in trustedServerUserIDs"
        case .connectionLost: "the connection to the hotstrings daemon was lost"
        case .timedOut: "the hotstrings daemon did not answer in time"
        case .rejected(let code, let message, _): "the hotstrings daemon refused the request: \(code): \(message)"
        }
    }
}
