import HotStringsLog
import LinuxSystem

/// What the I/O loop needs to serve the page: the loopback listener, the access rules and the limits.
package struct WebServer: Sendable {
    /// The caps of the page's HTTP, and what happens past each.
    struct Limits: Sendable {
        /// Request line and headers (more: 431, then closed).
        var headBytes = 8 << 10
        /// A request body (more: 413, then closed).
        var bodyBytes = 1 << 20
        /// HTTP connections at once; one more closes the one idle longest (or is closed when none is idle).
        /// Counted apart from the Unix socket's clients, which it never limits.
        var connections = 128
        /// Event streams (`/api/events`) among them (more: 503).
        var eventStreams = 32
        /// From a request's first byte to its last (slow clients: 408, then closed).
        var requestTimeout: Duration = .seconds(10)
        /// An open connection with no request (then closed).
        var idleTimeout: Duration = .seconds(60)
        /// How long a refused client's remaining bytes are read and dropped after the answer, so that the
        /// answer is not lost to a reset.
        var lingerTimeout: Duration = .seconds(2)
        /// Unsent event bytes of a stream before it is closed (the page reconnects and reads the tables again).
        var eventBytes = 4 << 20
    }

    /// The listening socket on 127.0.0.1; its owner closes it after the loop has ended.
    package let listener: Int32
    /// The token and the names the page answers to.
    let access: WebAccess
    var limits = Limits()

    /// The page's address with the token, as logged at start and shown by `status`.
    package var url: String { "http://127.0.0.1:\(access.port)/?token=\(access.token)" }

    /// The page's listener on 127.0.0.1 and its token (saved in the state directory, or new: said to `log`).
    /// - Throws: a `SystemError` when the port cannot be bound or the kernel gives no random bytes.
    package static func open(_ options: WebOptions, stateDirectory: String?, root: String, log: LogSink)
        throws(SystemError) -> WebServer {
        let token = try WebToken.load(stateDirectory: stateDirectory, root: root, rotating: options.rotatesToken,
                                      log: log)
        let listener = try LoopbackSocket.listen(port: options.port)
        do {
            let port = try LoopbackSocket.port(of: listener)
            return WebServer(listener: listener, access: WebAccess(token: token, port: port))
        } catch {
            SocketIO.close(listener)
            throw error
        }
    }
}

/// `--web PORT` and `--web-new-token`.
package struct WebOptions: Sendable {
    /// The port on 127.0.0.1 (0: one the kernel picks; the log line names it).
    package var port: UInt16
    /// Whether a new token replaces the saved one.
    package var rotatesToken: Bool

    /// Options for `port`.
    package init(port: UInt16, rotatesToken: Bool = false) {
        self.port = port
        self.rotatesToken = rotatesToken
    }
}
