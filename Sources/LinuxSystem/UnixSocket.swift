import CLinuxShims
import Glibc

/// Who is at the other end of a Unix socket, as the kernel recorded it at `connect` (`SO_PEERCRED`).
package struct PeerCredentials: Sendable, Hashable {
    /// The peer's process ID.
    package var processID: Int32
    /// The peer's effective user ID.
    package var userID: UInt32
    /// The peer's effective group ID.
    package var groupID: UInt32

    /// Makes credentials from their parts.
    package init(processID: Int32, userID: UInt32, groupID: UInt32) {
        self.processID = processID
        self.userID = userID
        self.groupID = groupID
    }
}

/// Unix domain stream sockets on file system paths: listening, connecting, accepting and checking peers.
///
/// Every descriptor made here is close-on-exec; listeners and accepted connections are non-blocking.
package enum UnixSocket {
    /// Creates a listening socket at `path` with `socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC)`,
    /// `bind` and `listen`.
    ///
    /// The file gets its final `mode` before `listen`, without touching the process-wide umask (which would
    /// race with every other thread creating files): `fchmod` on the socket first (Linux gives the file the
    /// socket's mode less the umask, so it is never more open than `mode`), `bind`, then, only when the umask
    /// took bits away, the file itself is opened with `O_PATH | O_NOFOLLOW`, checked to be a socket owned by
    /// this user, and changed through `/proc/self/fd/N`: a link swapped in meanwhile is never followed, and in
    /// a sticky or private directory no one else can swap the file.
    /// Nothing is replaced: a file at `path`, stale or not, makes `bind` fail (see `isListening(atPath:)`).
    /// The socket file stays after `close`; the caller removes it.
    /// - Throws: `SystemError` naming `path`: from `bind` (`.addressInUse` when something is there,
    ///   `.nameTooLong` past 107 bytes) or `listen`, or the mode change (`EPERM` when the file is no socket of this user's); the file is removed
    ///   when anything after `bind` fails.
    package static func listen(atPath path: String, mode: UInt32 = 0o600, backlog: Int32 = 1024)
        throws(SystemError) -> Int32
    {
        let address = try UnixSocketAddress(path: path, operation: "bind")
        let fd = try makeSocket(SOCK_STREAM, nonBlocking: true)
        var isBound = false
        do throws(SystemError) {
            // Linux creates the file with the socket inode's mode less the umask.
            _ = try retryingOnInterrupt { fchmod(fd, mode_t(mode)) }.get("fchmod", path: path)
            _ = try retryingOnInterrupt { address.withSocketAddress { bind(fd, $0, $1) } }.get("bind", path: path)
            isBound = true
            try FileSystem.setSocketFileMode(atPath: path, to: mode)
            _ = try retryingOnInterrupt { Glibc.listen(fd, backlog) }.get("listen", path: path)
            return fd
        } catch {
            if isBound {
                _ = unlink(path)
            }
            _ = Glibc.close(fd)
            throw error
        }
    }

    /// Connects to the listening socket at `path` with `socket(SOCK_STREAM | SOCK_CLOEXEC)` and a blocking
    /// `connect`, then makes the socket non-blocking with `fcntl(F_SETFL)` when `nonBlocking`.
    ///
    /// The connect blocks only while the listener's backlog is full.
    /// - Throws: `SystemError` naming `path`: from `connect` (`.connectionRefused` for a socket file no one
    ///   listens on, `.noSuchFileOrDirectory` when there is no file, `.permissionDenied`), or `fcntl`.
    package static func connect(toPath path: String, nonBlocking: Bool = false) throws(SystemError) -> Int32 {
        let address = try UnixSocketAddress(path: path, operation: "connect")
        let fd = try makeSocket(SOCK_STREAM, nonBlocking: false)
        do throws(SystemError) {
            // A Unix connect interrupted while waiting for backlog room has changed nothing; it can be retried.
            _ = try retryingOnInterrupt { address.withSocketAddress { Glibc.connect(fd, $0, $1) } }
                .get("connect", path: path)
            if nonBlocking {
                let flags = try retryingOnInterrupt { fcntl(fd, F_GETFL) }.get("fcntl", path: path)
                _ = try retryingOnInterrupt { fcntl(fd, F_SETFL, flags | O_NONBLOCK) }.get("fcntl", path: path)
            }
            return fd
        } catch {
            _ = Glibc.close(fd)
            throw error
        }
    }

    /// Takes one pending connection from `listener` with `accept4(SOCK_NONBLOCK | SOCK_CLOEXEC)`.
    ///
    /// Returns nil when none is pending (`EAGAIN`) or the one pending was aborted (`ECONNABORTED`).
    /// - Throws: `SystemError` from `accept4`, such as `.tooManyOpenFiles`; the connection then stays pending
    ///   and the listener stays readable, so a caller must not simply wait and retry at once.
    package static func accept(_ listener: Int32) throws(SystemError) -> Int32? {
        switch retryingOnInterrupt({ hotstrings_accept(listener) }) {
        case .success(let fd):
            return fd
        case .failure(let errno) where errno == .wouldBlock || errno == .connectionAborted:
            return nil
        case .failure(let errno):
            throw SystemError(operation: "accept4", errno: errno)
        }
    }

    /// The process, user and group of the peer of the connected socket `fd`, from
    /// `getsockopt(SO_PEERCRED)`; for an accepted connection, the client that called `connect`.
    /// - Throws: `SystemError` from `getsockopt` (`.notSocket`, `.badFileDescriptor`).
    package static func peerCredentials(_ fd: Int32) throws(SystemError) -> PeerCredentials {
        var credentials = PeerCredentials(processID: 0, userID: 0, groupID: 0)
        _ = try retryingOnInterrupt {
            hotstrings_peer_credentials(fd, &credentials.processID, &credentials.userID, &credentials.groupID)
        }.get("getsockopt")
        return credentials
    }

    /// Whether a process accepts connections at `path`, tested with a non-blocking `connect` that is closed
    /// at once (the listener sees a connection that ends without a byte).
    ///
    /// True when the connect succeeds or finds the backlog full (`EAGAIN`); false for a missing file, a
    /// stale socket file left by a process that died (`ECONNREFUSED`), a file that is not a socket, or a path
    /// this user may not connect to.
    package static func isListening(atPath path: String) -> Bool {
        guard let address = try? UnixSocketAddress(path: path, operation: "connect"),
            let fd = try? makeSocket(SOCK_STREAM, nonBlocking: true)
        else {
            return false
        }
        defer { _ = Glibc.close(fd) }
        switch retryingOnInterrupt({ address.withSocketAddress { Glibc.connect(fd, $0, $1) } }) {
        case .success:
            return true
        case .failure(let errno):
            return errno == .wouldBlock
        }
    }

    /// Sets the kernel's send buffer for `fd` with `setsockopt(SO_SNDBUF)` (which doubles it and applies a
    /// minimum); a small one makes a slow reader show up after few bytes. Errors are ignored.
    package static func setSendBufferSize(_ fd: Int32, _ bytes: Int32) {
        var value = bytes
        _ = setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &value, socklen_t(MemoryLayout<Int32>.size))
    }

    /// A connected pair of stream sockets from `socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC)`, both
    /// non-blocking when `nonBlocking`: a connection without a listener, for tests.
    /// - Throws: `SystemError` from `socketpair`.
    package static func makePair(nonBlocking: Bool = true) throws(SystemError) -> (Int32, Int32) {
        var pair: [Int32] = [-1, -1]
        let type = socketType(SOCK_STREAM, nonBlocking: nonBlocking)
        _ = try retryingOnInterrupt { socketpair(AF_UNIX, type, 0, &pair) }.get("socketpair")
        return (pair[0], pair[1])
    }

    /// A datagram socket bound to `name` (a path, or an abstract name when it starts with "@") with
    /// `socket(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC)` and `bind`: a stand-in for systemd's
    /// notification socket in tests. Read it with `SocketIO.read`, one datagram per read.
    /// - Throws: `SystemError` naming `name`, from `socket` or `bind`.
    package static func bindDatagram(atPath name: String) throws(SystemError) -> Int32 {
        let address = try UnixSocketAddress(pathOrAbstractName: name, operation: "bind")
        let fd = try makeSocket(SOCK_DGRAM, nonBlocking: true)
        if case .failure(let errno) = retryingOnInterrupt({ address.withSocketAddress { bind(fd, $0, $1) } }) {
            _ = Glibc.close(fd)
            throw SystemError(operation: "bind", path: name, errno: errno)
        }
        return fd
    }

    /// A close-on-exec `AF_UNIX` socket of `type` from `socket`.
    static func makeSocket(_ type: __socket_type, nonBlocking: Bool) throws(SystemError) -> Int32 {
        try retryingOnInterrupt { socket(AF_UNIX, socketType(type, nonBlocking: nonBlocking), 0) }.get("socket")
    }

    private static func socketType(_ type: __socket_type, nonBlocking: Bool) -> Int32 {
        let flags = Int32(SOCK_CLOEXEC.rawValue) | (nonBlocking ? Int32(SOCK_NONBLOCK.rawValue) : 0)
        return Int32(type.rawValue) | flags
    }
}
