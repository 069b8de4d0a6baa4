import Glibc

/// Non-blocking reads and writes on connected sockets, with `EAGAIN` and a peer that went away as values.
package enum SocketIO {
    /// What one read found.
    package enum ReadResult: Sendable, Hashable {
        /// This many bytes (at least one) were read into the buffer.
        case data(Int)
        /// Nothing to read now (`EAGAIN` on a non-blocking socket).
        case wouldBlock
        /// The peer closed the connection or shut down its writing side (end of file), or reset it.
        case closed
    }

    /// Reads what is available from `fd` into `buffer` with `read`, retrying `EINTR`.
    ///
    /// `ECONNRESET` (the peer closed with bytes it had not read) is `.closed` too: either way the
    /// connection is over.
    /// - Precondition: `buffer` is not empty (a read of 0 bytes could not be told from end of file).
    /// - Throws: `SystemError` from `read` for anything else, such as `.badFileDescriptor`.
    package static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(SystemError)
        -> ReadResult
    {
        precondition(!buffer.isEmpty, "SocketIO.read needs a buffer of at least one byte")
        switch retryingOnInterrupt({ Glibc.read(fd, buffer.baseAddress, buffer.count) }) {
        case .success(0):
            return .closed
        case .success(let count):
            return .data(count)
        case .failure(let errno) where errno == .wouldBlock:
            return .wouldBlock
        case .failure(let errno) where errno == .connectionReset:
            return .closed
        case .failure(let errno):
            throw SystemError(operation: "read", errno: errno)
        }
    }

    /// Writes as much of `bytes` as fits now with `send(MSG_NOSIGNAL | MSG_DONTWAIT)`, retrying `EINTR`;
    /// returns the count written, 0 when the socket's buffer is full (`EAGAIN`).
    ///
    /// Never blocks, even on a blocking socket, and never raises `SIGPIPE`.
    /// - Throws: `SystemError` from `send`: `.brokenPipe` or `.connectionReset` when the peer is gone.
    package static func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(SystemError) -> Int {
        guard !bytes.isEmpty else {
            return 0
        }
        let flags = Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT)
        switch retryingOnInterrupt({ send(fd, bytes.baseAddress, bytes.count, flags) }) {
        case .success(let count):
            return count
        case .failure(let errno) where errno == .wouldBlock:
            return 0
        case .failure(let errno):
            throw SystemError(operation: "send", errno: errno)
        }
    }

    /// Shuts down the writing side of `fd` with `shutdown(SHUT_WR)`: the peer reads end of file once it has
    /// read what was sent, and can still write back. Errors (a peer already gone) are ignored.
    package static func shutdownWrite(_ fd: Int32) {
        _ = shutdown(fd, Int32(SHUT_WR))
    }

    /// Closes `fd` with `close`; not retried, since on Linux the descriptor is released even on `EINTR`.
    /// Remove it from any `EventPoller` first.
    package static func close(_ fd: Int32) {
        _ = Glibc.close(fd)
    }
}
