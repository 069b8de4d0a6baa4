import Glibc

/// File system calls that keep errno and the path in every error.
package enum FileSystem {
    /// What a directory entry or path is.
    package enum Kind: Sendable, Hashable {
        case file
        case directory
        case symlink
        /// A FIFO, socket or device.
        case other
    }

    /// A point in time as the kernel stores it in `struct timespec`.
    package struct Timestamp: Sendable, Hashable, Comparable {
        /// Seconds since the epoch.
        package var seconds: Int64
        /// Nanoseconds within the second.
        package var nanoseconds: Int64

        /// Makes a timestamp.
        package init(seconds: Int64, nanoseconds: Int64) {
            self.seconds = seconds
            self.nanoseconds = nanoseconds
        }

        /// Orders by seconds, then nanoseconds.
        package static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
            (lhs.seconds, lhs.nanoseconds) < (rhs.seconds, rhs.nanoseconds)
        }
    }

    /// The parts of `struct stat` the watcher uses.
    package struct Status: Sendable, Hashable {
        /// The type of the file.
        package var kind: Kind
        /// The size in bytes (`st_size`).
        package var size: Int
        /// The permission bits (`st_mode & 0o7777`).
        package var permissions: UInt32
        /// The device holding the file (`st_dev`).
        package var device: UInt64
        /// The inode number (`st_ino`); with `device` it identifies the file across renames.
        package var inode: UInt64
        /// The last change of the content (`st_mtim`).
        package var modified: Timestamp
        /// The last change of the content or the metadata (`st_ctim`).
        package var changed: Timestamp
    }

    /// One entry of a directory listing.
    package struct DirectoryEntry: Sendable, Hashable {
        /// The entry's name (never "." or "..").
        package var name: String
        /// The entry's own type: a symbolic link is `.symlink`, whatever it points to.
        package var kind: Kind
        /// Whether `name` is the entry's name as it is (false: it was not UTF-8, and `name` only shows it, with
        /// its other bytes as `\xFF`; it is no path to the entry).
        package var isNameValidUTF8: Bool

        /// Makes an entry.
        package init(name: String, kind: Kind, isNameValidUTF8: Bool = true) {
            self.name = name
            self.kind = kind
            self.isNameValidUTF8 = isNameValidUTF8
        }
    }

    /// The status of `path` from `stat`, or from `lstat` when not `followingSymlinks`.
    /// - Throws: `SystemError` naming `path`.
    package static func status(atPath path: String, followingSymlinks: Bool = true) throws(SystemError) -> Status {
        var info = stat()
        if followingSymlinks {
            _ = try retryingOnInterrupt { stat(path, &info) }.get("stat", path: path)
        } else {
            _ = try retryingOnInterrupt { lstat(path, &info) }.get("lstat", path: path)
        }
        return Status(info)
    }

    /// The entries of the directory at `path`, sorted by name, from `opendir` and `readdir`.
    ///
    /// Kinds come from `d_type`, or from `fstatat` without following links where the file system leaves it
    /// unknown; an entry that vanishes meanwhile is left out.
    /// - Throws: `SystemError` naming `path`.
    package static func listDirectory(atPath path: String) throws(SystemError) -> [DirectoryEntry] {
        guard let directory = opendir(path) else {
            throw SystemError(operation: "opendir", path: path, errno: .current)
        }
        defer { closedir(directory) }
        var entries: [DirectoryEntry] = []
        while true {
            Glibc.errno = 0
            guard let entry = readdir(directory) else {
                if Glibc.errno != 0 {
                    throw SystemError(operation: "readdir", path: path, errno: .current)
                }
                break
            }
            let (name, isValidUTF8) = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                FileName.decode(raw.prefix { $0 != 0 })
            }
            if name == "." || name == ".." {
                continue
            }
            let kind: Kind
            switch Int(entry.pointee.d_type) {
            case DT_REG: kind = .file
            case DT_DIR: kind = .directory
            case DT_LNK: kind = .symlink
            case DT_UNKNOWN:
                var info = stat()
                // By the raw name: a name that is not UTF-8 has no `String` that reaches the file.
                let found = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    fstatat(dirfd(directory), raw.baseAddress!.assumingMemoryBound(to: CChar.self), &info,
                            AT_SYMLINK_NOFOLLOW)
                }
                guard found == 0 else {
                    continue
                }
                kind = Kind(mode: info.st_mode)
            default: kind = .other
            }
            entries.append(DirectoryEntry(name: name, kind: kind, isNameValidUTF8: isValidUTF8))
        }
        entries.sort { $0.name < $1.name }
        return entries
    }

    /// The whole content of the regular file at `path`, read with `open`, `fstat` and `read` until end of file.
    ///
    /// Opens with `O_NONBLOCK` so that a FIFO in place of a file cannot block the caller; anything other
    /// than a regular file is refused. The file may grow while it is read; reading stops once it is over
    /// `maximumSize`.
    /// - Throws: `SystemError` naming `path`: `.noSuchFileOrDirectory`, `.permissionDenied`, `.isDirectory`
    ///   for a directory, `.invalidArgument` for a FIFO, socket or device, `.fileTooLarge` when it is (or
    ///   grows) larger than `maximumSize` bytes.
    package static func readFile(atPath path: String, maximumSize: Int) throws(SystemError) -> [UInt8] {
        let fd = try openForReading(atPath: path)
        defer { _ = close(fd) }
        return try readFile(fd, path: path, maximumSize: maximumSize)
    }

    /// Everything `path` gives until end of file, whatever it names: a regular file, a FIFO or `/dev/stdin` (read
    /// with `open`, blocking, and `read`), for a file a person names on the command line. A reader of the bundle uses
    /// `readFile(atPath:maximumSize:)`, which takes regular files only and never blocks.
    /// - Throws: `SystemError` naming `path`: `.noSuchFileOrDirectory`, `.permissionDenied`, `.isDirectory`.
    package static func readToEnd(atPath path: String) throws(SystemError) -> [UInt8] {
        let fd = try retryingOnInterrupt { open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY) }.get("open", path: path)
        defer { _ = close(fd) }
        return try Descriptor.readToEnd(from: fd, path: path)
    }

    /// Opens `path` for reading with `open(O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)`.
    static func openForReading(atPath path: String) throws(SystemError) -> Int32 {
        try retryingOnInterrupt { open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK) }.get("open", path: path)
    }

    /// The content of the regular file open as `fd` (see `readFile(atPath:maximumSize:)`).
    static func readFile(_ fd: Int32, path: String, maximumSize: Int) throws(SystemError) -> [UInt8] {
        precondition(maximumSize >= 0, "maximumSize must not be negative")
        var info = stat()
        _ = try retryingOnInterrupt { fstat(fd, &info) }.get("fstat", path: path)
        switch Kind(mode: info.st_mode) {
        case .file: break
        case .directory: throw SystemError(operation: "read", path: path, errno: .isDirectory)
        case .symlink, .other: throw SystemError(operation: "read", path: path, errno: .invalidArgument)
        }
        let limit = min(maximumSize, Int.max - 1)
        guard info.st_size <= limit else {
            throw SystemError(operation: "read", path: path, errno: .fileTooLarge)
        }
        // One byte more than the size, so that the read reaching end of file is usually the second. The buffer is
        // not zeroed first: for a 2 MB catalog that was a tenth of the watcher's work on a save.
        var failure: SystemError?
        var isAtEnd = false
        var bytes = [UInt8](unsafeUninitializedCapacity: min(info.st_size, limit) + 1) { buffer, initialized in
            guard let base = buffer.baseAddress else { return }
            while initialized < buffer.count {
                do throws(SystemError) {
                    let read = try retryingOnInterrupt { Glibc.read(fd, base + initialized, buffer.count - initialized) }
                        .get("read", path: path)
                    if read == 0 {
                        isAtEnd = true
                        return
                    }
                    initialized += read
                } catch {
                    failure = error
                    return
                }
            }
        }
        if let failure { throw failure }
        var count = bytes.count
        if count > limit { throw SystemError(operation: "read", path: path, errno: .fileTooLarge) }
        // The file grew while it was read: the rest in steps, as long as it stays within the limit.
        while !isAtEnd {
            if count == bytes.count {
                bytes += repeatElement(0, count: min(bytes.count, limit + 1 - count))
            }
            let read = try bytes.withUnsafeMutableBytes { buffer in
                let free = UnsafeMutableRawBufferPointer(rebasing: buffer[count...])
                return retryingOnInterrupt { Glibc.read(fd, free.baseAddress, free.count) }
            }.get("read", path: path)
            if read == 0 {
                isAtEnd = true
                break
            }
            count += read
            if count > limit {
                throw SystemError(operation: "read", path: path, errno: .fileTooLarge)
            }
        }
        bytes.removeLast(bytes.count - count)
        return bytes
    }

    /// The absolute path of `path` with every symbolic link, "." and ".." resolved, from `realpath`.
    /// - Throws: `SystemError` naming `path`.
    package static func resolvedPath(_ path: String) throws(SystemError) -> String {
        guard let resolved = realpath(path, nil) else {
            throw SystemError(operation: "realpath", path: path, errno: .current)
        }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}

extension FileSystem.Kind {
    /// The kind for the type bits of `st_mode`.
    init(mode: UInt32) {
        switch mode & S_IFMT {
        case S_IFREG: self = .file
        case S_IFDIR: self = .directory
        case S_IFLNK: self = .symlink
        default: self = .other
        }
    }
}

extension FileSystem.Status {
    init(_ info: stat) {
        self.init(
            kind: FileSystem.Kind(mode: info.st_mode),
            size: info.st_size,
            permissions: info.st_mode & 0o7777,
            device: UInt64(info.st_dev),
            inode: UInt64(info.st_ino),
            modified: FileSystem.Timestamp(
                seconds: Int64(info.st_mtim.tv_sec),
                nanoseconds: Int64(info.st_mtim.tv_nsec)
            ),
            changed: FileSystem.Timestamp(seconds: Int64(info.st_ctim.tv_sec), nanoseconds: Int64(info.st_ctim.tv_nsec))
        )
    }
}
