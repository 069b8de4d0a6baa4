import Glibc

extension FileSystem {
    /// The longest file name, in bytes, `writeFileAtomically` can write: its temporary name
    /// `.<name>.tmp-<pid>-<random>` adds up to 30 bytes (a pid of at most 10 digits, a random part of at most 13)
    /// to a name, and no name may be longer than `NAME_MAX` (255 bytes). Releases are refused at publish and at
    /// pull for a longer name.
    package static let longestAtomicallyWrittenName = Int(NAME_MAX) - 30

    /// Replaces the file at `path` with `bytes` so that readers see the old content or the new, never a part.
    ///
    /// Writes a hidden temporary file in the same directory (`.<name>.tmp-<pid>-<random>`, a name the
    /// watcher ignores), sets `mode` with `fchmod`, flushes it with `fsync`, moves it over `path` with
    /// `rename`, then flushes the directory. The temporary file is removed when a step fails.
    /// - Throws: `SystemError` naming `path` (or its directory), never the random temporary name, so that the
    ///   same failure reads the same each time (a caller reports a run of identical failures once).
    package static func writeFileAtomically(_ bytes: [UInt8], toPath path: String, mode: UInt32 = 0o644)
        throws(SystemError)
    {
        let (directory, name) = split(path)
        let suffix = String(UInt64.random(in: 0...UInt64.max), radix: 36)
        let temporary = "\(directory)/.\(name).tmp-\(getpid())-\(suffix)"
        let flags = O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOCTTY
        let fd = try retryingOnInterrupt { open(temporary, flags, mode) }.get("open", path: path)
        do throws(SystemError) {
            defer { _ = close(fd) }
            // open's mode is filtered by the umask; the caller asked for exactly this one.
            _ = try retryingOnInterrupt { fchmod(fd, mode) }.get("fchmod", path: path)
            try write(bytes, to: fd, path: path)
            _ = try retryingOnInterrupt { fsync(fd) }.get("fsync", path: path)
            _ = try retryingOnInterrupt { Glibc.rename(temporary, path) }.get("rename", path: path)
        } catch {
            _ = unlink(temporary)
            throw error
        }
        let directoryFD = try retryingOnInterrupt { open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
            .get("open", path: directory)
        defer { _ = close(directoryFD) }
        _ = try retryingOnInterrupt { fsync(directoryFD) }.get("fsync", path: directory)
    }

    /// Writes `bytes` to `path` in place with `open(O_CREAT | O_TRUNC)` and `write`, as a simple editor does.
    /// - Throws: `SystemError` naming `path`.
    package static func writeFile(_ bytes: [UInt8], toPath path: String, mode: UInt32 = 0o644) throws(SystemError) {
        let flags = O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOCTTY
        let fd = try retryingOnInterrupt { open(path, flags, mode) }.get("open", path: path)
        defer { _ = close(fd) }
        try write(bytes, to: fd, path: path)
    }

    /// Writes `bytes` to a new file at `path` with `open(O_CREAT | O_EXCL)`: never replaces what is there (a key
    /// file), and the file has `mode` (less the umask) from its first byte.
    /// - Throws: `SystemError` naming `path`; `.exists` when something is already there.
    package static func writeNewFile(_ bytes: [UInt8], toPath path: String, mode: UInt32) throws(SystemError) {
        let flags = O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOCTTY
        let fd = try retryingOnInterrupt { open(path, flags, mode) }.get("open", path: path)
        defer { _ = close(fd) }
        try write(bytes, to: fd, path: path)
        _ = try retryingOnInterrupt { fsync(fd) }.get("fsync", path: path)
    }

    /// Creates a directory with `mkdir`.
    /// - Throws: `SystemError` naming `path`; `.exists` when something is already there.
    package static func makeDirectory(atPath path: String, mode: UInt32 = 0o755) throws(SystemError) {
        _ = try retryingOnInterrupt { mkdir(path, mode) }.get("mkdir", path: path)
    }

    /// Creates `path` and its missing parents with `mode` (`mkdir -p -m MODE`: every directory it creates gets it);
    /// directories that exist are left as they are.
    /// - Throws: `SystemError` naming the component that could not be created, or `.notDirectory` for one that
    ///   exists and is no directory.
    package static func makeDirectories(atPath path: String, mode: UInt32) throws(SystemError) {
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            prefix += "/" + component
            do {
                try makeDirectory(atPath: prefix, mode: mode)
            } catch where error.errno == .exists {
                guard try status(atPath: prefix).kind == .directory else {
                    throw SystemError(operation: "mkdir", path: prefix, errno: .notDirectory)
                }
            }
        }
    }

    /// Creates a new, empty, private directory `<parent>/<prefix>.XXXXXX` with `mkdtemp` and returns its path.
    /// - Throws: `SystemError` naming the template.
    package static func makeTemporaryDirectory(prefix: String, in parent: String = "/tmp") throws(SystemError)
        -> String
    {
        var template = Array("\(parent)/\(prefix).XXXXXX".utf8CString)
        guard mkdtemp(&template) != nil else {
            throw SystemError(operation: "mkdtemp", path: "\(parent)/\(prefix).XXXXXX", errno: .current)
        }
        return template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    /// Removes a file or symbolic link with `unlink`.
    /// - Throws: `SystemError` naming `path`.
    package static func removeFile(atPath path: String) throws(SystemError) {
        _ = try retryingOnInterrupt { unlink(path) }.get("unlink", path: path)
    }

    /// Removes an empty directory with `rmdir`.
    /// - Throws: `SystemError` naming `path`; `.directoryNotEmpty` when it is not empty.
    package static func removeDirectory(atPath path: String) throws(SystemError) {
        _ = try retryingOnInterrupt { rmdir(path) }.get("rmdir", path: path)
    }

    /// Removes `path` and, for a directory, everything under it (`rm -rf`), never following symbolic links.
    ///
    /// A path that does not exist is not an error.
    /// - Throws: `SystemError` from `lstat`, `readdir`, `unlink` or `rmdir`, naming the path that failed.
    package static func removeRecursively(atPath path: String) throws(SystemError) {
        let kind: Kind
        do throws(SystemError) {
            kind = try status(atPath: path, followingSymlinks: false).kind
        } catch where error.errno == .noSuchFileOrDirectory {
            return
        }
        guard kind == .directory else {
            return try removeFile(atPath: path)
        }
        for entry in try listDirectory(atPath: path) {
            try removeRecursively(atPath: "\(path)/\(entry.name)")
        }
        try removeDirectory(atPath: path)
    }

    /// Renames `source` to `destination` with `rename`, replacing what `destination` names.
    /// - Throws: `SystemError` naming `source`.
    package static func rename(_ source: String, to destination: String) throws(SystemError) {
        _ = try retryingOnInterrupt { Glibc.rename(source, destination) }.get("rename", path: source)
    }

    /// Creates a symbolic link at `path` whose target is `target`, with `symlink`.
    /// - Throws: `SystemError` naming `path`.
    package static func makeSymbolicLink(atPath path: String, pointingTo target: String) throws(SystemError) {
        _ = try retryingOnInterrupt { symlink(target, path) }.get("symlink", path: path)
    }

    /// Sets the permission bits of `path` with `chmod`.
    /// - Throws: `SystemError` naming `path`.
    package static func setPermissions(_ mode: UInt32, atPath path: String) throws(SystemError) {
        _ = try retryingOnInterrupt { chmod(path, mode) }.get("chmod", path: path)
    }

    /// Writes all of `bytes` with `write`, continuing after short writes.
    static func write(_ bytes: [UInt8], to fd: Int32, path: String) throws(SystemError) {
        // withUnsafeBytes only rethrows untyped errors, so the closure returns the Result and the throw is here.
        try bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let rest = UnsafeRawBufferPointer(rebasing: buffer[offset...])
                switch retryingOnInterrupt({ Glibc.write(fd, rest.baseAddress, rest.count) }) {
                case .success(let count): offset += count
                case .failure(let errno): return Result<Void, Errno>.failure(errno)
                }
            }
            return .success(())
        }.get("write", path: path)
    }

    /// The directory and the last component of `path`; the directory is "." for a bare name.
    static func split(_ path: String) -> (directory: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else {
            return (".", path)
        }
        let directory = slash == path.startIndex ? "/" : String(path[..<slash])
        return (directory, String(path[path.index(after: slash)...]))
    }
}
