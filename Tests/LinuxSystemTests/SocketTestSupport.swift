import HotStringsTestSupport
import LinuxSystem
import Testing

/// A listener at `<directory>/server.sock` with one client connected and its connection accepted.
struct SocketConnection {
    var path: String
    var listener: Int32
    /// The connecting end, blocking unless asked otherwise.
    var client: Int32
    /// The accepted end, non-blocking.
    var server: Int32

    /// Closes the descriptors still open; a test that closes an end early sets it to -1.
    func close() {
        for fd in [listener, client, server] where fd >= 0 {
            SocketIO.close(fd)
        }
    }
}

/// Runs `body` with a fresh connection in a new temporary directory, closing everything afterwards.
func withSocketConnection<Result>(clientNonBlocking: Bool = true, _ body: (inout SocketConnection) throws -> Result)
    throws -> Result
{
    try withTemporaryDirectory { directory throws in
        let path = "\(directory)/server.sock"
        let listener = try UnixSocket.listen(atPath: path)
        let client = try UnixSocket.connect(toPath: path, nonBlocking: clientNonBlocking)
        let server = try UnixSocket.accept(listener) ?? -1
        var connection = SocketConnection(path: path, listener: listener, client: client, server: server)
        defer { connection.close() }
        try #require(server >= 0)
        return try body(&connection)
    }
}

/// Writes all of `bytes` to `fd` with `SocketIO.write`, which must take them without a full buffer.
func send(_ bytes: [UInt8], to fd: Int32) throws -> Int {
    try bytes.withUnsafeBytes { buffer throws(SystemError) in try SocketIO.write(fd, buffer) }
}

/// One `SocketIO.read` of up to `maximumCount` bytes, with the bytes it read.
func receive(from fd: Int32, maximumCount: Int = 4096) throws -> (SocketIO.ReadResult, [UInt8]) {
    var bytes = [UInt8](repeating: 0, count: maximumCount)
    let result = try bytes.withUnsafeMutableBytes { buffer throws(SystemError) in try SocketIO.read(fd, into: buffer) }
    guard case .data(let count) = result else {
        return (result, [])
    }
    return (result, Array(bytes.prefix(count)))
}
