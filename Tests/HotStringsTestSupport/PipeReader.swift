import Dispatch
import Foundation
import LinuxSystem
import Synchronization

/// Text a process writes to a pipe, read on a thread of its own as it arrives; waits on it have deadlines.
///
/// Reading as the text arrives keeps a chatty child from blocking on a full pipe, and the blocking reads stay
/// off the cooperative pool.
package final class PipeReader: Sendable {
    /// The bytes so far, decoded when asked for, so that a character split between two reads stays whole.
    private let state = Mutex<(bytes: [UInt8], isFinished: Bool)>(([], false))
    private let arrived = DispatchSemaphore(value: 0)

    /// Starts reading the descriptor `fd` (a child's pipe) until end of file, then closes it: the reader owns it.
    package init(_ fd: Int32) {
        _ = NamedThread.run(name: "pipe-reader") { [self] in
            while true {
                // A read error ends the text as end of file does: nothing more will come.
                let bytes = (try? Descriptor.read(from: fd, maximumCount: 1 << 16)) ?? []
                state.withLock { state in
                    state.bytes += bytes
                    state.isFinished = bytes.isEmpty
                }
                arrived.signal()
                if bytes.isEmpty { break }
            }
            Descriptor.close(fd)
        }
    }

    /// Everything read so far.
    package var text: String { String(decoding: state.withLock { $0.bytes }, as: UTF8.self) }

    /// Whether the writer closed the pipe.
    package var isFinished: Bool { state.withLock { $0.isFinished } }

    /// Waits until `condition` holds for the text read so far, re-checking it whenever more text arrives.
    ///
    /// - Throws: `TimedOut` naming `what`, with the text so far, after `timeout`; at once if the pipe is closed
    ///   and `condition` still does not hold.
    package func wait(for what: String, timeout: Duration = .seconds(20), _ condition: (String) -> Bool) throws {
        let (seconds, attoseconds) = timeout.components
        let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
        let deadline = DispatchTime.now() + .nanoseconds(nanoseconds)
        while true {
            let (bytes, isFinished) = state.withLock { ($0.bytes, $0.isFinished) }
            let text = String(decoding: bytes, as: UTF8.self)
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
    package func wait(untilContains needle: String, timeout: Duration = .seconds(20)) throws {
        try wait(for: "'\(needle)'", timeout: timeout) { $0.contains(needle) }
    }
}
