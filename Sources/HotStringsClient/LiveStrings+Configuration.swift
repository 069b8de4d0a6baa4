import Foundation

extension LiveStrings {
    /// Where the daemon is and what this program needs from it.
    public struct Configuration: Sendable {
        /// The daemon's socket; nil resolves it like the daemon: `$HOTSTRINGS_SOCKET`, else
        /// `$XDG_RUNTIME_DIR/hotstrings.sock`, else `/tmp/hotstrings-<uid>.sock`.
        public var socketPath: String?
        /// The table names the program looks up, or nil for every table (the default).
        public var tables: [String]?
        /// The languages the program offers, or nil for every language of the bundle (the default). The
        /// mirror always also holds the current language's chain, so switching to a language outside this
        /// list still works (after one more snapshot).
        public var languages: [String]?
        /// The program's name, for the daemon's logs.
        public var clientName: String?
        /// The environment read for the socket path and the default language; the process's by default.
        public var environment: [String: String]
        /// The wait before the first reconnection attempt; it doubles after each failure.
        public var reconnectDelay: Duration
        /// The longest wait between reconnection attempts.
        public var maximumReconnectDelay: Duration
        /// How long `setLanguage(_:)` waits for the daemon's answer.
        public var requestTimeout: Duration
        /// Users, besides this process's own and root, whose daemon the client believes.
        ///
        /// Right after connecting, the client asks the kernel which user runs the server (`SO_PEERCRED`). A
        /// server of any other user is refused, because anyone can create a socket at a path in a shared folder
        /// such as `/tmp` before the real daemon starts; the client then keeps retrying as after any failed
        /// connection, and `setLanguage(_:)` fails with `LiveStringsError.untrustedServer`. Empty by default.
        public var trustedServerUserIDs: [UInt32]
        /// The device `NSStringDeviceSpecificRuleType` variables pick their text for (`iphone`, `ipad`, `mac`,
        /// `appletv`, `applewatch`, `visionos`, `ipod`); `other`, the default, picks the `other` text (or the
        /// first device's, in alphabetical order, when there is none).
        public var device: String
        /// Whether lookups that find no value, or only a fallback language's, are reported to the daemon (its
        /// `missing` list: names only, never arguments or values). On by default; lookups that find their value
        /// cost nothing either way.
        public var reportsMissingKeys = true
        /// The most distinct missing keys (per kind, table and language) waiting for the next report; lookups of
        /// new keys beyond it are only counted (`dropped`).
        public var missingKeyCapacity = 1024

        /// A configuration; every parameter has a default suited to an application.
        public init(
            socketPath: String? = nil, tables: [String]? = nil, languages: [String]? = nil,
            clientName: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment,
            reconnectDelay: Duration = .milliseconds(50), maximumReconnectDelay: Duration = .seconds(2),
            requestTimeout: Duration = .seconds(10), trustedServerUserIDs: [UInt32] = [], device: String = "other"
        ) {
            self.device = device
            self.socketPath = socketPath
            self.tables = tables
            self.languages = languages
            self.clientName = clientName
            self.environment = environment
            self.reconnectDelay = reconnectDelay
            self.maximumReconnectDelay = maximumReconnectDelay
            self.requestTimeout = requestTimeout
            self.trustedServerUserIDs = trustedServerUserIDs
        }
    }
}
