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

    /// Reads what is available from `fd` into `buffer` (its whole length): `read(_:into:)` as a value.
    /// - Precondition: `buffer` is not empty (a read of 0 bytes could not be told from end of file).
    package static func receive(_ fd: Int32, into buffer: inout [UInt8]) -> Transfer {
        let result = buffer.withUnsafeMutableBytes { bytes in
            Result { () throws(SystemError) in try read(fd, into: bytes) }
        }
        switch result {
        case .success(.data(let count)): return .bytes(count)
        case .success(.wouldBlock): return .wouldBlock
        case .success(.closed): return .closed
        case .failure(let error): return .failed(error)
        }
    }

    /// Writes as much of `bytes` as fits now: `write(_:_:)` as a value, a peer that is gone (`EPIPE`,
    /// `ECONNRESET`) being `.closed`. An empty `bytes` is `.bytes(0)`.
    package static func transmit(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Transfer {
        guard !bytes.isEmpty else { return .bytes(0) }
        do throws(SystemError) {
            let count = try write(fd, bytes)
            return count == 0 ? .wouldBlock : .bytes(count)
        } catch where error.errno == .brokenPipe || error.errno == .connectionReset {
            return .closed
        } catch {
            return .failed(error)
        }
    }
}
