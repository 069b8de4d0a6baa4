import Dispatch
import Foundation
import LinuxSystem
import Synchronization

/// Where a puller that keeps pulling stands: what `status` shows.
package struct PullStatus: Sendable, Equatable {
    /// How one pull ended.
    package enum Result: Sendable, Equatable {
        /// A release was installed (or a kept one made current again).
        case installed(release: String, previous: String?)
        /// The manifest was fetched and names the installed release.
        case unchanged
        /// The origin answered 304.
        case notModified
        /// Nothing was installed, for this reason; the installed release stays current.
        case failed(ReleaseError)
    }

    /// The manifest's URL, credentials redacted (`RedactedURL`).
    package var url: String
    /// The wait between pulls that work.
    package var interval: Duration
    /// Whether a pull is running now.
    package var isPulling = false
    /// When the last pull ended; nil before the first.
    package var lastPull: Date?
    /// How the last pull ended; nil before the first.
    package var lastResult: Result?
    /// When a pull last reached the origin and ended well; nil before one did.
    package var lastSuccess: Date?
    /// Failed pulls since the last one that worked.
    package var consecutiveFailures = 0
    /// When the next pull starts; nil while one runs and after the loop stopped.
    package var nextPull: Date?

    /// The status of a loop that has not pulled yet.
    package init(url: String, interval: Duration) {
        self.url = url
        self.interval = interval
    }
}

/// What one pull of a `PullLoop` did, handed to its owner as the pull ends.
package struct PullReport: Sendable {
    /// The outcome, or why nothing was installed.
    package var result: Result<PullOutcome, ReleaseError>
    /// The loop's status after the pull (the next pull's time set).
    package var status: PullStatus
    /// Whether this is a failure with the same reason as the pull before: owners report a failure once, not once
    /// per retry, and then keep quiet until it changes or the origin recovers.
    package var isRepeatedFailure: Bool
    /// Failed pulls in a row before this one: a success with some is a recovery.
    package var failuresBefore: Int
}

/// A puller that keeps pulling, on a thread of its own (`hotstrings-pull`), on a `PullSchedule`: the daemon's
/// `serve --pull` and embedded mode's pull.
///
/// The pull blocks that thread while URLSession works (its callbacks come on its own queue), so neither the
/// cooperative pool nor the core thread ever waits for the network. `stop()` cancels a request in flight (a pull
/// whose fetch is cancelled installs nothing; one already installing finishes its install, which is crash-safe in
/// any case), wakes the wait between pulls, and joins the thread.
package final class PullLoop: Sendable {
    private struct State {
        var status: PullStatus
        var isStopped = false
    }

    /// The puller each round runs.
    package let puller: Puller
    /// When pulls happen.
    package let schedule: PullSchedule
    private let state: Mutex<State>
    private let wake = DispatchSemaphore(value: 0)
    private let thread = Mutex<NamedThread?>(nil)
    private let ended = Atomic<Bool>(true)
    private let onReport: @Sendable (PullReport) -> Void
    /// One fetcher for every pull: one URLSession, connections reused.
    private let fetcher: HTTPFetcher

    /// A loop running `puller` on `schedule`, calling `onReport` on its thread after every pull (the first starts
    /// as soon as `start()` is called).
    package init(puller: Puller, schedule: PullSchedule, onReport: @escaping @Sendable (PullReport) -> Void) {
        self.puller = puller
        self.schedule = schedule
        self.onReport = onReport
        fetcher = HTTPFetcher(limits: puller.options.limits)
        state = Mutex(State(status: PullStatus(url: RedactedURL.text(puller.options.manifestURL),
                                               interval: schedule.interval)))
    }

    /// Where the loop stands.
    package var status: PullStatus { state.withLock { $0.status } }

    /// Starts pulling on the loop's thread.
    /// - Precondition: the loop was not started before.
    package func start() {
        thread.withLock { current in
            precondition(current == nil && !state.withLock({ $0.isStopped }), "a PullLoop starts once")
            ended.store(false, ordering: .releasing)
            current = NamedThread.run(name: "hotstrings-pull") { [self] in run() }
        }
    }

    /// Stops the loop: cancels the request in flight and wakes the wait between pulls; with `waiting`, returns
    /// once the loop's thread has ended (an install that had begun is complete then). Idempotent.
    ///
    /// - Precondition: not called with `waiting` from `onReport` (the loop's own thread).
    package func stop(waiting: Bool = true) {
        state.withLock { state in
            state.isStopped = true
            state.status.nextPull = nil
        }
        fetcher.cancel()
        wake.signal()
        let running = thread.withLock { $0.take() }
        if waiting { running?.join() }
    }

    /// Whether the loop's thread has ended (after `stop`), or never started.
    package var hasEnded: Bool { thread.withLock { $0 == nil } && ended.load(ordering: .acquiring) }

    private func run() {
        defer { ended.store(true, ordering: .releasing) }
        while true {
            let isStopped = state.withLock { state -> Bool in
                guard !state.isStopped else { return true }
                state.status.isPulling = true
                state.status.nextPull = nil
                return false
            }
            if isStopped { return }
            let result: Result<PullOutcome, ReleaseError>
            do {
                result = .success(try puller.pull(using: fetcher))
            } catch {
                result = .failure(error)
            }
            guard let (report, delay) = finish(result) else { return }
            onReport(report)
            _ = wake.wait(timeout: .now() + Self.seconds(delay))
        }
    }

    /// Records how a pull ended and schedules the next; nil when the loop was stopped meanwhile (a cancelled
    /// pull is not reported).
    private func finish(_ result: Result<PullOutcome, ReleaseError>) -> (PullReport, Duration)? {
        let now = Date()
        return state.withLock { state -> (PullReport, Duration)? in
            state.status.isPulling = false
            state.status.lastPull = now
            guard !state.isStopped else { return nil }
            var isRepeatedFailure = false
            let failuresBefore = state.status.consecutiveFailures
            switch result {
            case .success(let outcome):
                state.status.consecutiveFailures = 0
                state.status.lastSuccess = now
                switch outcome.kind {
                case .notModified: state.status.lastResult = .notModified
                case .unchanged: state.status.lastResult = .unchanged
                case .installed(let previous):
                    state.status.lastResult = .installed(release: outcome.release, previous: previous)
                }
            case .failure(let error):
                isRepeatedFailure = state.status.lastResult == .failed(error)
                state.status.consecutiveFailures += 1
                state.status.lastResult = .failed(error)
            }
            let delay = schedule.delay(afterFailures: state.status.consecutiveFailures,
                                       random: Double.random(in: 0..<1))
            state.status.nextPull = now.addingTimeInterval(Self.seconds(delay))
            let report = PullReport(result: result, status: state.status, isRepeatedFailure: isRepeatedFailure,
                                    failuresBefore: failuresBefore)
            return (report, delay)
        }
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
