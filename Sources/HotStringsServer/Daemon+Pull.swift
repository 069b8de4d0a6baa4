import Foundation
import HotStringsRelease
import HotStringsService

extension Daemon {
    /// Logs a pull's report: installs at info level (a release expiring within a day as a warning), a new run of failures at info level (the host has sent it
    /// to subscribers as an `error` event), what repeats at debug level.
    static func log(_ report: PullReport) {
        let next = report.status.nextPull.map { String(format: "%.1f s", $0.timeIntervalSinceNow) } ?? "?"
        switch report.result {
        case .success(let outcome):
            if report.failuresBefore > 0 {
                Log.info("pull: the origin works again after \(report.failuresBefore) failed pulls")
            }
            let traffic = "\(outcome.requests) requests, \(outcome.bytesFetched) bytes"
            switch outcome.kind {
            case .installed(let previous):
                Log.info("pull: installed \(outcome.release) (was \(previous ?? "none"); \(traffic))")
            case .unchanged:
                Log.debug("pull: unchanged, \(outcome.release) is current (\(traffic)); next in \(next)")
            case .notModified:
                Log.debug("pull: not modified, \(outcome.release) is current (\(traffic)); next in \(next)")
            }
            // Not for every 304: the warning comes with each manifest fetched (an install, an expiry extended).
            if outcome.kind != .notModified, let warning = outcome.expiryWarning { Log.warning("pull: \(warning)") }
        case .failure(let error):
            let failures = report.status.consecutiveFailures
            if report.isRepeatedFailure {
                Log.debug("pull: failed again (\(failures) in a row): \(error); next in \(next)")
            } else {
                Log.info("pull: \(failures) failed in a row; the installed release stays; next in \(next)")
            }
        }
    }
}
