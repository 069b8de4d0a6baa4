import Glibc

/// An exclusive advisory lock (`flock`) on a lock file, held until `unlock` or the process ends.
///
/// The lock is released when this object goes away (its descriptor is closed); the kernel drops it as well
/// when the process ends, so a crashed holder never leaves it taken. The file itself stays: removing it
/// would let a new holder lock a file a waiting process no longer finds at the path.
package final class FileLock: Sendable {
    /// Why the lock could not be taken.
    package enum Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// Another process holds it; `holder` is the process ID it wrote into the file, when readable.
        case held(holder: Int32?)
        /// The lock file is a symbolic link, not a regular file, or owned by someone else.
        case untrusted(String)
        /// A system call failed.
        case system(SystemError)

        /// "held by process 1175", the reason, or the system error: never an `Optional(…)`.
        package var description: String {
            switch self {
            case .held(let holder?): "held by process \(holder)"
            case .held(nil): "held by another process"
            case .untrusted(let reason): reason
            case .system(let error): "\(error)"
            }
        }
    }

    /// The open lock file.
    package let fd: Int32

    /// Opens (creating with mode 0600) `path` with `open(O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC)`, checks
    /// with `fstat` that it is a regular file owned by `ownerID`, takes `flock(LOCK_EX | LOCK_NB)` and writes
    /// this process's ID into it. A lock this process itself left taken is tried again for up to
    /// `ownReleaseWait` (see `lock`).
    /// - Throws: `Failure.held` when another process holds the lock, `.untrusted` for a symbolic link or
    ///   a file that is not ours, `.system` for anything else (naming `path`).
    package init(path: String, ownerID: UInt32, ownReleaseWait: Duration = FileLock.ownReleaseWait) throws(Failure) {
        let opened = retryingOnInterrupt { open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600) }
        let fd: Int32
        switch opened {
        case .success(let descriptor):
            fd = descriptor
        case .failure(let errno) where errno == .loop:
            throw .untrusted("\(path) is a symbolic link")
        case .failure(let errno):
            throw .system(SystemError(operation: "open", path: path, errno: errno))
        }
        do throws(Failure) {
            let owner: FileSystem.Ownership
            do { owner = try FileSystem.ownership(of: fd) } catch { throw .system(error) }
            guard owner.kind == .file else { throw .untrusted("\(path) is not a regular file") }
            guard owner.userID == ownerID else { throw .untrusted("\(path) is owned by uid \(owner.userID)") }
            try Self.lock(fd, path: path, waitingForOwnRelease: ownReleaseWait)
            let text = Array("\(getpid())\n".utf8)
            _ = ftruncate(fd, 0)
            _ = text.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
        } catch {
            _ = Glibc.close(fd)
            throw error
        }
        self.fd = fd
    }

    deinit {
        _ = Glibc.close(fd)
    }

    /// How long a lock that this process's own earlier holder left taken is waited for by default (see `lock`).
    package static let ownReleaseWait = Duration.seconds(2)

    /// Takes `flock(LOCK_EX | LOCK_NB)` on `fd`.
    ///
    /// A lock belongs to the open file, and goes only when its last descriptor closes. A child forked by any thread
    /// of this process holds a copy of every descriptor until it execs (close-on-exec or not), so a lock this
    /// process has just released can stay taken for that moment: the test suite's parallel children made the next
    /// pull of a test fail "held by process <its own pid>", and an app that starts processes while it pulls
    /// would meet the same. When the holder written in the file is this process, the lock is tried again for up to
    /// `wait` before it is reported held.
    private static func lock(_ fd: Int32, path: String, waitingForOwnRelease wait: Duration) throws(Failure) {
        let deadline = ContinuousClock.now + wait
        while true {
            switch retryingOnInterrupt({ flock(fd, LOCK_EX | LOCK_NB) }) {
            case .success:
                return
            case .failure(let errno) where errno == .wouldBlock:
                let holder = readHolder(fd)
                guard holder == getpid(), ContinuousClock.now < deadline else { throw .held(holder: holder) }
                usleep(2_000)
            case .failure(let errno):
                throw .system(SystemError(operation: "flock", path: path, errno: errno))
            }
        }
    }

    private static func readHolder(_ fd: Int32) -> Int32? {
        var bytes = [UInt8](repeating: 0, count: 16)
        let count = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        let text = String(decoding: bytes[..<count], as: UTF8.self)
        return Int32(text.split(separator: "\n").first ?? "")
    }
}
