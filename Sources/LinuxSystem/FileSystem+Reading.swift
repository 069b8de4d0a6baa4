import CLinuxShims
import Glibc

extension FileSystem {
    /// A file's content with what the kernel said of the file around the read.
    package struct Snapshot: Sendable {
        /// The content.
        package var bytes: [UInt8]
        /// `fstat` of the open file before the first `read`.
        package var before: Status
        /// `fstat` of the open file after the last `read`: a write during the read shows as a difference.
        package var after: Status
        /// Where the open file really is (`/proc/self/fd/N`): every symbolic link on the way resolved.
        package var resolvedPath: String
        /// Whether another process had the file open for writing before or after the read (a writer that
        /// truncated it and has not written yet); nil when the kernel cannot tell.
        package var hadWriter: Bool?
    }

    /// The content of the regular file at `path`, as `readFile(atPath:maximumSize:)` reads it, with the file's
    /// status before and after the read and the path the open file really has.
    /// - Throws: `SystemError` naming `path`, as `readFile(atPath:maximumSize:)`.
    package static func snapshot(atPath path: String, maximumSize: Int) throws(SystemError) -> Snapshot {
        let fd = try openForReading(atPath: path)
        defer { _ = close(fd) }
        let before = try status(ofOpenFile: fd, path: path)
        let writerBefore = isOpenForWriting(fd)
        let bytes = try readFile(fd, path: path, maximumSize: maximumSize)
        let writerAfter = isOpenForWriting(fd)
        let after = try status(ofOpenFile: fd, path: path)
        let resolved = (try? linkTarget(atPath: "/proc/self/fd/\(fd)")) ?? path
        let hadWriter = writerBefore == true || writerAfter == true ? true : writerBefore.flatMap { _ in writerAfter }
        return Snapshot(bytes: bytes, before: before, after: after, resolvedPath: resolved, hadWriter: hadWriter)
    }

    /// Whether some process has the file open as `fd` open for writing, from a read lease taken and released at
    /// once (see `hotstrings_is_open_for_writing`); nil when the kernel cannot tell.
    static func isOpenForWriting(_ fd: Int32) -> Bool? {
        switch hotstrings_is_open_for_writing(fd) {
        case 0: false
        case 1: true
        default: nil
        }
    }

    /// `fstat` of an open file.
    static func status(ofOpenFile fd: Int32, path: String) throws(SystemError) -> Status {
        var info = stat()
        _ = try retryingOnInterrupt { fstat(fd, &info) }.get("fstat", path: path)
        return Status(info)
    }
}
