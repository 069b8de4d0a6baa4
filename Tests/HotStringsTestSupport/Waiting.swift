import Foundation

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
package func waitUntil(_ what: String, timeout: Duration = .seconds(10), _ condition: () throws -> Bool) throws {
    guard try waitUntil(timeout, condition) else { throw TimedOut(description: "timed out waiting for \(what)") }
}
