import Glibc

/// A `sockaddr_un` for a file system path or, for the systemd notification socket, a Linux abstract name.
struct UnixSocketAddress {
    private var address = sockaddr_un()
    private var length: socklen_t

    /// The address of the socket file at `path`.
    /// - Throws: `SystemError` naming `operation` and `path`: `.nameTooLong` when `path` does not fit the
    ///   108 bytes of `sun_path` with its terminator, `.noSuchFileOrDirectory` when it is empty,
    ///   `.invalidArgument` when it contains a NUL byte.
    init(path: String, operation: String) throws(SystemError) {
        try self.init(bytes: Array(path.utf8), isAbstract: false, operation: operation, path: path)
    }

    /// The address `name` names: a path, or an abstract name when it starts with "@" (the "@" stands for
    /// the leading NUL byte, as systemd writes `$NOTIFY_SOCKET`).
    /// - Throws: as `init(path:operation:)`.
    init(pathOrAbstractName name: String, operation: String) throws(SystemError) {
        var bytes = Array(name.utf8)
        let isAbstract = bytes.first == UInt8(ascii: "@")
        if isAbstract {
            bytes[0] = 0
        }
        try self.init(bytes: bytes, isAbstract: isAbstract, operation: operation, path: name)
    }

    private init(bytes: [UInt8], isAbstract: Bool, operation: String, path: String) throws(SystemError) {
        guard !bytes.isEmpty else {
            throw SystemError(operation: operation, path: path, errno: .noSuchFileOrDirectory)
        }
        guard !bytes.dropFirst(isAbstract ? 1 : 0).contains(0) else {
            throw SystemError(operation: operation, path: path, errno: .invalidArgument)
        }
        // A path needs room for its NUL terminator; an abstract name is exactly its bytes.
        let used = bytes.count + (isAbstract ? 0 : 1)
        guard used <= MemoryLayout.size(ofValue: address.sun_path) else {
            throw SystemError(operation: operation, path: path, errno: .nameTooLong)
        }
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let pathOffset = MemoryLayout<sockaddr_un>.offset(of: \.sun_path) ?? 2
        length = socklen_t(pathOffset + used)
    }

    /// Calls `body` (`bind`, `connect`, `sendto`...) with the address as a `sockaddr` and its length.
    func withSocketAddress<Value>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> Value) -> Value {
        withUnsafePointer(to: address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) }
        }
    }
}
