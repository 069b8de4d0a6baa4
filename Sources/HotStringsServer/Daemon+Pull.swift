import Foundation
import HotStringsRelease
import HotStringsService
import StringsFormat

extension Daemon {
    /// Readies the bundle for `serve --pull` before the watcher starts: creates it when missing, refuses one
    /// holding language folders of its own, and removes what a killed pull left (as the next pull would).
    /// - Throws: `ServerStartError` for a bundle releases cannot be installed into.
    static func preparePulledBundle(_ bundle: String) throws(ServerStartError) {
        do throws(ReleaseError) {
            if let passing = try ReleaseStore(bundle: bundle).prepareForPulling() {
                Log.warning("pull: cannot prepare \(bundle) yet: \(passing)")
            }
        } catch {
            throw ServerStartError(description: "cannot pull into \(bundle): \(error)")
        }
    }

    /// A pull loop for `configuration.pull` whose failures reach the core as `error` events (the first of a run
    /// of identical failures; the others are logged at debug level) and whose installs are logged.
    static func pullLoop(_ configuration: ServerConfiguration,
                         toCore: @escaping @Sendable (CoreInput) -> Void) -> PullLoop? {
        guard let (options, schedule) = configuration.pull else { return nil }
        let puller = Puller(bundle: configuration.bundle, options: options)
        return PullLoop(puller: puller, schedule: schedule) { report in
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
            case .failure(let error):
                let failures = report.status.consecutiveFailures
                if report.isRepeatedFailure {
                    Log.debug("pull: failed again (\(failures) in a row): \(error); next in \(next)")
                } else {
                    toCore(.problems([error.problem]))
                    Log.info("pull: \(failures) failed in a row; the installed release stays; next in \(next)")
                }
            }
        }
    }
}
