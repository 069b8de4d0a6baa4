import Foundation
import HotStringsProtocol
import LinuxSystem

extension ExitCode {
    /// A client command could not connect to the daemon (no socket file, no one listening, no permission).
    static let cannotConnect: Int32 = 2
    /// The daemon did not answer in time, closed the connection, or sent something unreadable.
    static let connectionLost: Int32 = 3
}

/// What one request to the daemon came to.
enum ClientAnswer {
    /// The response's members other than `id` and `ok`, in the daemon's order.
    case result(JSONValue)
    /// The daemon answered with an error.
    case refused(ProtocolError)
    /// The conversation failed; the problem is printed and this is the exit code.
    case failed(Int32)
}

/// A connection to the daemon, or the exit code after the reason it cannot be had was printed.
enum ConnectAttempt {
    /// Connected.
    case connected(ClientConnection)
    /// Not connected; the problem is printed and this is the exit code.
    case failed(Int32)
}

/// The options every client command shares (`--socket`, `--timeout`) and the connection they open.
struct ClientOptions {
    /// The options' specs, appended to each client command's own.
    static let specs: [OptionSpec] = [
        .value("socket", valueName: "path",
               help: "The daemon's socket (default: $HOTSTRINGS_SOCKET, else $XDG_RUNTIME_DIR/hotstrings.sock, "
                   + "else /tmp/hotstrings-<uid>.sock)."),
        .value("timeout", valueName: "seconds", default: "10", help: "How long to wait for each answer."),
    ]

    /// The exit codes of a client command: success, the command's own, then those every client shares.
    static func exitCodes(success: String, failure: String) -> [(code: Int32, meaning: String)] {
        [
            (ExitCode.success, success),
            (ExitCode.failure, failure),
            (ExitCode.cannotConnect, "Cannot connect to the daemon (standard error says how to start one)."),
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

    init(_ arguments: ParsedArguments) throws(UsageError) {
        let option = arguments.value("socket")
        if option?.isEmpty == true { throw UsageError("--socket takes a path") }
        socketPath = SocketPath.resolve(option: option, environment: ProcessInfo.processInfo.environment,
                                        userID: ProcessStatistics.userID)
        isSocketGiven = option != nil
        guard let seconds = arguments.value("timeout").flatMap(Double.init), seconds > 0, seconds <= 86_400 else {
            throw UsageError("--timeout takes a number of seconds greater than 0, such as 10 or 0.5")
        }
        timeout = .milliseconds(Int64((seconds * 1000).rounded(.up)))
    }

    /// Connects to the daemon, or prints why it cannot and returns the exit code.
    func connect<Output, ErrorOutput>(io: inout CommandIO<Output, ErrorOutput>) -> ConnectAttempt {
        do {
            return .connected(try ClientConnection(path: socketPath, timeout: timeout))
        } catch {
            return .failed(report(error, io: &io))
        }
    }

    /// Connects, sends one request and returns its answer; connection problems are printed.
    func send<Output, ErrorOutput>(_ request: Request, io: inout CommandIO<Output, ErrorOutput>) -> ClientAnswer {
        let connection: ClientConnection
        switch connect(io: &io) {
        case .connected(let opened): connection = opened
        case .failed(let code): return .failed(code)
        }
        defer { connection.close() }
        do {
            switch try connection.send(request) {
            case .success(let result): return .result(result)
            case .failure(let error): return .refused(error)
            }
        } catch {
            return .failed(report(error, io: &io))
        }
    }

    /// Prints `error` (with a hint to start the daemon when none listens) and returns its exit code.
    func report<Output, ErrorOutput>(_ error: ClientError, io: inout CommandIO<Output, ErrorOutput>) -> Int32 {
        ClientOptions.printError("\(error)", io: &io)
        guard case .cannotConnect(_, let systemError) = error else { return ExitCode.connectionLost }
        if systemError.errno == .noSuchFileOrDirectory || systemError.errno == .connectionRefused {
            let socket = isSocketGiven ? " --socket \(socketPath)" : ""
            io.stderr.write("hint: start the daemon with: \(CLI.name) serve\(socket) <bundle>\n")
        }
        return ExitCode.cannotConnect
    }

    /// Prints the daemon's error answer and returns 1.
    static func report<Output, ErrorOutput>(_ error: ProtocolError, io: inout CommandIO<Output, ErrorOutput>) -> Int32 {
        printError(error.message, io: &io)
        if let available = error.available {
            io.stderr.write("available languages: \(available.joined(separator: ", "))\n")
        }
        return ExitCode.failure
    }

    /// `hotstrings: error: message` on standard error.
    static func printError<Output, ErrorOutput>(_ message: String, io: inout CommandIO<Output, ErrorOutput>) {
        io.stderr.write("\(CLI.name): error: \(message)\n")
    }

    /// A comma-separated option value as a list, blanks trimmed; a usage error when nothing is left.
    static func list(_ value: String?, option: String) throws(UsageError) -> [String]? {
        guard let value else { return nil }
        let items = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        if items.isEmpty { throw UsageError("--\(option) takes a comma-separated list") }
        return items
    }
}
