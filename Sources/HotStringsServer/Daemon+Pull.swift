import Foundation
import HotStringsLog
import HotStringsRelease
import HotStringsService
import StringsFormat

extension Daemon {
    /// Logs a pull's report to `log`: installs at info level (a release expiring within a day as a warning), the
    /// first of a run of failures as a warning, what repeats at debug level. A failure's line names the failure
    /// before the next pull's time, in one line: the `error` event the host sends for it is not logged again (see
    /// `log(_:to:)` of `StoreEvent`), so no line announcing a retry comes before the failure it follows.
    static func log(_ report: PullReport, to log: LogSink) {
        let next = report.status.nextPull.map { String(format: "%.1f s", $0.timeIntervalSinceNow) } ?? "?"
        switch report.result {
        case .success(let outcome):
            if report.failuresBefore > 0 {
                let pulls = report.failuresBefore == 1 ? "1 failed pull" : "\(report.failuresBefore) failed pulls"
                log.info("pull: the origin works again after \(pulls)")
            }
            let traffic = "\(outcome.requests) requests, \(outcome.bytesFetched) bytes"
            switch outcome.kind {
            case .installed(let previous):
                log.info("pull: installed \(outcome.release) (was \(previous ?? "none"); \(traffic))")
            case .unchanged:
                log.debug("pull: unchanged, \(outcome.release) is current (\(traffic)); next pull in \(next)")
            case .notModified:
                log.debug("pull: not modified, \(outcome.release) is current (\(traffic)); next pull in \(next)")
            }
            // Not for every 304: the warning comes with each manifest fetched (an install, an expiry extended).
            if outcome.kind != .notModified, let warning = outcome.expiryWarning { log.warning("pull: \(warning)") }
        case .failure(let error):
            let failures = report.status.consecutiveFailures
            // The event's words ("release not installed: …"), so the log reads as what subscribers were sent.
            let failed = ReleaseError.problemPrefix + "\(error)"
            if report.isRepeatedFailure {
                log.debug("pull: \(failed) (\(failures) failures in a row); next pull in \(next)")
            } else {
                log.warning("pull: \(failed); the installed release stays; next pull in \(next)")
            }
        }
    }

    /// Whether `problem` is a failed pull's, which `log(_:)` of its `PullReport` has logged already.
    static func isPullProblem(_ problem: FileProblem) -> Bool {
        problem.message.hasPrefix(ReleaseError.problemPrefix)
    }
}
