import Glibc

extension FileSystem {
    /// Who owns a file, what it is and which file it is: what a daemon checks before it trusts a path.
    package struct Ownership: Sendable, Hashable {
        /// The owner's user ID (`st_uid`).
        package var userID: UInt32
        /// The permission bits, including set-id and sticky (`st_mode & 0o7777`).
        package var permissions: UInt32
        /// Whether the file is a Unix socket (`S_ISSOCK`); `FileSystem.Kind` counts sockets as `.other`.
        package var isSocket: Bool
        /// The type of the file, as `FileSystem.status` reports it.
        package var kind: Kind
        /// The device holding the file (`st_dev`).
        package var device: UInt64
        /// The inode number (`st_ino`); with `device` it tells one file from another put at the same path.
        package var inode: UInt64

        /// Whether users other than the owner may write (group or other write bits).
        package var isWritableByOthers: Bool { permissions & 0o022 != 0 }
        /// Whether the sticky bit is set: in a directory, only a file's owner may remove or rename it.
        package var isSticky: Bool { permissions & 0o1000 != 0 }
        /// The same file (device and inode) as `other`.
        package func isSameFile(as other: Ownership) -> Bool {
            device == other.device && inode == other.inode
        }
    }

    /// The owner, type and identity of `path` from `stat`, or from `lstat` when not `followingSymlinks`
    /// (a symbolic link is then reported as itself).
    /// - Throws: `SystemError` naming `path` (`.noSuchFileOrDirectory` when nothing is there).
    package static func ownership(atPath path: String, followingSymlinks: Bool) throws(SystemError) -> Ownership {
        var info = stat()
        if followingSymlinks {
            _ = try retryingOnInterrupt { stat(path, &info) }.get("stat", path: path)
        } else {
            _ = try retryingOnInterrupt { lstat(path, &info) }.get("lstat", path: path)
        }
        return Ownership(info)
    }

    /// The owner, type and identity of the open file `fd`, from `fstat`.
    /// - Throws: `SystemError` from `fstat`.
    package static func ownership(of fd: Int32) throws(SystemError) -> Ownership {
        var info = stat()
        _ = try retryingOnInterrupt { fstat(fd, &info) }.get("fstat")
        return Ownership(info)
    }
}

extension FileSystem.Ownership {
    init(_ info: stat) {
        self.init(
            userID: info.st_uid,
            permissions: info.st_mode & 0o7777,
            isSocket: info.st_mode & S_IFMT == S_IFSOCK,
            kind: FileSystem.Kind(mode: info.st_mode),
            device: UInt64(info.st_dev),
            inode: UInt64(info.st_ino)
        )
    }
}
