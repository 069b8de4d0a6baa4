import CLinuxShims
import Glibc

extension FileSystem {
    /// Which version of a file was read: what `replaceFile(atPath:with:ifStill:)` checks has not changed before it
    /// renames over it, and the mode and owner the new file keeps.
    package struct FileVersion: Sendable, Hashable {
        /// The device and inode: an editor's atomic save puts another file at the path.
        package var device: UInt64
        package var inode: UInt64
        /// The size, and the last changes of the content and the metadata: a write in place changes them.
        package var size: Int
        package var modified: Timestamp
        package var changed: Timestamp
        /// The permission bits (`st_mode & 0o7777`), kept by the new file.
        package var permissions: UInt32
        /// The owner and group, kept by the new file where this process may set them.
        package var userID: UInt32
        package var groupID: UInt32

        /// Whether `other` is the same file with the same content: device, inode, size and modification time
        /// (not the ctime, which a rename changes).
        func isSameContent(as other: FileVersion) -> Bool {
            device == other.device && inode == other.inode && size == other.size && modified == other.modified
        }

        init(_ info: stat) {
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
            size = info.st_size
            modified = Timestamp(seconds: Int64(info.st_mtim.tv_sec), nanoseconds: Int64(info.st_mtim.tv_nsec))
            changed = Timestamp(seconds: Int64(info.st_ctim.tv_sec), nanoseconds: Int64(info.st_ctim.tv_nsec))
            permissions = info.st_mode & 0o7777
            userID = info.st_uid
            groupID = info.st_gid
        }
    }

    /// The content of the regular file at `path` and the version it was read from (`fstat` of the open file), or
    /// nil when nothing is there.
    /// - Throws: `SystemError` naming `path`, as `readFile(atPath:maximumSize:)`.
    package static func readVersioned(atPath path: String, maximumSize: Int) throws(SystemError)
        -> (bytes: [UInt8], version: FileVersion)? {
        let fd: Int32
        do {
            fd = try openForReading(atPath: path)
        } catch where error.errno == .noSuchFileOrDirectory {
            return nil
        }
        defer { _ = close(fd) }
        var info = stat()
        _ = try retryingOnInterrupt { fstat(fd, &info) }.get("fstat", path: path)
        let bytes = try readFile(fd, path: path, maximumSize: maximumSize)
        var after = stat()
        _ = try retryingOnInterrupt { fstat(fd, &after) }.get("fstat", path: path)
        // Written to while read: report the later version, which the caller's check will then see changed.
        return (bytes, FileVersion(after))
    }

    /// The version of the file at `path` now (following links), or nil when nothing is there.
    /// - Throws: `SystemError` from `stat` naming `path`.
    package static func version(atPath path: String) throws(SystemError) -> FileVersion? {
        var info = stat()
        switch retryingOnInterrupt({ stat(path, &info) }) {
        case .success: return FileVersion(info)
        case .failure(let errno) where errno == .noSuchFileOrDirectory: return nil
        case .failure(let errno): throw SystemError(operation: "stat", path: path, errno: errno)
        }
    }

    /// Replaces the file at `path` with `bytes`, unless it changed since `expected` was read (nil: unless something
    /// appeared there): whole or nothing, as `writeFileAtomically`, keeping the old file's mode and owner.
    ///
    /// Writes a hidden temporary file in the same directory, sets the old file's mode (`newFileMode` for a new
    /// file) with `fchmod` and its owner and group with `fchown` (left as they are when this process may not give
    /// them away), flushes it with `fsync`, and swaps it with the file at the path in one `renameat2`
    /// (`RENAME_EXCHANGE`). The file swapped out must be the version read; when another writer's save landed
    /// between the read and the swap, the two are swapped back (so that save stays, and one that landed after the
    /// swap is kept too) and nothing is written. Then the directory is flushed. Where the file system cannot swap
    /// (or for a new file) the path is checked with `stat` and renamed over, which leaves a moment for a save to be
    /// overwritten. A full disk, a read-only folder or any failed step removes the temporary file and leaves the
    /// old one as it was.
    /// - Returns: false, with nothing written, when the file changed since it was read: read it again.
    /// - Throws: `SystemError` naming `path` (or its directory).
    package static func replaceFile(atPath path: String, with bytes: [UInt8], ifStill expected: FileVersion?,
                                    newFileMode: UInt32 = 0o644) throws(SystemError) -> Bool {
        let (directory, name) = split(path)
        let suffix = String(UInt64.random(in: 0...UInt64.max), radix: 36)
        let temporary = "\(directory)/.\(name).tmp-\(getpid())-\(suffix)"
        let flags = O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOCTTY
        let mode = expected?.permissions ?? newFileMode
        let fd = try retryingOnInterrupt { open(temporary, flags, mode) }.get("open", path: path)
        do throws(SystemError) {
            defer { _ = close(fd) }
            _ = try retryingOnInterrupt { fchmod(fd, mode) }.get("fchmod", path: path)
            if let expected, expected.userID != geteuid() || expected.groupID != getegid() {
                switch retryingOnInterrupt({ fchown(fd, expected.userID, expected.groupID) }) {
                case .success: break
                case .failure(let errno) where errno == .notPermitted: break
                case .failure(let errno): throw SystemError(operation: "fchown", path: path, errno: errno)
                }
                // fchown clears set-id bits; the mode is set again.
                _ = try retryingOnInterrupt { fchmod(fd, mode) }.get("fchmod", path: path)
            }
            try write(bytes, to: fd, path: path)
            _ = try retryingOnInterrupt { fsync(fd) }.get("fsync", path: path)
            if let expected, let swapped = try exchange(temporary, path, expecting: expected, written: fd) {
                guard swapped else { return false }
            } else {
                guard try version(atPath: path) == expected else {
                    _ = unlink(temporary)
                    return false
                }
                _ = try retryingOnInterrupt { Glibc.rename(temporary, path) }.get("rename", path: path)
            }
        } catch {
            _ = unlink(temporary)
            throw error
        }
        try syncDirectory(directory)
        return true
    }

    /// Swaps the new file at `temporary` (open as `written`) with the file at `path` and keeps the swap when the file
    /// swapped out is the version `expected`; otherwise swaps back, and if a save landed at `path` after the first
    /// swap, swaps once more so that the latest save is at `path`. The file left at `temporary` is removed.
    /// - Returns: true when the new file is in place, false when it is not (`path` changed since it was read), nil
    ///   when the file system cannot swap (nothing was done).
    private static func exchange(_ temporary: String, _ path: String, expecting expected: FileVersion,
                                 written fd: Int32) throws(SystemError) -> Bool? {
        func swap() throws(SystemError) -> Bool {
            switch retryingOnInterrupt({ hotstrings_rename_exchange(temporary, path) }) {
            case .success: return true
            case .failure(let errno) where errno == .invalidArgument || errno == .notImplemented: return false
            case .failure(let errno): throw SystemError(operation: "renameat2", path: path, errno: errno)
            }
        }
        guard try swap() else { return nil }
        defer { _ = unlink(temporary) }
        var ours = stat()
        _ = try retryingOnInterrupt { fstat(fd, &ours) }.get("fstat", path: path)
        // A rename changes the moved file's ctime, so the content's identity is what is compared.
        guard let displaced = try version(atPath: temporary), !displaced.isSameContent(as: expected) else { return true }
        // Another writer saved between the read and the swap: its file goes back to the path.
        _ = try swap()
        if let back = try version(atPath: temporary), !back.isSameContent(as: FileVersion(ours)) {
            // And one more saved after the swap, over the new file: that one is the latest.
            _ = try swap()
        }
        return false
    }

    /// Flushes a directory's entries with `fsync`.
    static func syncDirectory(_ directory: String) throws(SystemError) {
        let directoryFD = try retryingOnInterrupt { open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
            .get("open", path: directory)
        defer { _ = close(directoryFD) }
        _ = try retryingOnInterrupt { fsync(directoryFD) }.get("fsync", path: directory)
    }
}

/// An exclusive `flock` on a directory, held until this object goes away: what serializes the edits of the files in
/// one folder between threads and processes. A lock on the folder, not on the file, because an edit renames a new
/// file over the old one (a lock on the old one would let the next writer in on a file no longer at the path) and
/// may create the file.
///
/// Any process that can open the folder can take the same lock (`flock de.lproj sleep 8`), so the lock is waited
/// for only until a deadline. `flock` itself cannot wait with one: a blocking call ends only when the lock is had or
/// a signal interrupts it, and a library running inside an app must not install a signal handler for that. So the
/// lock is tried without blocking (`LOCK_NB`), again after a pause that doubles from 1 ms up to 32 ms, until it is
/// had or the deadline passes: a holder that lets go is followed within 32 ms, and a wait costs a few wake-ups a
/// second on a thread that has nothing else to do.
package final class DirectoryLock: Sendable {
    /// Why the lock was not taken.
    package enum Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// Someone else held it the whole time until the deadline.
        case busy(path: String, waited: Duration)
        /// `shouldGiveUp` said to stop waiting (the service is stopping).
        case abandoned(path: String)
        /// A system call failed.
        case system(SystemError)

        /// "'/srv/App/de.lproj' stayed locked by another process for 5 seconds", the reason, or the system error.
        package var description: String {
            switch self {
            case .busy(let path, let waited): "\(path) stayed locked by another process for \(waited)"
            case .abandoned(let path): "stopped waiting for the lock on \(path)"
            case .system(let error): "\(error)"
            }
        }
    }

    private let fd: Int32

    /// Opens `path` with `open(O_RDONLY | O_DIRECTORY | O_CLOEXEC)` and takes `flock(LOCK_EX | LOCK_NB)`, trying
    /// again until `deadline` (see the type's comment); `shouldGiveUp` is asked between tries.
    /// - Throws: `Failure.busy` when the lock was still held at the deadline, `.abandoned` when `shouldGiveUp`
    ///   said so, `.system` naming `path` for a failed call.
    package init(path: String, deadline: ContinuousClock.Instant, shouldGiveUp: () -> Bool = { false })
        throws(Failure) {
        let fd: Int32
        do {
            fd = try retryingOnInterrupt { open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }.get("open", path: path)
        } catch {
            throw .system(error)
        }
        let start = ContinuousClock.now
        var pause = Duration.milliseconds(1)
        while true {
            switch retryingOnInterrupt({ flock(fd, LOCK_EX | LOCK_NB) }) {
            case .success:
                self.fd = fd
                return
            case .failure(let errno) where errno == .wouldBlock:
                let now = ContinuousClock.now
                guard now < deadline else {
                    _ = close(fd)
                    throw .busy(path: path, waited: now - start)
                }
                guard !shouldGiveUp() else {
                    _ = close(fd)
                    throw .abandoned(path: path)
                }
                ThreadScheduling.sleepCurrentThread(for: min(pause, deadline - now))
                pause = min(pause * 2, .milliseconds(32))
            case .failure(let errno):
                _ = close(fd)
                throw .system(SystemError(operation: "flock", path: path, errno: errno))
            }
        }
    }

    deinit {
        _ = close(fd)
    }
}
