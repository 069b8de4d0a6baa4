import Glibc

/// A POSIX signal this program handles (Linux numbers).
package enum Signal: Int32, Sendable, Hashable, CaseIterable {
    /// `SIGHUP`: the terminal went away, or a request to reload.
    case hangup = 1
    /// `SIGINT`: Control-C.
    case interrupt = 2
    /// `SIGQUIT`: Control-backslash.
    case quit = 3
    /// `SIGKILL`: cannot be caught; only ever sent (tests use it to crash a process at a chosen step).
    case kill = 9
    /// `SIGUSR1`: free for the program's own use.
    case user1 = 10
    /// `SIGUSR2`: free for the program's own use.
    case user2 = 12
    /// `SIGPIPE`: a write to a closed pipe or socket.
    case pipe = 13
    /// `SIGTERM`: a polite request to stop.
    case terminate = 15
}

/// Process-wide signal dispositions and a synchronous way to receive signals.
///
/// The pattern: at start-up, `ignore(.pipe)` and `block([.interrupt, .terminate])` on the main thread before
/// any other thread exists (threads inherit the mask), then call `waitForAny(of:)` on a dedicated thread.
package enum Signals {
    /// Sets the disposition of `signal` to ignore with `signal(SIG_IGN)`; for `.pipe`, writes to a closed
    /// socket then fail with `.brokenPipe` instead of killing the process.
    package static func ignore(_ signal: Signal) {
        _ = Glibc.signal(signal.rawValue, SIG_IGN)
    }

    /// Blocks `signals` for the calling thread with `pthread_sigmask(SIG_BLOCK)`, so they stay pending for
    /// `waitForAny(of:)` instead of running their default action.
    package static func block(_ signals: [Signal]) {
        var set = signalSet(signals)
        let result = pthread_sigmask(SIG_BLOCK, &set, nil)
        precondition(result == 0, "pthread_sigmask failed: \(Errno(rawValue: result))")
    }

    /// Blocks the calling thread in `sigwait` until one of `signals` (which must be blocked) is pending.
    package static func waitForAny(of signals: [Signal]) -> Signal {
        var set = signalSet(signals)
        while true {
            var number: Int32 = 0
            let result = sigwait(&set, &number)
            precondition(result == 0 || result == EINTR, "sigwait failed: \(Errno(rawValue: result))")
            if result == 0, let signal = Signal(rawValue: number) {
                return signal
            }
        }
    }

    /// Sends `signal` to the process `pid` with `kill`.
    /// - Throws: `SystemError` from `kill`; `.noSuchProcess` when there is no such process.
    package static func send(_ signal: Signal, toProcess pid: Int32) throws(SystemError) {
        _ = try retryingOnInterrupt { kill(pid, signal.rawValue) }.get("kill")
    }

    private static func signalSet(_ signals: [Signal]) -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in signals {
            sigaddset(&set, signal.rawValue)
        }
        return set
    }
}
