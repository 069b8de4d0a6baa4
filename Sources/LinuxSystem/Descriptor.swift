import Glibc

/// Plain calls on raw descriptors, for the few places that hold one directly (tests, child processes).
package enum Descriptor {
    /// Creates a pipe with `pipe` and marks both ends close-on-exec with `fcntl(F_SETFD)`.
    ///
    /// `pipe2`, which would do both at once, is not imported by the Glibc module; between the two calls a
    /// concurrent `fork` + `exec` elsewhere in the process could inherit the ends.
    /// - Throws: `SystemError` from `pipe` or `fcntl`.
    package static func makePipe() throws(SystemError) -> (reading: Int32, writing: Int32) {
        var ends: [Int32] = [-1, -1]
        _ = try retryingOnInterrupt { pipe(&ends) }.get("pipe")
        for fd in ends {
            if case .failure(let errno) = retryingOnInterrupt({ fcntl(fd, F_SETFD, FD_CLOEXEC) }) {
                _ = Glibc.close(ends[0])
                _ = Glibc.close(ends[1])
                throw SystemError(operation: "fcntl", errno: errno)
            }
        }
        return (ends[0], ends[1])
    }

    /// Writes `bytes` to `fd` with `write`, returning how many were written (possibly fewer).
    /// - Throws: `SystemError` from `write`.
    package static func write(_ bytes: [UInt8], to fd: Int32) throws(SystemError) -> Int {
        // withUnsafeBytes only rethrows untyped errors, so the closure returns the Result and the throw is here.
        try bytes.withUnsafeBytes { buffer in
            retryingOnInterrupt { Glibc.write(fd, buffer.baseAddress, buffer.count) }
        }.get("write")
    }

    /// Reads up to `maximumCount` bytes from `fd` with `read`; [] at end of file.
    /// - Throws: `SystemError` from `read` (`.wouldBlock` on an empty non-blocking descriptor).
    package static func read(from fd: Int32, maximumCount: Int) throws(SystemError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: maximumCount)
        let count = try bytes.withUnsafeMutableBytes { buffer in
            retryingOnInterrupt { Glibc.read(fd, buffer.baseAddress, buffer.count) }
        }.get("read")
        bytes.removeLast(bytes.count - count)
        return bytes
    }

    /// Everything `fd` gives until end of file (standard input, a pipe, a file), read with `read` in 64 KiB steps.
    /// - Throws: `SystemError` from `read`, naming `path` when one is given.
    package static func readToEnd(from fd: Int32, path: String? = nil) throws(SystemError) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = try chunk.withUnsafeMutableBytes { buffer in
                retryingOnInterrupt { Glibc.read(fd, buffer.baseAddress, buffer.count) }
            }.get("read", path: path)
            if count == 0 { return bytes }
            bytes += chunk[..<count]
        }
    }

    /// Closes `fd` with `close`; not retried, since on Linux the descriptor is released even on `EINTR`.
    package static func close(_ fd: Int32) {
        _ = Glibc.close(fd)
    }
}
