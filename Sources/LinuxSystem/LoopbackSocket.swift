import CLinuxShims

/// TCP on the loopback address only: the page's listener (`hotstrings serve --web PORT`).
///
/// Nothing here binds another address: remote use goes through a tunnel or a proxy (docs/DEPLOY.md).
package enum LoopbackSocket {
    /// A non-blocking, close-on-exec socket listening on `127.0.0.1:port` (`socket`, `SO_REUSEADDR`, `bind`,
    /// `listen`, in `hotstrings_listen_loopback`); port 0 lets the kernel pick one (see `port(of:)`).
    /// - Throws: `SystemError` from one of those calls (`.addressInUse` when the port is taken).
    package static func listen(port: UInt16, backlog: Int32 = 512) throws(SystemError) -> Int32 {
        try retryingOnInterrupt { hotstrings_listen_loopback(port, backlog) }.get("bind 127.0.0.1:\(port)")
    }

    /// A blocking, close-on-exec connection to `127.0.0.1:port` (`socket`, `connect`, in
    /// `hotstrings_connect_loopback`): the page's client in the benchmarks.
    /// - Throws: `SystemError` from one of those calls (`.connectionRefused` when nothing listens).
    package static func connect(port: UInt16) throws(SystemError) -> Int32 {
        try retryingOnInterrupt { hotstrings_connect_loopback(port) }.get("connect 127.0.0.1:\(port)")
    }

    /// The port `fd` is bound to (`getsockname`).
    /// - Throws: `SystemError` from `getsockname`.
    package static func port(of fd: Int32) throws(SystemError) -> UInt16 {
        UInt16(try retryingOnInterrupt { hotstrings_local_port(fd) }.get("getsockname"))
    }

    /// Takes one pending connection (`accept4` with `SOCK_NONBLOCK | SOCK_CLOEXEC`), nil when none is pending.
    /// - Throws: `SystemError` from `accept4` (such as `.tooManyOpenFiles`).
    package static func accept(_ listener: Int32) throws(SystemError) -> Int32? {
        try UnixSocket.accept(listener)
    }
}

/// Random bytes from the kernel (`getrandom(2)`, blocking only until the pool is first seeded).
package enum KernelRandom {
    /// `count` random bytes.
    /// - Throws: `SystemError` from `getrandom`.
    package static func bytes(_ count: Int) throws(SystemError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        _ = try bytes.withUnsafeMutableBytes { buffer in
            retryingOnInterrupt { hotstrings_random_bytes(buffer.baseAddress, UInt32(buffer.count)) }
        }.get("getrandom")
        return bytes
    }
}
