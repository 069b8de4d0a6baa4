/// A failed system call: which call, on which path if any, and the `errno` it left.
///
/// Thrown at the edge of every wrapper in this module, so a caller can both show a complete message and
/// switch on `errno`.
package struct SystemError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The C function that failed, such as "open" or "inotify_add_watch".
    package var operation: String
    /// The path the call was given, when it took one.
    package var path: String?
    /// The error number the call left.
    package var errno: Errno

    /// Describes a failure of `operation` (on `path`, if any) with `errno`.
    package init(operation: String, path: String? = nil, errno: Errno) {
        self.operation = operation
        self.path = path
        self.errno = errno
    }

    /// The call, the path and the error, such as "open(/x/y.strings): Permission denied (EACCES)".
    package var description: String {
        if let path {
            return "\(operation)(\(path)): \(errno)"
        }
        return "\(operation): \(errno)"
    }
}

extension Result where Failure == Errno {
    /// The value, or a `SystemError` naming `operation` and `path` that keeps the errno.
    @inline(__always)
    func get(_ operation: String, path: String? = nil) throws(SystemError) -> Success {
        switch self {
        case .success(let value):
            return value
        case .failure(let errno):
            throw SystemError(operation: operation, path: path, errno: errno)
        }
    }
}
