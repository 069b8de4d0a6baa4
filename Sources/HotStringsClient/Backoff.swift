/// How long to wait before reconnecting: exponential from `initial` to `maximum`, with jitter so that the
/// clients of a restarted daemon do not all come back in the same millisecond.
struct Backoff: Sendable, Hashable {
    /// The wait after the first failure.
    var initial: Duration
    /// The longest wait.
    var maximum: Duration
    /// The share of a wait that is randomly taken off it (0.25: a wait of 1 s lasts 0.75 to 1 s).
    var jitter: Double = 0.25

    /// The wait after `failures` failed attempts in a row (0 for the first retry): `initial × 2^failures`,
    /// capped at `maximum`, less `jitter × random` of it; `random` is in 0..<1.
    func delay(afterFailures failures: Int, random: Double) -> Duration {
        var delay = max(initial, .zero)
        for _ in 0..<max(failures, 0) {
            if delay >= maximum { break }
            delay = delay * 2
        }
        delay = min(delay, maximum)
        return delay * (1 - jitter * min(max(random, 0), 1))
    }
}
