import HotStringsClient
import HotStringsProtocol
import LinuxSystem
import StringsFormat
import Testing

/// Why a test client gave up.
struct ClientError: Error, CustomStringConvertible {
    var description: String
}

/// A protocol client for tests: the client library's `LineConnection` with the waits tests need, every one
/// with a deadline, plus raw access (garbage, half-close, unframed chunks).
final class LineClient {
    let connection: LineConnection
    /// The socket, for raw reads and for polling many clients at once.
    var fd: Int32 { connection.fd }
    /// Complete lines taken from the connection and not yet handed out.
    private var lines: [[UInt8]] = []
    /// Set once the daemon closed the connection (end of file or reset).
    var isClosedByPeer: Bool { connection.isClosedByPeer }

    /// Connects to the daemon's socket.
    init(socket path: String) throws {
        connection = try LineConnection(path: path, maximumLineLength: 64 << 20)
    }

    /// Closes the socket (the daemon sees the client go away).
    func close() {
        connection.close()
    }

    // MARK: - Writing

    /// Shuts down the writing side, as `nc -N` does at the end of its input; reading still works.
    func shutdownWrite() {
        SocketIO.shutdownWrite(fd)
    }

    /// Sends `text` and a newline.
    func send(_ text: String, timeout: Duration = .seconds(5)) throws {
        try send(bytes: Array((text + "\n").utf8), timeout: timeout)
    }

    /// Sends all of `bytes`, waiting for room in the socket buffer until `timeout`; what arrives meanwhile is
    /// kept.
    /// - Throws: `ClientError` when the daemon takes nothing for `timeout`.
    func send(bytes: [UInt8], timeout: Duration = .seconds(5)) throws {
        connection.queue(bytes: bytes)
        do {
            try connection.send(timeout: timeout)
        } catch .timedOut {
            // What the socket took is sent; the rest is dropped, as by a client that gives up.
            try connection.discardUnsentBytes()
            throw ClientError(description: "timed out waiting for the socket to be writable")
        }
    }

    /// Sends a request and returns the next line, which must be a response.
    func request(_ json: String, timeout: Duration = .seconds(5)) throws -> JSONValue {
        try send(json)
        let response = try nextMessage(timeout: timeout)
        guard response["ok"]?.boolValue != nil else { throw ClientError(description: "not a response: \(response)") }
        return response
    }

    // MARK: - Reading

    /// The next line from the daemon, waiting up to `timeout`.
    /// - Throws: `ClientError` when the deadline passes or the daemon closes the connection first.
    func nextLine(timeout: Duration = .seconds(5)) throws -> [UInt8] {
        if !lines.isEmpty { return lines.removeFirst() }
        do {
            switch try connection.nextLine(timeout: timeout) {
            case .line(let line): return line
            case .closed, .interrupted: throw ClientError(description: "the daemon closed the connection")
            }
        } catch let error as ConnectionError {
            throw ClientError(description: "\(error)")
        }
    }

    /// The next line parsed as JSON.
    func nextMessage(timeout: Duration = .seconds(5)) throws -> JSONValue {
        let line = try nextLine(timeout: timeout)
        do {
            return try JSONValue(parsing: line)
        } catch {
            throw ClientError(description: "not JSON (\(error)): \(String(decoding: line.prefix(200), as: UTF8.self))")
        }
    }

    /// The next message that is the event `name`, skipping the ones before it (returned in `skipped`).
    func nextEvent(_ name: String, timeout: Duration = .seconds(5)) throws -> (event: JSONValue, skipped: [JSONValue]) {
        var skipped: [JSONValue] = []
        let deadline = ContinuousClock.now + timeout
        while true {
            let message = try nextMessage(timeout: max(deadline - .now, .milliseconds(1)))
            if message["event"]?.stringValue == name { return (message, skipped) }
            skipped.append(message)
        }
    }

    /// Reads until the daemon closes the connection; returns the lines read on the way, or nil on timeout.
    func readUntilClosed(timeout: Duration = .seconds(5)) throws -> [[UInt8]]? {
        let deadline = ContinuousClock.now + timeout
        while !isClosedByPeer {
            try readAvailable()
            if isClosedByPeer { break }
            guard ContinuousClock.now < deadline else { return nil }
            try connection.wait(timeout: deadline - .now)
        }
        try readAvailable()
        return takeLines()
    }

    /// Reads whatever the socket holds now without waiting; complete lines are queued.
    func readAvailable() throws {
        while try connection.readAvailable() {
            while let line = try connection.nextLine() { lines.append(line) }
        }
        while let line = try connection.nextLine() { lines.append(line) }
    }

    /// Waits until the daemon has sent something and reads one buffer of it, unframed; returns the byte count.
    func readChunk(maximumCount: Int = 4096, timeout: Duration = .seconds(5)) throws -> Int {
        guard try connection.wait(timeout: timeout) else {
            throw ClientError(description: "timed out waiting for the socket to be readable")
        }
        var buffer = [UInt8](repeating: 0, count: maximumCount)
        let outcome = try buffer.withUnsafeMutableBytes { bytes throws(SystemError) in
            try SocketIO.read(fd, into: bytes)
        }
        guard case .data(let count) = outcome else { throw ClientError(description: "nothing to read: \(outcome)") }
        return count
    }

    /// How many complete lines are waiting to be taken.
    var queuedLineCount: Int { lines.count }

    /// Takes every complete line read so far.
    func takeLines() -> [[UInt8]] {
        defer { lines = [] }
        return lines
    }
}

/// Waits until every client has at least `count` complete lines queued, reading all of them with one poller.
func waitForLines(_ clients: [LineClient], count: Int, timeout: Duration = .seconds(10)) throws {
    let poller = try EventPoller()
    defer { poller.close() }
    var waiting: [Int32: LineClient] = [:]
    for client in clients {
        try client.readAvailable()
        if client.queuedLineCount < count {
            waiting[client.fd] = client
            try poller.add(client.fd, interest: .readable)
        }
    }
    let deadline = ContinuousClock.now + timeout
    while !waiting.isEmpty {
        let remaining = deadline - .now
        guard remaining > .zero else {
            throw ClientError(description: "\(waiting.count) of \(clients.count) clients are still waiting")
        }
        for ready in try poller.wait(timeout: remaining, maximumEvents: 4096) {
            guard let client = waiting[ready.fd] else { continue }
            try client.readAvailable()
            if client.queuedLineCount >= count || client.isClosedByPeer {
                poller.remove(ready.fd)
                waiting[ready.fd] = nil
            }
        }
    }
}

extension JSONValue {
    /// An integer member, for terse assertions.
    func int(_ name: String) -> Int64? { self[name]?.int64Value }
    /// A string member, for terse assertions.
    func string(_ name: String) -> String? { self[name]?.stringValue }
}
