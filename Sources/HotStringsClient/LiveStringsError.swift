/// Why a request through the daemon failed. Lookups never fail; only requests such as `setLanguage` do.
///
/// A struct with a `code`, not an enum, so that a new kind of failure is not a breaking change: an app's
/// `switch error.code` has a `default:` branch and keeps compiling when a code is added (the shape of swift-nio's
/// and grpc-swift's errors). Match on the code, and read the details the code documents:
///
/// ```swift
/// do {
///     try await strings.setLanguage("ko")
/// } catch {
///     switch error.code {
///     case .rejected where error.rejectionCode == "unsupported_language":
///         offer(error.availableLanguages ?? [])
///     case .notConnected, .connectionLost, .timedOut: retryLater()
///     default: report(error)  // .untrustedServer, and codes added later
///     }
/// }
/// ```
///
/// `catch LiveStringsError.Code.timedOut` (or `case LiveStringsError.Code.timedOut:` over any error) matches by
/// code alone. Errors are equal when their code and every detail are equal.
public struct LiveStringsError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure this is. New codes may be added in any release.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        /// The codes this release knows; private, so adding one breaks no `switch` outside this module.
        private enum Known: String, Sendable, Hashable {
            case notConnected, untrustedServer, connectionLost, timedOut, rejected, invalidArgument
        }

        private let known: Known

        private init(_ known: Known) { self.known = known }

        /// There is no connection to the daemon right now (the client keeps trying in the background).
        public static let notConnected = Code(.notConnected)
        /// The server at the socket runs as a user the client does not trust (`serverPath`, `serverUserID`).
        public static let untrustedServer = Code(.untrustedServer)
        /// The connection ended before the answer arrived.
        public static let connectionLost = Code(.connectionLost)
        /// No answer arrived within the configured request timeout.
        public static let timedOut = Code(.timedOut)
        /// The daemon refused the request (`rejectionCode`, `message`, `availableLanguages`).
        public static let rejected = Code(.rejected)
        /// An argument cannot be used, such as a malformed `Accept-Language` header (`message` says why).
        public static let invalidArgument = Code(.invalidArgument)

        /// The code's name: `notConnected`.
        public var description: String { known.rawValue }
    }

    /// What kind of failure this is.
    public var code: Code
    /// For `.untrustedServer`: the socket's path.
    public var serverPath: String?
    /// For `.untrustedServer`: the user the server runs as, which is neither this process's user, nor root, nor
    /// one of `Configuration.trustedServerUserIDs`.
    public var serverUserID: UInt32?
    /// For `.rejected`: the daemon's error code, such as `unsupported_language` (see docs/PROTOCOL.md).
    public var rejectionCode: String?
    /// For `.rejected`: the daemon's message.
    public var message: String?
    /// For `.rejected` with `unsupported_language`: the languages the bundle has.
    public var availableLanguages: [String]?

    private init(code: Code) {
        self.code = code
    }

    /// There is no connection to the daemon right now (the client keeps trying in the background).
    public static let notConnected = LiveStringsError(code: .notConnected)
    /// The connection ended before the answer arrived.
    public static let connectionLost = LiveStringsError(code: .connectionLost)
    /// No answer arrived within the configured request timeout.
    public static let timedOut = LiveStringsError(code: .timedOut)

    /// The server listening at `path` runs as the user `userID`, which is neither this process's user, nor
    /// root, nor one of `Configuration.trustedServerUserIDs`: the client refused to talk to it (another user
    /// may have taken the socket's place) and keeps trying in the background.
    public static func untrustedServer(path: String, userID: UInt32) -> LiveStringsError {
        var error = LiveStringsError(code: .untrustedServer)
        error.serverPath = path
        error.serverUserID = userID
        return error
    }

    /// The daemon refused the request: its error `code` (such as `unsupported_language`), its `message`,
    /// and for an unsupported language the languages that are `available`.
    public static func rejected(code: String, message: String, available: [String]?) -> LiveStringsError {
        var error = LiveStringsError(code: .rejected)
        error.rejectionCode = code
        error.message = message
        error.availableLanguages = available
        return error
    }

    /// An argument cannot be used; `message` says why.
    public static func invalidArgument(_ message: String) -> LiveStringsError {
        var error = LiveStringsError(code: .invalidArgument)
        error.message = message
        return error
    }

    /// A one-line explanation.
    public var description: String {
        switch code {
        case .notConnected: "not connected to the hotstrings daemon"
        case .untrustedServer:
            "refusing the server at \(serverPath ?? "?"): it runs as uid \(serverUserID.map(String.init) ?? "?"), "
                + "not as this user or root, and that uid is not in trustedServerUserIDs"
        case .connectionLost: "the connection to the hotstrings daemon was lost"
        case .timedOut: "the hotstrings daemon did not answer in time"
        case .rejected:
            "the hotstrings daemon refused the request: \(rejectionCode ?? "?"): \(message ?? "")"
        case .invalidArgument: message ?? "invalid argument"
        default: "hotstrings request failed: \(code)"
        }
    }

    /// Whether `error` has the code `code`: `catch LiveStringsError.Code.timedOut`.
    public static func ~= (code: Code, error: LiveStringsError) -> Bool {
        error.code == code
    }
}

extension LiveStringsError.Code {
    /// Whether `error` is a `LiveStringsError` with the code `code`, for a `catch` of untyped errors.
    public static func ~= (code: Self, error: any Error) -> Bool {
        (error as? LiveStringsError)?.code == code
    }
}
