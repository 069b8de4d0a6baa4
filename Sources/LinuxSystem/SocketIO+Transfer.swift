import Glibc

extension SocketIO {
    /// What one non-blocking read or write on a connected socket did, errors included, as a value.
    ///
    /// The typed outcome a connection's loop switches on, instead of wrapping each throwing call in a
    /// `Result` closure at every call site.
    package enum Transfer: Sendable, Hashable {
        /// This many bytes (at least one) moved.
        case bytes(Int)
        /// Nothing can move now (`EAGAIN`): the socket's buffer is empty (read) or full (write).
        case wouldBlock
        /// The peer is gone: end of file or `ECONNRESET` on a read; `EPIPE` or `ECONNRESET` on a write.
        case closed
        /// Any other failure, such as `EBADF`.
        case failed(SystemError)
    }

    /// Reads what is available from `fd` into `buffer` (its whole length) with `read`, retrying `EINTR`.
    /// - Precondition: `buffer` is not empty (a read of 0 bytes could not be told from end of file).
    package static func receive(_ fd: Int32, into buffer: inout [UInt8]) -> Transfer {
        precondition(!buffer.isEmpty, "SocketIO.receive needs a buffer of at least one byte")
        let result = buffer.withUnsafeMutableBytes { bytes in
            retryingOnInterrupt { Glibc.read(fd, bytes.baseAddress, bytes.count) }
        }
        switch result {
        case .success(0):
            return .closed
        case .success(let count):
            return .bytes(count)
        case .failure(let errno) where errno == .wouldBlock:
            return .wouldBlock
        case .failure(let errno) where errno == .connectionReset:
            return .closed
        case .failure(let errno):
            return .failed(SystemError(operation: "read", errno: errno))
        }
    }

    /// Writes as much of `bytes` as fits now with `send(MSG_NOSIGNAL | MSG_DONTWAIT)`, retrying `EINTR`.
    ///
    /// Never blocks and never raises `SIGPIPE`. An empty `bytes` is `.bytes(0)`.
    package static func transmit(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Transfer {
        guard !bytes.isEmpty else { return .bytes(0) }
        let flags = Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT)
        switch retryingOnInterrupt({ Glibc.send(fd, bytes.baseAddress, bytes.count, flags) }) {
        case .success(let count):
            return .bytes(count)
        case .failure(let errno) where errno == .wouldBlock:
            return .wouldBlock
        case .failure(let errno) where errno == .brokenPipe || errno == .connectionReset:
            return .closed
        case .failure(let errno):
            return .failed(SystemError(operation: "send", errno: errno))
        }
    }
}
