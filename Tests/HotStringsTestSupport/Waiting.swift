import Foundation
import LinuxSystem

/// A wait that ran out of time, or a process a test needed that could not be started; the description says which.
package struct TimedOut: Error, CustomStringConvertible {
    /// What was waited for, and what was seen instead where that helps.
    package var description: String

    /// An error that reads `description`.
    package init(description: String) {
        self.description = description
    }
}

/// Calls `condition` until it is true or `timeout` has passed; returns whether it became true.
///
/// For states nothing announces (a file count in /proc, a process that exits, a daemon's status): a short pause
/// between checks, never a fixed wait for something to have happened. Blocks the calling thread.
package func waitUntil(_ timeout: Duration = .seconds(5), _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = ContinuousClock.now + timeout
    while true {
        if try condition() { return true }
        if ContinuousClock.now >= deadline { return false }
        Thread.sleep(forTimeInterval: 0.002)
    }
}

/// Calls `condition` until it is true, pausing briefly between checks.
///
/// - Throws: `TimedOut` naming `what` if `condition` is still false after `timeout`, or what `condition` throws.
package func waitUntil(_ what: String, timeout: Duration = .seconds(20), _ condition: () throws -> Bool) throws {
    guard try waitUntil(timeout, condition) else { throw TimedOut(description: "timed out waiting for \(what)") }
}

/// Calls `condition` until it is true or `timeout` has passed, sleeping as a task between checks; returns whether
/// it became true.
///
/// `waitUntil` for asynchronous tests: a test that polls by blocking its thread holds one of the cooperative pool's
/// few threads (two on a 2-core machine), and a client task the condition waits for may need that very thread to
/// make progress.
package func pollUntil(_ timeout: Duration = .seconds(5), _ condition: () async throws -> Bool) async rethrows
    -> Bool {
    let deadline = ContinuousClock.now + timeout
    while true {
        if try await condition() { return true }
        if ContinuousClock.now >= deadline { return false }
        try? await Task.sleep(for: .milliseconds(2))
    }
}

/// Calls `condition` until it is true, sleeping as a task between checks (see the form above).
///
/// - Throws: `TimedOut` naming `what` if `condition` is still false after `timeout`, or what `condition` throws.
package func pollUntil(_ what: String, timeout: Duration = .seconds(20), _ condition: () async throws -> Bool)
    async throws {
    guard try await pollUntil(timeout, condition) else { throw TimedOut(description: "timed out waiting for \(what)") }
}

/// Runs `body`, which blocks (a process start, a wait for a daemon, a blocking read), on a thread of its own and
/// returns its result, so that an asynchronous test never holds a thread of the cooperative pool while it waits.
package func offThePool<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        _ = NamedThread.run(name: "test-blocking") {
            continuation.resume(with: Result { try body() })
        }
    }
}
