import Glibc

extension Errno {
    /// `ECONNABORTED`: a connection was aborted before `accept` took it.
    package static var connectionAborted: Errno { Errno(rawValue: ECONNABORTED) }
    /// `ENOSYS`: the kernel (or a seccomp filter in front of it) does not provide the call.
    package static var notImplemented: Errno { Errno(rawValue: ENOSYS) }
}
