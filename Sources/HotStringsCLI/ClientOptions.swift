import Foundation
import HotStringsClient
import HotStringsProtocol
import LinuxSystem
import StringsFormat

extension ExitCode {
    /// A client command could not connect to the daemon (no socket file, no one listening, no permission), or
    /// refused the server because it runs as a user the client does not trust.
    static let cannotConnect: Int32 = 2
    /// The daemon did not answer in time, closed the connection, or sent something unreadable.
    static let connectionLost: Int32 = 3
}

/// What one request to the daemon came to.
enum ClientAnswer<Body: AnswerBody> {
    /// The answer, and its members as the daemon wrote them (for printing the answer as it is, `--json`).
    case result(Body, AnswerFields)
    /// The daemon answered with an error.
    case refused(ProtocolError)
    /// The conversation failed; the problem is printed and this is the exit code.
    case failed(Int32)
}

/// A connection to the daemon, or the exit code after the reason it cannot be had was printed.
enum ConnectAttempt {
    /// Connected to a trusted server.
    case connected(LineConnection)
    /// Not connected; the problem is printed and this is the exit code.
    case failed(Int32)
}

/// The options every client command shares (`--socket`, `--timeout`, `--trust-uid`) and the connection they open.
struct ClientOptions {
    static let socket: CommandOption<String?> = .optional(
        "socket", .text("path"),
        help: "The daemon's socket (default: $HOTSTRINGS_SOCKET, else $XDG_RUNTIME_DIR/hotstrings.sock, else "
            + "/tmp/hotstrings-<uid>.sock).")
    static let timeout: CommandOption<Duration> = .value(
        "timeout", .duration(plain: .seconds, in: .nanoseconds(1) ... .seconds(86_400)), default: .seconds(10),
        help: "How long to wait for each answer.")
    static let trustedUserIDs: CommandOption<[UInt32]> = .list(
        "trust-uid", .userID,
        help: "Also believe a daemon running as these user IDs. By default only a daemon of your own user or root "
            + "is believed; any other is refused with exit code 2, because another user may have created the "
            + "socket before your daemon started.")

    /// The options every client command has, after its own.
    static let options: [any OptionDeclaration] = [socket, timeout, trustedUserIDs]

    /// `--table`, for the commands that ask for one table's strings.
    static let table: CommandOption<String> = .value(
        "table", short: "t", .text("name"), default: Request.defaultTable, help: "The table.")

    /// The exit codes of a client command: success, the command's own, then those every client shares.
    static func exitCodes(success: String, failure: String) -> [(code: Int32, meaning: String)] {
        [
            (ExitCode.success, success),
            (ExitCode.failure, failure),
            (ExitCode.cannotConnect, "Cannot connect to the daemon (standard error says how to start one), or "
                + "the server runs as a user that is not trusted (see --trust-uid)."),
            (ExitCode.connectionLost, "The daemon did not answer in time, closed the connection or sent nonsense."),
            (ExitCode.usage, "The command line is wrong."),
        ]
    }

    /// The socket path, resolved like the daemon's.
    var socketPath: String
    /// Whether `--socket` named the path (the hint to start the daemon then names it too).
    var isSocketGiven: Bool
    /// How long to wait for each response.
    var timeout: Duration
    /// The servers the command believes: its own user's, root's and those of `--trust-uid`.
    var trust: ServerTrust

    init(_ arguments: ParsedArguments) throws(UsageError) {
        let option = try arguments[Self.socket]
        socketPath = SocketPath.resolve(option: option, environment: ProcessInfo.processInfo.environment,
                                        userID: ProcessStatistics.userID)
        isSocketGiven = option != nil
        timeout = try arguments[Self.timeout]
        trust = ServerTrust(trustedUserIDs: try arguments[Self.trustedUserIDs])
    }

    /// Connects to the daemon, or prints why it cannot and returns the exit code.
    func connect<Output, ErrorOutput>(io: inout CommandIO<Output, ErrorOutput>) -> ConnectAttempt {
        do {
            return .connected(try LineConnection(path: socketPath, trust: trust))
        } catch {
            return .failed(report(error, io: &io))
        }
    }

    /// Connects, sends one request and returns its answer, read as `Body`; connection problems (and an answer that is
    /// no `Body`) are printed.
    func send<Body: AnswerBody, Output, ErrorOutput>(_ request: Request, as body: Body.Type,
                                                     io: inout CommandIO<Output, ErrorOutput>) -> ClientAnswer<Body> {
        let connection: LineConnection
        switch connect(io: &io) {
        case .connected(let opened): connection = opened
        case .failed(let code): return .failed(code)
        }
        defer { connection.close() }
        do {
            switch try connection.request(request, timeout: timeout) {
            case .success(let fields):
                do {
                    return .result(try Body(fields), fields)
                } catch {
                    return .failed(report(.malformed(path: connection.path, reason: error.reason), io: &io))
                }
            case .failure(let error): return .refused(error)
            }
        } catch {
            return .failed(report(error, io: &io))
        }
    }

    /// Prints `error` (with a hint to start the daemon when none listens) and returns its exit code.
    func report<Output, ErrorOutput>(_ error: ConnectionError, io: inout CommandIO<Output, ErrorOutput>) -> Int32 {
        io.printError("\(error)")
        if case .untrustedServer = error { return ExitCode.cannotConnect }
        guard case .cannotConnect(_, let systemError) = error else { return ExitCode.connectionLost }
        if systemError.errno == .noSuchFileOrDirectory || systemError.errno == .connectionRefused {
            let socket = isSocketGiven ? " --socket \(socketPath)" : ""
            io.stderr.write("hint: start the daemon with: \(CLI.name) serve\(socket) <bundle>\n")
        }
        return ExitCode.cannotConnect
    }

    /// Prints the daemon's error answer and returns 1.
    static func report<Output, ErrorOutput>(_ error: ProtocolError, io: inout CommandIO<Output, ErrorOutput>) -> Int32 {
        io.printError(error.message)
        if let available = error.available {
            io.stderr.write("available languages: \(DisplayText.escaped(available.joined(separator: ", ")))\n")
        }
        return ExitCode.failure
    }
}
