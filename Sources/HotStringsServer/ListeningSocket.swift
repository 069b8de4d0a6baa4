import HotStringsLog
import HotStringsService
import LinuxSystem

/// The daemon's listening socket and what it takes to own its path safely.
///
/// At a path (not under systemd socket activation) the socket is set up in this order:
/// 1. The directory must be owned by this user or root, and not writable by others unless sticky (`/tmp`):
///    anyone who may rename files in it could swap the socket for their own.
/// 2. The lock `<socket>.lock` (a regular file of ours, mode 0600, opened without following links) is taken
///    with `flock` and held for the daemon's life: of two daemons started at once on one path, one runs.
/// 3. A file already at the path is replaced only when it is a socket of ours that nothing listens on (left
///    by a crash); a regular file, a link, a directory, someone else's socket or a live socket is refused.
/// 4. `bind` creates the socket, which gets its mode before `listen` without following a link and without
///    changing the process-wide umask (see `UnixSocket.listen`).
/// At exit the path is unlinked only while it is still the socket this daemon bound (same device and inode).
final class ListeningSocket {
    /// The listening descriptor.
    let fd: Int32
    /// The socket's path; nil for a socket passed by systemd, which the daemon neither created nor removes.
    let path: String?
    private let identity: FileSystem.Ownership?
    private var lock: FileLock?
    private let log: LogSink

    private init(fd: Int32, path: String?, identity: FileSystem.Ownership?, lock: FileLock?, log: LogSink) {
        self.fd = fd
        self.path = path
        self.identity = identity
        self.lock = lock
        self.log = log
    }

    /// systemd's socket when one was passed, else a new socket at `path` with `mode`, set up as described
    /// on the type; which one, and a stale socket replaced, are logged to `log`.
    /// - Throws: `ServerStartError` saying which rule refused the path, or which call failed.
    static func open(path: String, mode: UInt32, log: LogSink) throws(ServerStartError) -> ListeningSocket {
        if let activated = SocketActivation.listenerDescriptors().first {
            log.info("using the socket passed by systemd (fd \(activated))")
            return ListeningSocket(fd: activated, path: nil, identity: nil, lock: nil, log: log)
        }
        let ownUser = ProcessStatistics.userID
        try checkDirectory(of: path, ownUser: ownUser)
        let lock = try takeLock(path + ".lock", ownUser: ownUser)
        pauseBeforeBindingForTests()
        try clearStaleSocket(at: path, ownUser: ownUser, log: log)
        let fd: Int32
        do {
            fd = try UnixSocket.listen(atPath: path, mode: mode)
        } catch {
            throw ServerStartError(description: "cannot listen on \(path): \(error)")
        }
        // Only reads the path: the directory was checked, so no one else can have put another file there.
        let identity = try? FileSystem.ownership(atPath: path, followingSymlinks: false)
        return ListeningSocket(fd: fd, path: path, identity: identity, lock: lock, log: log)
    }

    /// The environment variable that makes `open` pause for that many milliseconds (at most 5000) after taking
    /// the lock and before checking and binding the path: a test hook that widens the window in which two
    /// daemons started at once could both find the path free, so a test of the lock fails reliably without it.
    static let bindPauseVariable = "HOTSTRINGS_TEST_PAUSE_BEFORE_BIND_MS"

    private static func pauseBeforeBindingForTests() {
        guard let text = Environment.value(bindPauseVariable), let milliseconds = Int(text), milliseconds > 0 else {
            return
        }
        ThreadScheduling.sleepCurrentThread(for: .milliseconds(min(milliseconds, 5000)))
    }

    /// Closes the socket, removes the socket file if it is still the one bound here, and releases the lock.
    func close() {
        SocketIO.close(fd)
        if let path, let identity,
           let current = try? FileSystem.ownership(atPath: path, followingSymlinks: false) {
            if current.isSameFile(as: identity) {
                try? FileSystem.removeFile(atPath: path)
            } else {
                log.warning("\(path) is no longer this daemon's socket; leaving it in place")
            }
        }
        lock = nil
    }

    /// Refuses a directory another user could rename files in.
    static func checkDirectory(of path: String, ownUser: UInt32) throws(ServerStartError) {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let owner: FileSystem.Ownership
        do {
            owner = try FileSystem.ownership(atPath: directory, followingSymlinks: true)
        } catch {
            throw ServerStartError(description: "cannot use the socket directory: \(error)")
        }
        guard owner.userID == ownUser || owner.userID == 0 else {
            throw ServerStartError(description: "refusing the socket directory \(directory): it is owned by uid "
                + "\(owner.userID), not by this user (\(ownUser)) or root, who could replace the socket")
        }
        guard !owner.isWritableByOthers || owner.isSticky else {
            let mode = String(owner.permissions, radix: 8)
            throw ServerStartError(description: "refusing the socket directory \(directory): mode \(mode) lets "
                + "other users write to it without the sticky bit, so they could replace the socket; use a "
                + "private directory (such as $XDG_RUNTIME_DIR) or a sticky one such as /tmp")
        }
    }

    private static func takeLock(_ lockPath: String, ownUser: UInt32) throws(ServerStartError) -> FileLock {
        do {
            return try FileLock(path: lockPath, ownerID: ownUser)
        } catch {
            switch error {
            case .held(let holder):
                let who = holder.map { " (process \($0))" } ?? ""
                let socketPath = String(lockPath.dropLast(".lock".count))
                throw ServerStartError(description: "another hotstrings serve\(who) is already listening on "
                    + "\(socketPath): it holds the lock \(lockPath)")
            case .untrusted(let reason):
                throw ServerStartError(description: "refusing the lock file: \(reason)")
            case .system(let failure):
                throw ServerStartError(description: "cannot take the lock: \(failure)")
            }
        }
    }

    private static func clearStaleSocket(at path: String, ownUser: UInt32, log: LogSink) throws(ServerStartError) {
        let existing: FileSystem.Ownership
        do {
            existing = try FileSystem.ownership(atPath: path, followingSymlinks: false)
        } catch where error.errno == .noSuchFileOrDirectory {
            return
        } catch {
            throw ServerStartError(description: "cannot check the socket path: \(error)")
        }
        guard existing.isSocket else {
            throw ServerStartError(description: "refusing to replace \(path): it is \(describe(existing.kind)), "
                + "not a socket; remove it or choose another --socket")
        }
        guard existing.userID == ownUser else {
            let state = UnixSocket.isListening(atPath: path) ? "a listening" : "a"
            throw ServerStartError(description: "refusing \(path): it is \(state) socket owned by uid "
                + "\(existing.userID), not by this user (\(ownUser)); another user may be impersonating the daemon")
        }
        guard !UnixSocket.isListening(atPath: path) else {
            throw ServerStartError(description: "another process is already listening on \(path) "
                + "(without holding \(path).lock: not a hotstrings serve of this version)")
        }
        log.info("replacing the stale socket file \(path)")
        do {
            try FileSystem.removeFile(atPath: path)
        } catch {
            throw ServerStartError(description: "cannot remove the stale socket: \(error)")
        }
    }

    private static func describe(_ kind: FileSystem.Kind) -> String {
        switch kind {
        case .file: "a regular file"
        case .directory: "a directory"
        case .symlink: "a symbolic link"
        case .other: "a special file"
        }
    }
}
