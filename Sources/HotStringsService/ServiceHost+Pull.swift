import HotStringsRelease
import StringsFormat

extension ServiceHost {
    /// Readies the bundle for pulling before the watcher starts: creates it when missing, refuses one holding
    /// language folders of its own, and removes what a killed pull left (as the next pull would).
    /// - Returns: a failure that may pass (another pull holds the lock), which the first pull meets again.
    /// - Throws: `StartError` for a bundle releases cannot be installed into.
    static func prepareForPulling(_ options: ServiceOptions) throws(StartError) -> ReleaseError? {
        do throws(ReleaseError) {
            return try ReleaseStore(bundle: options.bundle).prepareForPulling()
        } catch {
            throw StartError(stage: .pull, description: "cannot pull into \(options.bundle): \(error)")
        }
    }

    /// A loop pulling into `bundle` whose failures reach the core as `error` events through `report` (the first
    /// of a run of identical failures only), every report then going to `hooks.onPullReport`.
    static func pullLoop(bundle: String, _ pull: (options: PullOptions, schedule: PullSchedule), hooks: Hooks,
                         report: @escaping @Sendable ([FileProblem]) -> Void) -> PullLoop {
        let puller = Puller(bundle: bundle, options: pull.options)
        return PullLoop(puller: puller, schedule: pull.schedule) { pullReport in
            if case .failure(let error) = pullReport.result, !pullReport.isRepeatedFailure {
                report([error.problem])
            }
            hooks.onPullReport?(pullReport)
        }
    }
}
