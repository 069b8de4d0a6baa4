import Foundation
import HotStringsClient
import HotStringsProtocol
import LinuxSystem

/// `hotstrings subscribe`: the daemon's events as they happen, until the daemon stops or SIGINT.
struct SubscribeCommand: Command {
    /// How events are printed.
    enum Format: String, Sendable {
        /// Each event line exactly as the daemon sent it.
        case json
        /// One readable line per event (per table, for a reload).
        case text
    }

    static let spec = CommandSpec(
        name: "subscribe",
        abstract: "Print the daemon's events as they happen (JSON lines or readable text).",
        discussion: """
            Subscribes to the running daemon (hotstrings serve) and prints every event it sends: first a \
            snapshot of the tables (unless --no-snapshot), then a reload per settled change, error events \
            for files that fail to parse, language events when the app language is selected, and resync \
            events (a fresh snapshot follows). --languages and --tables limit the tables to those named.

            --format json prints each event exactly as received, one JSON object per line. --format text \
            prints 'snapshot: 12 tables', 'reload de/Localizable: ~changed +added -removed' (one line per \
            table), 'error de.lproj/Localizable.strings:3:1: message', 'language fr (was de)' and \
            'resync overflow'. Standard output is written line by line, so it can be piped.

            Runs until SIGINT or SIGTERM (exit 0) or until the daemon closes the connection, for example \
            because it stopped (exit 3).
            """,
        options: [languages, tables, format, skipsSnapshot] + ClientOptions.options,
        exitCodes: [
            (ExitCode.success, "Stopped by SIGINT or SIGTERM."),
            (ExitCode.failure, "The daemon refused the subscription."),
            (ExitCode.cannotConnect, "Cannot connect to the daemon (standard error says how to start one)."),
            (ExitCode.connectionLost, "The daemon closed the connection (it stopped) or did not answer in time."),
            (ExitCode.usage, "The command line is wrong."),
        ]
    )

    static let languages: CommandOption<[String]> = .list(
        "languages", .text("language"), help: "Only tables of these languages.")
    static let tables: CommandOption<[String]> = .list("tables", .text("table"), help: "Only these tables.")
    static let format: CommandOption<Format> = .value(
        "format", .choice([("json", .json), ("text", .text)]), default: .json, help: "How events are printed.")
    static let skipsSnapshot: CommandOption<Bool> = .flag(
        "no-snapshot", help: "Start with the next change instead of a snapshot of the tables.")

    var subscription: Subscription
    var format: Format
    var client: ClientOptions

    init(arguments: ParsedArguments) throws(UsageError) {
        // An option not given subscribes to every language or table (nil), not to none.
        let languages = try arguments[Self.languages]
        let tables = try arguments[Self.tables]
        let skipsSnapshot = try arguments[Self.skipsSnapshot]
        subscription = Subscription(
            languages: arguments.isGiven(Self.languages) ? languages : nil,
            tables: arguments.isGiven(Self.tables) ? tables : nil,
            snapshot: !skipsSnapshot
        )
        format = try arguments[Self.format]
        client = try ClientOptions(arguments)
    }

    func run<Output, ErrorOutput>(io: inout CommandIO<Output, ErrorOutput>) -> Int32 {
        let connection: LineConnection
        switch client.connect(io: &io) {
        case .connected(let opened): connection = opened
        case .failed(let code): return code
        }
        defer { connection.close() }
        // Blocked before the thread that waits for them exists, so that thread inherits the mask too.
        Signals.block([.interrupt, .terminate])
        let interrupter = connection.interrupter
        Thread {
            _ = Signals.waitForAny(of: [.interrupt, .terminate])
            interrupter.interrupt()
        }.start()
        do {
            if case .failure(let error) = try connection.request(.subscribe(subscription), timeout: client.timeout) {
                return ClientOptions.report(error, io: &io)
            }
            while true {
                switch try connection.nextEvent() {
                case .line(let line):
                    print(line, io: &io)
                case .closed:
                    return client.report(ConnectionError.connectionLost(path: connection.path), io: &io)
                case .interrupted:
                    return ExitCode.success
                }
            }
        } catch .interrupted {
            return ExitCode.success
        } catch {
            return client.report(error, io: &io)
        }
    }

    /// Writes one event as one write, so a reader of the pipe sees each event as soon as it arrived.
    private func print<Output, ErrorOutput>(_ line: [UInt8], io: inout CommandIO<Output, ErrorOutput>) {
        switch format {
        case .json:
            io.stdout.write(String(decoding: line, as: UTF8.self) + "\n")
        case .text:
            io.stdout.write(ClientText.event(line: line).map { $0 + "\n" }.joined())
        }
    }
}
