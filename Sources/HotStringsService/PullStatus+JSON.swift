import Foundation
import HotStringsProtocol
import HotStringsRelease
import StringsFormat

extension PullStatus {
    /// The `pull` member of a `status` answer (docs/PROTOCOL.md): the URL, the interval in seconds, `state`
    /// (`pulling` or `waiting`), the last pull's end and `result` (`installed`, `unchanged`, `not-modified` or
    /// `failed`, with `error` as in `lastErrors`), `failures` in a row, the last success and the next pull.
    /// Times are RFC 3339 in UTC with milliseconds (`2026-12-03T14:05:12.345Z`).
    package var json: JSONValue {
        let result: String?
        var error: JSONValue = .null
        switch lastResult {
        case nil: result = nil
        case .installed?: result = "installed"
        case .unchanged?: result = "unchanged"
        case .notModified?: result = "not-modified"
        case .failed(let failure)?:
            result = "failed"
            error = RecentProblems.json(failure.problem)
        }
        let components = interval.components
        return .object([
            ("url", .string(url)),
            ("interval", .double(Double(components.seconds) + Double(components.attoseconds) / 1e18)),
            ("state", .string(isPulling ? "pulling" : "waiting")),
            ("lastPull", .string(orNull: lastPull.map(Self.timestamp))),
            ("result", .string(orNull: result)),
            ("error", error),
            ("failures", .integer(consecutiveFailures)),
            ("lastSuccess", .string(orNull: lastSuccess.map(Self.timestamp))),
            ("nextPull", .string(orNull: nextPull.map(Self.timestamp))),
        ])
    }

    /// `date` as RFC 3339 in UTC with milliseconds.
    static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }
}
