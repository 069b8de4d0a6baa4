/// When a daemon that keeps pulling pulls next: the interval after a pull that reached the origin, exponential
/// backoff with jitter after failures.
///
/// - After a pull that worked (installed, unchanged or not modified): a random wait between 90% and 100% of the
///   interval, so machines started together drift apart but a release is never seen later than one interval.
/// - After the n-th failure in a row: a random wait between half and all of `interval × 2^n`, capped at
///   `maximumBackoff` (5 minutes, or the interval when that is longer). Each range starts where the one before
///   ends, so the waits grow until the cap; an origin in trouble is not hit by the whole fleet at once, and a
///   machine offline keeps serving its installed release and tries again at least every `maximumBackoff`.
package struct PullSchedule: Sendable, Equatable {
    /// The wait between pulls that work.
    package var interval: Duration
    /// The longest wait after failures.
    package var maximumBackoff: Duration

    /// The longest backoff when the interval is shorter: 5 minutes.
    package static let backoffCap: Duration = .seconds(300)

    /// A schedule that pulls every `interval` and backs off to at most `max(interval, 5 minutes)`.
    package init(interval: Duration) {
        self.interval = interval
        maximumBackoff = max(interval, Self.backoffCap)
    }

    /// The longest wait after `failures` failed pulls in a row (the interval after none).
    package func ceiling(afterFailures failures: Int) -> Duration {
        guard failures > 0 else { return interval }
        var ceiling = interval
        for _ in 0..<failures {
            ceiling *= 2
            if ceiling >= maximumBackoff { return maximumBackoff }
        }
        return ceiling
    }

    /// The shortest wait after `failures` failed pulls in a row.
    package func floor(afterFailures failures: Int) -> Duration {
        ceiling(afterFailures: failures) * (failures == 0 ? 0.9 : 0.5)
    }

    /// The wait after `failures` failed pulls in a row, `random` (from 0 up to 1) placing it between the floor
    /// and the ceiling.
    package func delay(afterFailures failures: Int, random: Double) -> Duration {
        let low = floor(afterFailures: failures)
        return low + (ceiling(afterFailures: failures) - low) * min(max(random, 0), 1)
    }
}
