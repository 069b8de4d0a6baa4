import HotStringsProtocol

/// How a `LiveStrings` reaches a source of tables: the daemon's socket, or a store in the same process.
///
/// A transport delivers `TransportEvent`s to the handler given to `start` on one thread at a time, in the
/// order of its stream, and carries the mirror's `TransportCommand`s the other way. It knows nothing about
/// mirrors, fallback or positions: the `LiveStrings` engine decides what to subscribe to and when.
package protocol HotStringsTransport: AnyObject, Sendable {
    /// Starts delivering events to `handler`; called once. Connecting is the transport's business (it keeps
    /// retrying), and every new connection starts with `.connected`, to which the engine answers with
    /// `.subscribe` and `.refreshServerInfo` through `send(_:)`, from inside the handler.
    func start(_ handler: @escaping @Sendable (TransportEvent) -> Void)

    /// Queues `command` for the current connection; dropped when there is none (the next connection's
    /// `.connected` makes the engine send what it needs again). Must not block or call the handler.
    func send(_ command: TransportCommand)

    /// Sends `request` and returns its answer.
    ///
    /// - Throws: `LiveStringsError`: `.notConnected` at once when there is no connection, `.rejected` when
    ///   the source answered with an error, `.connectionLost` or `.timedOut` otherwise.
    func request(_ request: Request) async throws(LiveStringsError) -> Answer

    /// Stops for good: closes the connection and delivers nothing more (an event being delivered finishes).
    func stop()
}

/// What a transport tells the engine, in stream order.
package enum TransportEvent: Sendable, Equatable {
    /// A new connection is up; what follows belongs to it until `.disconnected`.
    case connected
    /// The answer to a `languages` request (the engine's `.refreshServerInfo`), at its place in the stream.
    case serverInfo(ServerInfo)
    /// An event with its stream position.
    case event(epoch: UInt64, seq: UInt64, ServerEvent)
    /// The connection ended; `reason` is for logs and tests.
    case disconnected(reason: String)
}

/// What the engine asks a transport to do on the current connection.
package enum TransportCommand: Sendable, Equatable {
    /// Send `subscribe`; a `snapshot` follows unless `since` is still current.
    case subscribe(Subscription)
    /// Send `languages`, and deliver its answer as `.serverInfo`.
    case refreshServerInfo
}

/// The bundle-wide facts of a `languages` answer.
package struct ServerInfo: Sendable, Equatable {
    /// The languages with tables, as the source spells them.
    package var languages: [String]
    /// The selected app language, or nil.
    package var selectedLanguage: String?
    /// The language every lookup falls back to before `Base`.
    package var developmentLanguage: String

    /// Creates the facts.
    package init(languages: [String], selectedLanguage: String?, developmentLanguage: String) {
        self.languages = languages
        self.selectedLanguage = selectedLanguage
        self.developmentLanguage = developmentLanguage
    }

    /// The facts of a `languages` answer.
    package init(_ answer: LanguagesAnswer) {
        self.init(languages: answer.languages.map(\.language), selectedLanguage: answer.selected,
                  developmentLanguage: answer.developmentLanguage)
    }
}
