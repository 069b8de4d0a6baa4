import LinuxSystem
import StringsFormat
import Synchronization

/// The daemon's log: one line per event worth knowing, on standard error, filtered by level.
///
/// Every message is made one line that a terminal only displays (`DisplayText`): a name from the bundle or the
/// command line holding a newline or an escape sequence cannot forge a second line or drive the terminal.
package enum Log {
    /// How much to log.
    package enum Level: Int, Sendable, Comparable, CaseIterable {
        case debug, info, warning, error

        package static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }

        /// Parses `debug`, `info`, `warning` or `error`.
        package init?(name: String) {
            guard let level = Level.allCases.first(where: { "\($0)" == name }) else { return nil }
            self = level
        }
    }

    private static let threshold = Atomic<Int>(Level.info.rawValue)

    /// Sets the lowest level written.
    package static func setLevel(_ level: Level) { threshold.store(level.rawValue, ordering: .relaxed) }

    package static func debug(_ message: @autoclosure () -> String) { write(.debug, message) }
    package static func info(_ message: @autoclosure () -> String) { write(.info, message) }
    package static func warning(_ message: @autoclosure () -> String) { write(.warning, message) }
    package static func error(_ message: @autoclosure () -> String) { write(.error, message) }

    private static func write(_ level: Level, _ message: () -> String) {
        guard level.rawValue >= threshold.load(ordering: .relaxed) else { return }
        let line = "hotstrings: \(level): \(DisplayText.escaped(message(), keepingBackslashes: true))\n"
        _ = try? Descriptor.write(Array(line.utf8), to: 2)
    }
}
