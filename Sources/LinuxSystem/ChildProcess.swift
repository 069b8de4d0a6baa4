import CLinuxShims
import Glibc
import Synchronization

/// A child process started by fork and exec in C (`hotstrings_spawn`), killed by the kernel when this process
/// ends, however it ends; waited for through a pidfd, with deadlines.
///
/// The one way tests and the benchmark start programs: Foundation's `Process` crashes about one run in five of a
/// suite that starts children on this toolchain (swift-corelibs-foundation reads past a `dirent` in
/// `findMaximumOpenFromProcSelfFD`, fixed upstream in pull request 5472), and nothing in it stops a child from
/// outliving a crashed or killed parent. Every child is forked on one thread that lives as long as the process,
/// because `PR_SET_PDEATHSIG` fires when the *thread* that forked ends (see spawn.c).
///
/// A child still running when its handle is released is killed and reaped, so no zombie and no orphan is left.
package final class ChildProcess: Sendable {
    /// Where one of the child's standard descriptors comes from.
    package enum Redirection: Sendable, Hashable {
        /// /dev/null.
        case null
        /// A new pipe; its other end is `standardInput`, `standardOutput` or `standardError`.
        case pipe
        /// The file at the path, created if needed (mode 0644); written in append mode, read from the start.
        case file(String)
        /// This process's own descriptor of the same number.
        case inherit
        /// For standard error only: wherever standard output goes (one pipe for both, in order).
        case standardOutput
    }

    /// How a child ended.
    package enum Termination: Sendable, Hashable, CustomStringConvertible {
        /// It exited with this code.
        case exited(Int32)
        /// A signal ended it.
        case signalled(Int32)

        /// The exit code, or the signal's number, as Foundation's `terminationStatus` reports them.
        package var status: Int32 {
            switch self {
            case .exited(let code): code
            case .signalled(let number): number
            }
        }

        /// "exit code N" or "signal N".
        package var description: String {
            switch self {
            case .exited(let code): "exit code \(code)"
            case .signalled(let number): "signal \(number)"
            }
        }
    }

    /// What to start.
    package struct Configuration: Sendable {
        /// The program's path (no PATH search).
        package var executable: String
        /// The arguments after the program's name.
        package var arguments: [String]
        /// The whole environment, or nil for this process's.
        package var environment: [String: String]?
        /// The working directory, or nil for this process's.
        package var directory: String?
        /// The user and group to run as (supplementary groups dropped), or nil for this process's; needs root.
        package var user: (userID: UInt32, groupID: UInt32)?
        /// Standard input: /dev/null unless said otherwise. A pipe makes this process ignore SIGPIPE (see `init`).
        package var standardInput: Redirection = .null
        /// Standard output: a pipe unless said otherwise.
        package var standardOutput: Redirection = .pipe
        /// Standard error: a pipe unless said otherwise.
        package var standardError: Redirection = .pipe

        /// Starts `executable` with `arguments`, this process's environment and directory.
        package init(_ executable: String, _ arguments: [String] = []) {
            self.executable = executable
            self.arguments = arguments
        }
    }

    /// The child's process ID.
    package let pid: Int32
    /// The pipe's end to write the child's standard input to, when it is `.pipe`; the caller closes it.
    package let standardInput: Int32?
    /// The pipe's end to read the child's standard output from, when it is `.pipe`; the caller closes it.
    package let standardOutput: Int32?
    /// The pipe's end to read the child's standard error from, when it is `.pipe`; the caller closes it.
    package let standardError: Int32?
    private let pidfd: Int32
    /// How the child ended, once it has been reaped; reaping happens under this lock, so it happens once.
    private let ending = Mutex<Termination?>(nil)

    /// Starts the child.
    /// - Throws: `SystemError` naming the call that failed, in this process (`pipe`, `open`, `fork`) or in the
    ///   child before its program ran (`chdir`, `setuid`, `execve` with the path).
    package init(_ configuration: Configuration) throws(SystemError) {
        var parentEnds: [Int32] = []  // closed here once the child has its copies
        var ownEnds: [Int32?] = [nil, nil, nil]
        var childDescriptors: [Int32] = [0, 1, 2]
        func closeAll() {
            for fd in parentEnds { Descriptor.close(fd) }
            for case let fd? in ownEnds { Descriptor.close(fd) }
        }
        let redirections = [configuration.standardInput, configuration.standardOutput, configuration.standardError]
        // A child that exits before reading its input would make the next write to the pipe raise SIGPIPE, whose
        // default ends this whole process: ignored, the write fails with EPIPE instead. (Children get every
        // disposition back to its default before exec.)
        if case .pipe = configuration.standardInput { Signals.ignore(.pipe) }
        do throws(SystemError) {
            for (index, redirection) in redirections.enumerated() {
                switch redirection {
                case .inherit:
                    childDescriptors[index] = Int32(index)
                case .standardOutput:
                    precondition(index == 2, "only standard error can go where standard output goes")
                    childDescriptors[index] = childDescriptors[1]
                case .null:
                    childDescriptors[index] = try Self.open("/dev/null", forWriting: index != 0)
                    parentEnds.append(childDescriptors[index])
                case .file(let path):
                    childDescriptors[index] = try Self.open(path, forWriting: index != 0)
                    parentEnds.append(childDescriptors[index])
                case .pipe:
                    let ends = try Descriptor.makePipe()
                    childDescriptors[index] = index == 0 ? ends.reading : ends.writing
                    ownEnds[index] = index == 0 ? ends.writing : ends.reading
                    parentEnds.append(childDescriptors[index])
                }
            }
            (pid, pidfd) = try Self.spawn(configuration, descriptors: childDescriptors)
        } catch {
            closeAll()
            throw error
        }
        for fd in parentEnds { Descriptor.close(fd) }
        standardInput = ownEnds[0]
        standardOutput = ownEnds[1]
        standardError = ownEnds[2]
    }

    deinit {
        if ending.withLock({ $0 }) == nil {
            _ = hotstrings_pidfd_send_signal(pidfd, SIGKILL)
            _ = reap(blocking: true)
        }
        Descriptor.close(pidfd)
    }

    /// How the child ended, or nil while it runs. Reaps it when it has ended.
    package var termination: Termination? {
        reap(blocking: false)
    }

    /// Whether the child has not ended yet.
    package var isRunning: Bool { termination == nil }

    /// Waits until the child ends or `timeout` passes (nil: no limit); how it ended, or nil if it still runs.
    ///
    /// Blocks the calling thread (in `ppoll` on the pidfd); call it from a thread of its own, not from a task on
    /// the cooperative pool while other tasks must progress.
    package func waitForExit(timeout: Duration? = nil) -> Termination? {
        let deadline = timeout.map { ContinuousClock.now + $0 }
        while true {
            if let ended = reap(blocking: false) { return ended }
            var remaining: Duration?
            if let deadline {
                remaining = deadline - ContinuousClock.now
                if remaining! <= .zero { return nil }
            }
            var poll = pollfd(fd: pidfd, events: Int16(POLLIN), revents: 0)
            let (seconds, attoseconds) = remaining?.components ?? (-1, 0)
            _ = hotstrings_ppoll(&poll, 1, seconds, attoseconds / 1_000_000_000)
        }
    }

    /// Sends `signal` (a number such as `SIGSTOP`) through the pidfd, so a reaped child's recycled pid is never
    /// signalled.
    /// - Throws: `SystemError` from `pidfd_send_signal`; `.noSuchProcess` once the child has been reaped.
    package func send(signal: Int32) throws(SystemError) {
        _ = try retryingOnInterrupt { hotstrings_pidfd_send_signal(pidfd, signal) }.get("pidfd_send_signal")
    }

    /// Sends `signal`; see `send(signal:)`.
    package func send(_ signal: Signal) throws(SystemError) {
        try send(signal: signal.rawValue)
    }

    /// Reaps the child if it has ended (or, `blocking`, once it ends) and returns how it ended.
    private func reap(blocking: Bool) -> Termination? {
        ending.withLock { ending in
            if let ending { return ending }
            var status: Int32 = 0
            let result = retryingOnInterrupt { waitpid(pid, &status, blocking ? 0 : WNOHANG) }
            guard case .success(let reaped) = result, reaped == pid else { return nil }
            // WIFEXITED and friends are macros the importer does not bring over.
            let signal = status & 0x7f
            ending = signal == 0 ? .exited((status >> 8) & 0xff) : .signalled(signal)
            return ending
        }
    }

    private static func open(_ path: String, forWriting: Bool) throws(SystemError) -> Int32 {
        let flags = forWriting ? O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC : O_RDONLY | O_CLOEXEC
        return try retryingOnInterrupt { Glibc.open(path, flags, 0o644) }.get("open", path: path)
    }

    private static func spawn(_ configuration: Configuration, descriptors: [Int32])
        throws(SystemError) -> (pid: Int32, pidfd: Int32) {
        let environment = configuration.environment.map { $0.map { "\($0.key)=\($0.value)" } }
        let result: Result<(Int32, Int32), SystemError> = withCStrings(
            [configuration.executable] + configuration.arguments
        ) { arguments in
            withOptionalCStrings(environment) { environment in
                var request = hotstrings_spawn_request()
                request.arguments = arguments
                request.environment = environment ?? UnsafePointer(Glibc.environ)
                request.standard_descriptors = (descriptors[0], descriptors[1], descriptors[2])
                if let user = configuration.user {
                    request.change_user = 1
                    request.user_id = user.userID
                    request.group_id = user.groupID
                }
                var (pid, pidfd): (Int32, Int32) = (-1, -1)
                let (code, errno) = configuration.executable.withCString { path in
                    request.path = path
                    return withOptionalCString(configuration.directory) { directory in
                        request.directory = directory
                        // errno read at once, before anything else can change it.
                        return (hotstrings_spawn(&request, &pid, &pidfd), Errno.current)
                    }
                }
                guard code == 0 else {
                    let step = request.failed_step.map { String(cString: $0) } ?? "spawn"
                    let path = ["execve", "chdir"].contains(step)
                        ? (step == "chdir" ? configuration.directory : configuration.executable) : nil
                    return .failure(SystemError(operation: step, path: path, errno: errno))
                }
                return .success((pid, pidfd))
            }
        }
        return try result.get()
    }
}

/// Calls `body` with a NULL-terminated array of C strings that lives as long as the call.
private func withCStrings<Result>(_ strings: [String],
                                  _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> Result) -> Result {
    let pointers = strings.map { strdup($0) } + [nil]
    defer { for pointer in pointers { free(pointer) } }
    return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
}

private func withOptionalCStrings<Result>(
    _ strings: [String]?, _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>?) -> Result
) -> Result {
    guard let strings else { return body(nil) }
    return withCStrings(strings) { body($0) }
}

private func withOptionalCString<Result>(_ string: String?, _ body: (UnsafePointer<CChar>?) -> Result) -> Result {
    guard let string else { return body(nil) }
    return string.withCString { body($0) }
}
