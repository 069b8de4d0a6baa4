import Glibc

extension FileSystem {
    /// The text a symbolic link at `path` holds, from `readlink`; the link itself is not followed.
    /// - Throws: `SystemError` naming `path` (`EINVAL` when `path` is no symbolic link).
    package static func linkTarget(atPath path: String) throws(SystemError) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = try retryingOnInterrupt { readlink(path, &buffer, buffer.count - 1) }.get("readlink", path: path)
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// `O_PATH` (open for a path's sake only: no read permission needed, nothing read), which Glibc's module does not
/// export (it is behind `_GNU_SOURCE`); its value on every architecture Swift runs Linux on.
let openPathOnly: Int32 = 0o10000000

extension FileSystem {
    /// A directory reached through a path, every link on the way followed once.
    package struct ResolvedDirectory: Sendable, Hashable {
        /// The directory's status (its device and inode tell it from any other).
        package var status: Status
        /// Where it really is: the absolute path with every link resolved, as `/proc/self/fd/N` names it.
        package var path: String
    }

    /// The directory `path` leads to, found with one `open(O_PATH | O_DIRECTORY)` (the kernel follows the links), an
    /// `fstat` and a `readlink` of `/proc/self/fd/N`: what `status(atPath:)` and `resolvedPath(_:)` tell together,
    /// of one and the same directory, without `realpath`'s `readlink` of every component.
    /// - Throws: `SystemError` naming `path` (`ENOTDIR` when it leads to something else, `ENOENT` nowhere).
    package static func resolvedDirectory(atPath path: String) throws(SystemError) -> ResolvedDirectory {
        let fd = try retryingOnInterrupt { open(path, openPathOnly | O_DIRECTORY | O_CLOEXEC) }.get("open", path: path)
        defer { _ = close(fd) }
        var info = stat()
        _ = try retryingOnInterrupt { fstat(fd, &info) }.get("fstat", path: path)
        let resolved = try linkTarget(atPath: "/proc/self/fd/\(fd)")
        return ResolvedDirectory(status: Status(info), path: resolved)
    }
}

extension FileSystem {
    /// Gives the socket file at `path` the permission bits `mode`, unless it has them already, without following
    /// a link: the file is opened with `O_PATH | O_NOFOLLOW`, checked to be a socket owned by this effective user,
    /// and changed with `chmod` of `/proc/self/fd/N` (an `O_PATH` descriptor cannot be `fchmod`ed).
    /// - Throws: `SystemError` naming `path`: from `open`, `fstat` or `chmod`; `EPERM` when the file is no socket
    ///   (a link included: `O_NOFOLLOW` with `O_PATH` opens the link itself) or belongs to another user.
    package static func setSocketFileMode(atPath path: String, to mode: UInt32) throws(SystemError) {
        let fd = try retryingOnInterrupt { open(path, openPathOnly | O_NOFOLLOW | O_CLOEXEC) }.get("open", path: path)
        defer { _ = close(fd) }
        var info = stat()
        _ = try retryingOnInterrupt { fstat(fd, &info) }.get("fstat", path: path)
        guard info.st_mode & S_IFMT == S_IFSOCK, info.st_uid == geteuid() else {
            throw SystemError(operation: "chmod", path: path, errno: .notPermitted)
        }
        guard info.st_mode & 0o7777 != mode_t(mode) else { return }
        _ = try retryingOnInterrupt { chmod("/proc/self/fd/\(fd)", mode_t(mode)) }.get("chmod", path: path)
    }
}
