import HotStringsProtocol
import LinuxSystem
import Testing

/// Why a test client gave up.
struct ClientError: Error, CustomStringConvertible {
    var description: String
}

/// A raw protocol client for tests: JSON lines over a non-blocking Unix socket, every wait with a deadline.
final class LineClient {
    let fd: Int32
    private var framer = LineFramer(maximumLineLength: 64 << 20)
    private var lines: [[UInt8]] = []
    private var poller: EventPoller?
    /// Set once the daemon closed the connection (end of file or reset).
    private(set) var isClosedByPeer = false
    private var isClosed = false

    /// Connects to the daemon's socket.
    init(socket path: String) throws {
        fd = try UnixSocket.connect(toPath: path, nonBlocking: true)
    }

    deinit { close() }

    /// Closes the socket (the daemon sees the client go away).
    func close() {
        guard !isClosed else { return }
        isClosed = true
        poller?.close()
        SocketIO.close(fd)
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

    /// Sends all of `bytes`, waiting for room in the socket buffer until `timeout`.
    func send(bytes: [UInt8], timeout: Duration = .seconds(5)) throws {
        let deadline = ContinuousClock.now + timeout
        var offset = 0
        while offset < bytes.count {
            let written = try bytes.withUnsafeBytes { buffer throws(SystemError) in
                try SocketIO.write(fd, UnsafeRawBufferPointer(rebasing: buffer[offset...]))
            }
            offset += written
            if written == 0 { try waitFor(.writable, until: deadline) }
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
        let deadline = ContinuousClock.now + timeout
        while lines.isEmpty {
            try readAvailable()
            guard lines.isEmpty else { break }
            if isClosedByPeer { throw ClientError(description: "the daemon closed the connection") }
            try waitFor(.readable, until: deadline)
        }
        return lines.removeFirst()
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
            do {
                try waitFor(.readable, until: deadline)
            } catch {
                return nil
            }
        }
        defer { lines = [] }
        return lines
    }

    /// Reads whatever the socket holds now without waiting; complete lines are queued.
    func readAvailable() throws {
        guard !isClosedByPeer else { return }
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let outcome = try buffer.withUnsafeMutableBytes { bytes throws(SystemError) in
                try SocketIO.read(fd, into: bytes)
            }
            switch outcome {
            case .data(let count):
                buffer.withUnsafeBytes { framer.append(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
                while let line = framer.nextLine() {
                    guard case .success(let bytes) = line else { throw ClientError(description: "line too long") }
                    lines.append(bytes)
                }
            case .wouldBlock:
                return
            case .closed:
                isClosedByPeer = true
                return
            }
        }
    }

    /// Waits until the daemon has sent something and reads one buffer of it, unframed; returns the byte count.
    func readChunk(maximumCount: Int = 4096, timeout: Duration = .seconds(5)) throws -> Int {
        try waitFor(.readable, until: ContinuousClock.now + timeout)
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

    private func waitFor(_ interest: EventPoller.Interest, until deadline: ContinuousClock.Instant) throws {
        let poller = try self.poller ?? {
            let made = try EventPoller()
            try made.add(fd, interest: [])
            self.poller = made
            return made
        }()
        try poller.modify(fd, interest: interest)
        let remaining = deadline - .now
        guard remaining > .zero, !(try poller.wait(timeout: remaining)).isEmpty else {
            let state = interest == .readable ? "readable" : "writable"
            throw ClientError(description: "timed out waiting for the socket to be \(state)")
        }
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
