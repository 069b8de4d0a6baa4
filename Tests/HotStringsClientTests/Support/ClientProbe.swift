import Foundation
import HotStringsTestSupport
import Synchronization
import Testing

/// Counts what a client reports and lets a test wait, with a deadline, for a condition on it.
final class ClientProbe: Sendable {
    private let state = Mutex<[LocalizationChangeRecord]>([])
    private let signal = DispatchSemaphore(value: 0)

    /// A change as received, for assertions.
    struct LocalizationChangeRecord: Sendable {
        var keys: [String: Set<String>]
        var language: String
    }

    /// All changes so far.
    var changes: [LocalizationChangeRecord] { state.withLock { $0 } }

    /// Records a change and wakes waiters.
    func record(keys: [String: Set<String>], language: String) {
        state.withLock { $0.append(LocalizationChangeRecord(keys: keys, language: language)) }
        signal.signal()
    }

    /// Wakes waiters so that they look at their condition again.
    func poke() {
        signal.signal()
    }

    /// Waits until `condition` holds, re-checking it after each recorded change or poke; throws at the deadline.
    func wait(_ what: String, timeout: Duration = .seconds(20), until condition: () -> Bool) throws {
        let deadline = DispatchTime.now() + .milliseconds(Int(timeout.components.seconds * 1000))
        while !condition() {
            if signal.wait(timeout: deadline) == .timedOut, !condition() {
                throw TimedOut(description: "timed out waiting for \(what)")
            }
        }
    }

    /// Waits until `condition` holds, checking it between short task sleeps; throws at the deadline.
    ///
    /// The form asynchronous tests get: the blocking one would hold a thread of the cooperative pool, which the
    /// client's own asynchronous calls in this and other tests need.
    func wait(_ what: String, timeout: Duration = .seconds(20), until condition: () -> Bool) async throws {
        try await pollUntil(what, timeout: timeout) { condition() }
    }
}
