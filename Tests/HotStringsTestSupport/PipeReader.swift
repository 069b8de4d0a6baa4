import Dispatch
import Foundation
import Synchronization

/// Text a process writes to a pipe, read on a thread of its own as it arrives; waits on it have deadlines.
///
/// Reading as the text arrives keeps a chatty child from blocking on a full pipe, and the blocking reads stay
/// off the cooperative pool.
package final class PipeReader: Sendable {
    private let state = Mutex<(text: String, isFinished: Bool)>(("", false))
    private let arrived = DispatchSemaphore(value: 0)

    /// Starts reading `handle` until end of file.
    package init(_ handle: FileHandle) {
        Thread { [self] in
            while true {
                let data = handle.availableData
                state.withLock { state in
                    state.text += String(decoding: data, as: UTF8.self)
                    state.isFinished = data.isEmpty
                }
                arrived.signal()
                if data.isEmpty { return }
            }
        }.start()
    }

    /// Everything read so far.
    package var text: String { state.withLock { $0.text } }

    /// Whether the writer closed the pipe.
    package var isFinished: Bool { state.withLock { $0.isFinished } }

    /// Waits until `condition` holds for the text read so far, re-checking it whenever more text arrives.
    ///
    /// - Throws: `TimedOut` naming `what`, with the text so far, after `timeout`; at once if the pipe is closed
    ///   and `condition` still does not hold.
    package func wait(for what: String, timeout: Duration = .seconds(10), _ condition: (String) -> Bool) throws {
        let (seconds, attoseconds) = timeout.components
        let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
        let deadline = DispatchTime.now() + .nanoseconds(nanoseconds)
        while true {
            let (text, isFinished) = state.withLock { ($0.text, $0.isFinished) }
            if condition(text) { return }
            // A finished pipe gets no more text: report at once instead of waiting out the deadline.
            if isFinished || arrived.wait(timeout: deadline) == .timedOut {
                throw TimedOut(description: "timed out waiting for \(what); output so far:\n\(text)")
            }
        }
    }

    /// Waits until the text read so far contains `needle`.
    ///
    /// - Throws: `TimedOut`, with the text so far, after `timeout` or once the pipe is closed without it.
    package func wait(untilContains needle: String, timeout: Duration = .seconds(10)) throws {
        try wait(for: "'\(needle)'", timeout: timeout) { $0.contains(needle) }
    }
}
