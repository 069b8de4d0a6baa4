import Foundation
import LinuxSystem
import Synchronization

/// A real `flock(1)` process holding a folder's lock until `release()`, as any process that can read the bundle can
/// (`flock de.lproj sleep 8`): what an edit waits for with a deadline, on a worker, never on the daemon's core.
///
/// `flock FOLDER sh -c 'echo locked; exec cat'`: the lock is held once `locked` is printed, and until `cat` sees its
/// input end, which `release()` (or deinit) closes.
package final class HeldFolderLock: Sendable {
    /// `flock(1)` from util-linux, or nil when it is not installed.
    package static let executable = ["/usr/bin/flock", "/bin/flock"].first(where: FileManager.default.isExecutableFile)

    private let process: ChildProcess
    /// The write end of `cat`'s input, until it is closed.
    private let input: Mutex<Int32?>

    /// Starts `flock` on `folder` and returns once it holds the lock.
    /// - Throws: `TimedOut` when `flock` is not installed or has not taken the lock within 20 seconds.
    package init(_ folder: String) throws {
        guard let executable = Self.executable else { throw TimedOut(description: "flock is not installed") }
        var configuration = ChildProcess.Configuration(executable, [folder, "sh", "-c", "echo locked; exec cat"])
        configuration.standardInput = .pipe
        configuration.standardError = .null
        process = try ChildProcess(configuration)
        input = Mutex(process.standardInput)
        try PipeReader(process.standardOutput!).wait(untilContains: "locked")
    }

    deinit {
        if let fd = input.withLock({ $0.take() }) { Descriptor.close(fd) }
        _ = process.waitForExit(timeout: .seconds(5))
    }

    /// Lets the lock go: closes `cat`'s input, so it and `flock` end; returns once `flock` has exited.
    /// - Throws: `TimedOut` when it has not exited within 20 seconds.
    package func release() throws {
        if let fd = input.withLock({ $0.take() }) { Descriptor.close(fd) }
        guard process.waitForExit(timeout: .seconds(20)) != nil else {
            throw TimedOut(description: "flock did not exit after its command's input was closed")
        }
    }
}

/// How many of the process `pid`'s open descriptors lead to `path` (`/proc/<pid>/fd`): a folder opened to wait
/// for its lock shows there.
package func descriptorCount(of pid: Int32, openOn path: String) -> Int {
    let directory = "/proc/\(pid)/fd"
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    return entries.filter { (try? FileSystem.linkTarget(atPath: directory + "/" + $0)) == path }.count
}
