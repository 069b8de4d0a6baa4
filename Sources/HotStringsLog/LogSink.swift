import LinuxSystem
import StringsFormat

/// Where the HotStrings libraries' log lines go: a handler the application gives them.
///
/// The libraries never write to the process's standard error by themselves: an embedded `LiveStrings`
/// (`EmbeddedOptions.log`), the daemon and `watch` log through the sink they were given, and only the command line
/// tool makes one that writes standard error (`standardError(minimumLevel:)`, one line per record:
/// `hotstrings: warning: …`). An application sends the records to its own log, or silences them (`discarding`).
///
/// ```swift
/// var options = LiveStrings.EmbeddedOptions(webPort: 0)
/// options.log = LogSink(minimumLevel: .info) { record in
///     logger.log(level: record.level == .error ? .error : .info, "\(record.message)")
/// }
/// ```
///
/// Every message and metadata value is one line that a terminal only displays (`DisplayText`): a name from the
/// bundle, a request or the command line holding a newline or an escape sequence cannot forge a second line or
/// drive a terminal, whatever the handler does with it.
public struct LogSink: Sendable {
    /// How much a record matters.
    public enum Level: Int, Sendable, Comparable, CaseIterable, CustomStringConvertible {
        /// What only a developer following the library needs (each pull that found nothing new).
        case debug
        /// What an operator likes to see (the page's address, a release installed, a language switched).
        case info
        /// Something went wrong and was handled: a file that does not parse, a refused request, a failed pull.
        case warning
        /// Something went wrong that was not handled.
        case error

        public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }

        /// The level's name: `debug`, `info`, `warning` or `error`.
        public var description: String {
            switch self {
            case .debug: "debug"
            case .info: "info"
            case .warning: "warning"
            case .error: "error"
            }
        }
    }

    /// What a record carries besides its message, by key (`client`, `status`, `file`, `line`, `column`...).
    public typealias Metadata = [String: String]

    /// One thing logged.
    public struct Record: Sendable {
        /// How much it matters.
        public var level: Level
        /// One line for people to read, without the `hotstrings: level: ` prefix (`web: refused GET /x (403): …`).
        public var message: String
        /// Values the message names, for a handler that keeps them apart (empty for most records).
        public var metadata: Metadata

        /// A record; `message` and `metadata` are taken as they are.
        public init(level: Level, message: String, metadata: Metadata = [:]) {
            self.level = level
            self.message = message
            self.metadata = metadata
        }
    }

    /// Records below this level are not made at all (their messages are not even built).
    public var minimumLevel: Level
    private let handler: (@Sendable (Record) -> Void)?

    /// A sink that hands each record of `minimumLevel` or above to `handler`, on the thread that logs it (the
    /// library's own threads: the I/O loop's, the core's, the puller's). The handler must not block for long, and
    /// may be called from several threads at once.
    public init(minimumLevel: Level = .info, _ handler: @escaping @Sendable (Record) -> Void) {
        self.minimumLevel = minimumLevel
        self.handler = handler
    }

    private init(discarding: Void) {
        minimumLevel = .error
        handler = nil
    }

    /// A sink that keeps nothing.
    public static let discarding = LogSink(discarding: ())

    /// A sink that writes each record of `minimumLevel` or above to standard error as one line,
    /// `hotstrings: LEVEL: MESSAGE` (the daemon's and the command line's log; the default of embedded mode).
    public static func standardError(minimumLevel: Level = .info) -> LogSink {
        LogSink(minimumLevel: minimumLevel) { record in
            // One write per line, so that lines from several threads never interleave; a full or closed standard
            // error drops the line rather than stopping the library.
            _ = try? Descriptor.write(Array(standardErrorLine(record).utf8), to: 2)
        }
    }

    /// The line `standardError` writes for `record`, ending in a newline.
    package static func standardErrorLine(_ record: Record) -> String {
        "hotstrings: \(record.level): \(record.message)\n"
    }

    /// Hands a record of `level` to the handler, when the sink takes that level: the message and the metadata's
    /// values made one displayable line each.
    package func log(_ level: Level, _ message: @autoclosure () -> String,
                     metadata: @autoclosure () -> Metadata = [:]) {
        guard let handler, level >= minimumLevel else { return }
        handler(Record(level: level, message: Self.displayable(message()),
                       metadata: metadata().mapValues { Self.displayable($0) }))
    }

    /// Logs at `debug`.
    package func debug(_ message: @autoclosure () -> String, metadata: @autoclosure () -> Metadata = [:]) {
        log(.debug, message(), metadata: metadata())
    }

    /// Logs at `info`.
    package func info(_ message: @autoclosure () -> String, metadata: @autoclosure () -> Metadata = [:]) {
        log(.info, message(), metadata: metadata())
    }

    /// Logs at `warning`.
    package func warning(_ message: @autoclosure () -> String, metadata: @autoclosure () -> Metadata = [:]) {
        log(.warning, message(), metadata: metadata())
    }

    /// Logs at `error`.
    package func error(_ message: @autoclosure () -> String, metadata: @autoclosure () -> Metadata = [:]) {
        log(.error, message(), metadata: metadata())
    }

    /// `text` as one line a terminal only displays; backslashes kept, since most messages join parts escaped
    /// already (a `FileProblem`'s description), which escaping again would double.
    private static func displayable(_ text: String) -> String {
        DisplayText.escaped(text, keepingBackslashes: true)
    }
}
