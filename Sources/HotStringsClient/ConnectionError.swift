import HotStringsProtocol
import LinuxSystem

/// Why a conversation with the daemon over a `LineConnection` failed.
package enum ConnectionError: Error, Sendable, CustomStringConvertible {
    /// `connect` failed: no socket file, no one listening, no permission.
    case cannotConnect(path: String, SystemError)
    /// The server at `path` runs as a user the client does not trust (see `ServerTrust`): the connection was
    /// closed before a byte was sent or read.
    case untrustedServer(path: String, server: PeerCredentials)
    /// No complete answer arrived within the timeout.
    case timedOut(path: String, after: Duration)
    /// The daemon closed the connection (or reset it) before answering.
    case connectionLost(path: String)
    /// A line from the daemon is not a response or event of protocol version 1, or too long.
    case malformed(path: String, reason: String)
    /// A read, write or wait failed for another reason.
    case system(SystemError)
    /// `ConnectionInterrupter.interrupt()` was called (SIGINT or SIGTERM) while waiting.
    case interrupted

    /// A one-line explanation naming the socket.
    package var description: String {
        switch self {
        case .cannotConnect(let path, let error):
            "cannot connect to \(path): \(error.errno)"
        case .untrustedServer(let path, let server):
            "refusing the server at \(path): it runs as uid \(server.userID) (pid \(server.processID)), not as "
                + "this user (uid \(ProcessStatistics.userID)) or root; if you trust it, pass --trust-uid "
                + "\(server.userID)"
        case .timedOut(let path, let after):
            "no answer from the daemon at \(path) within \(Self.text(after))"
        case .connectionLost(let path):
            "connection lost: the daemon at \(path) closed the connection"
        case .malformed(let path, let reason):
            "unexpected reply from the daemon at \(path): \(reason)"
        case .system(let error):
            "\(error)"
        case .interrupted:
            "interrupted"
        }
    }

    /// "10 s" or "250 ms".
    private static func text(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        if attoseconds == 0 { return "\(seconds) s" }
        return "\(seconds * 1000 + attoseconds / 1_000_000_000_000_000) ms"
    }
}
