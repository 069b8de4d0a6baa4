import Glibc

/// An error number from the C library, with readable names for the values this project meets.
///
/// Modelled on swift-system's `Errno`: the raw value is kept exactly as `errno` held it, so nothing is lost
/// when an unusual value comes back; `description` is `strerror_r`'s text followed by the symbolic name.
package struct Errno: RawRepresentable, Error, Hashable, Sendable, CustomStringConvertible {
    /// The C `errno` value.
    package var rawValue: Int32

    /// Wraps a C `errno` value.
    package init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// The calling thread's current `errno`; read it right after the failing call.
    package static var current: Errno {
        Errno(rawValue: Glibc.errno)
    }

    /// `strerror_r`'s text and the symbolic name, such as "Permission denied (EACCES)".
    package var description: String {
        "\(message) (\(name))"
    }

    /// The text `strerror_r` gives for this value, such as "Permission denied".
    package var message: String {
        var buffer = [CChar](repeating: 0, count: 256)
        // The XSI strerror_r fills the buffer (thread-safe, unlike strerror) and returns 0 or an error number.
        guard strerror_r(rawValue, &buffer, buffer.count) == 0 else {
            return "Unknown error \(rawValue)"
        }
        return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    /// The symbolic name, such as "EACCES", or "errno 123" for a value without a known name.
    package var name: String {
        Self.names[rawValue] ?? "errno \(rawValue)"
    }

    /// `EPERM`: the operation is not permitted.
    package static var notPermitted: Errno { Errno(rawValue: EPERM) }
    /// `ENOENT`: no such file or directory.
    package static var noSuchFileOrDirectory: Errno { Errno(rawValue: ENOENT) }
    /// `ESRCH`: no such process.
    package static var noSuchProcess: Errno { Errno(rawValue: ESRCH) }
    /// `EINTR`: a signal interrupted the call.
    package static var interrupted: Errno { Errno(rawValue: EINTR) }
    /// `EIO`: an input/output error.
    package static var ioError: Errno { Errno(rawValue: EIO) }
    /// `EBADF`: the descriptor is not open (or not open for this use).
    package static var badFileDescriptor: Errno { Errno(rawValue: EBADF) }
    /// `EAGAIN` (the same value as `EWOULDBLOCK`): a non-blocking call has nothing to do now.
    package static var wouldBlock: Errno { Errno(rawValue: EAGAIN) }
    /// `ENOMEM`: out of memory (for inotify: too many watches for the kernel's memory).
    package static var noMemory: Errno { Errno(rawValue: ENOMEM) }
    /// `EACCES`: permission denied.
    package static var permissionDenied: Errno { Errno(rawValue: EACCES) }
    /// `EBUSY`: the resource is busy.
    package static var busy: Errno { Errno(rawValue: EBUSY) }
    /// `EEXIST`: the file exists.
    package static var exists: Errno { Errno(rawValue: EEXIST) }
    /// `EXDEV`: a rename or link across file systems.
    package static var crossDevice: Errno { Errno(rawValue: EXDEV) }
    /// `ENOTDIR`: a path component is not a directory.
    package static var notDirectory: Errno { Errno(rawValue: ENOTDIR) }
    /// `EISDIR`: the path is a directory.
    package static var isDirectory: Errno { Errno(rawValue: EISDIR) }
    /// `EINVAL`: an invalid argument (for `inotify_rm_watch`: the watch is already gone).
    package static var invalidArgument: Errno { Errno(rawValue: EINVAL) }
    /// `ENFILE`: the system's open file table is full.
    package static var tooManyOpenFilesInSystem: Errno { Errno(rawValue: ENFILE) }
    /// `EMFILE`: this process has too many open descriptors (for inotify: too many instances).
    package static var tooManyOpenFiles: Errno { Errno(rawValue: EMFILE) }
    /// `EFBIG`: the file is too large (also used for files over a caller's size cap).
    package static var fileTooLarge: Errno { Errno(rawValue: EFBIG) }
    /// `ENOSPC`: no space left on the device (for inotify: the user's watch limit is reached).
    package static var noSpace: Errno { Errno(rawValue: ENOSPC) }
    /// `EROFS`: a read-only file system.
    package static var readOnlyFileSystem: Errno { Errno(rawValue: EROFS) }
    /// `EPIPE`: the other end of a pipe or socket is closed.
    package static var brokenPipe: Errno { Errno(rawValue: EPIPE) }
    /// `ENAMETOOLONG`: a file name or path is too long.
    package static var nameTooLong: Errno { Errno(rawValue: ENAMETOOLONG) }
    /// `ENOTEMPTY`: the directory is not empty.
    package static var directoryNotEmpty: Errno { Errno(rawValue: ENOTEMPTY) }
    /// `ELOOP`: too many symbolic links (or a symbolic link where `O_NOFOLLOW` forbids one).
    package static var loop: Errno { Errno(rawValue: ELOOP) }
    /// `ENOTSOCK`: the descriptor is not a socket.
    package static var notSocket: Errno { Errno(rawValue: ENOTSOCK) }
    /// `EOPNOTSUPP`: the operation is not supported.
    package static var notSupported: Errno { Errno(rawValue: EOPNOTSUPP) }
    /// `EADDRINUSE`: the address (such as a socket path) is already in use.
    package static var addressInUse: Errno { Errno(rawValue: EADDRINUSE) }
    /// `EADDRNOTAVAIL`: the address is not available.
    package static var addressNotAvailable: Errno { Errno(rawValue: EADDRNOTAVAIL) }
    /// `ECONNRESET`: the peer reset the connection.
    package static var connectionReset: Errno { Errno(rawValue: ECONNRESET) }
    /// `ENOTCONN`: the socket is not connected.
    package static var notConnected: Errno { Errno(rawValue: ENOTCONN) }
    /// `ETIMEDOUT`: the operation timed out.
    package static var timedOut: Errno { Errno(rawValue: ETIMEDOUT) }
    /// `ECONNREFUSED`: nothing listens at the address.
    package static var connectionRefused: Errno { Errno(rawValue: ECONNREFUSED) }
    /// `EINPROGRESS`: a non-blocking connect is under way.
    package static var inProgress: Errno { Errno(rawValue: EINPROGRESS) }
    /// `ESTALE`: a stale file handle (network file systems).
    package static var staleFileHandle: Errno { Errno(rawValue: ESTALE) }
    /// `EDQUOT`: the disk quota is exceeded.
    package static var quotaExceeded: Errno { Errno(rawValue: EDQUOT) }

    // glibc's strerrorname_np would give these, but the Glibc module does not import it (it needs _GNU_SOURCE).
    private static let names: [Int32: String] = [
        EPERM: "EPERM", ENOENT: "ENOENT", ESRCH: "ESRCH", EINTR: "EINTR", EIO: "EIO", ENXIO: "ENXIO",
        E2BIG: "E2BIG", ENOEXEC: "ENOEXEC", EBADF: "EBADF", ECHILD: "ECHILD", EAGAIN: "EAGAIN",
        ENOMEM: "ENOMEM", EACCES: "EACCES", EFAULT: "EFAULT", EBUSY: "EBUSY", EEXIST: "EEXIST",
        EXDEV: "EXDEV", ENODEV: "ENODEV", ENOTDIR: "ENOTDIR", EISDIR: "EISDIR", EINVAL: "EINVAL",
        ENFILE: "ENFILE", EMFILE: "EMFILE", ENOTTY: "ENOTTY", ETXTBSY: "ETXTBSY", EFBIG: "EFBIG",
        ENOSPC: "ENOSPC", ESPIPE: "ESPIPE", EROFS: "EROFS", EMLINK: "EMLINK", EPIPE: "EPIPE",
        ERANGE: "ERANGE", EDEADLK: "EDEADLK", ENAMETOOLONG: "ENAMETOOLONG", ENOSYS: "ENOSYS",
        ENOTEMPTY: "ENOTEMPTY", ELOOP: "ELOOP", EOVERFLOW: "EOVERFLOW", EILSEQ: "EILSEQ",
        ENOTSOCK: "ENOTSOCK", EDESTADDRREQ: "EDESTADDRREQ", EMSGSIZE: "EMSGSIZE", EPROTOTYPE: "EPROTOTYPE",
        EPROTONOSUPPORT: "EPROTONOSUPPORT", EOPNOTSUPP: "EOPNOTSUPP", EAFNOSUPPORT: "EAFNOSUPPORT",
        EADDRINUSE: "EADDRINUSE", EADDRNOTAVAIL: "EADDRNOTAVAIL", ENETDOWN: "ENETDOWN",
        ENETUNREACH: "ENETUNREACH", ECONNABORTED: "ECONNABORTED", ECONNRESET: "ECONNRESET",
        ENOBUFS: "ENOBUFS", EISCONN: "EISCONN", ENOTCONN: "ENOTCONN", ETIMEDOUT: "ETIMEDOUT",
        ECONNREFUSED: "ECONNREFUSED", EALREADY: "EALREADY", EINPROGRESS: "EINPROGRESS", ESTALE: "ESTALE",
        EDQUOT: "EDQUOT", ECANCELED: "ECANCELED",
    ]
}
