import Foundation
import HotStringsProtocol
import HotStringsRelease
import StringsFormat

extension StatusAnswer.Pull {
    /// A puller's state as `status` shows it (docs/PROTOCOL.md): the URL, the interval in seconds, whether it pulls
    /// now, the last pull's end and `result` (`installed`, `unchanged`, `not-modified` or `failed`, with `error` as
    /// in `lastErrors`), `failures` in a row, the last success and the next pull. Times are RFC 3339 in UTC with
    /// milliseconds (`2026-12-03T14:05:12.345Z`).
    init(_ status: PullStatus) {
        let result: String?
        var error: FileProblem?
        switch status.lastResult {
        case nil: result = nil
        case .installed?: result = "installed"
        case .unchanged?: result = "unchanged"
        case .notModified?: result = "not-modified"
        case .failed(let failure)?:
            result = "failed"
            error = failure.problem
        }
        let interval = status.interval.components
        self.init(url: status.url, interval: Double(interval.seconds) + Double(interval.attoseconds) / 1e18,
                  isPulling: status.isPulling, lastPull: status.lastPull.map(Self.timestamp), result: result,
                  error: error, failures: status.consecutiveFailures,
                  lastSuccess: status.lastSuccess.map(Self.timestamp), nextPull: status.nextPull.map(Self.timestamp))
    }

    /// `date` as RFC 3339 in UTC with milliseconds.
    static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }
}

extension StatusAnswer.Release {
    /// `status`'s `releaseInfo` of an installed release: its sequence, signer key id and expiry (each nil when it
    /// has none).
    init(_ release: InstalledRelease) {
        self.init(sequence: release.manifest.sequence.map(Int64.init), signer: release.signer,
                  expires: release.manifest.expires)
    }
}
