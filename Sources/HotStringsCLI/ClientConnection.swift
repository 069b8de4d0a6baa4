import HotStringsProtocol
import LinuxSystem
import Synchronization

/// Why a conversation with the daemon failed.
enum ClientError: Error, Sendable, CustomStringConvertible {
    /// `connect` failed: no socket file, no one listening, no permission.
    case cannotConnect(path: String, SystemError)
    /// No complete answer arrived within the timeout.
    case timedOut(path: String, after: Duration)
    /// The daemon closed the connection (or reset it) before answering.
    case connectionLost(path: String)
    /// The daemon's send buffer for us is full and it does not read: our request cannot be sent.
    case notReading(path: String)
    /// A line from the daemon is not a response or event of protocol version 1.
    case malformed(path: String, reason: String)
    /// A read, write or poll failed for another reason.
    case system(SystemError)
    /// `ConnectionInterrupter.interrupt()` was called (SIGINT or SIGTERM) while waiting.
    case interrupted

    var description: String {
        switch self {
        case .cannotConnect(let path, let error): "cannot connect to \(path): \(error.errno)"
        case .timedOut(let path, let after): "no answer from the daemon at \(path) within \(Self.text(after))"
        case .connectionLost(let path): "connection lost: the daemon at \(path) closed the connection"
        case .notReading(let path): "the daemon at \(path) does not read requests"
        case .malformed(let path, let reason): "unexpected reply from the daemon at \(path): \(reason)"
        case .system(let error): "\(error)"
        case .interrupted: "interrupted"
        }
    }

    /// "10 s" or "250 ms".
    private static func text(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        if attoseconds == 0 { return "\(seconds) s" }
        return "\(seconds * 1000 + attoseconds / 1_000_000_000_000_000) ms"
    }
}

/// One line read from the daemon, or why there is none.
enum IncomingLine {
    /// A complete line without its `"\n"`.
    case line([UInt8])
    /// The daemon closed the connection; no partial line is returned.
    case closed
    /// The wait was interrupted from another thread.
    case interrupted
}

/// Wakes a connection blocked in a read from another thread, such as a thread waiting for SIGINT.
final class ConnectionInterrupter: Sendable {
    fileprivate let poller: Poller
    private let flag = Atomic<Bool>(false)

    fileprivate init(poller: Poller) {
        self.poller = poller
    }

    /// Makes the connection's current (or next) wait return `.interrupted`.
    func interrupt() {
        flag.store(true, ordering: .releasing)
        poller.wake()
    }

    /// Whether `interrupt()` has been called.
    var isInterrupted: Bool { flag.load(ordering: .acquiring) }
}

/// A blocking client connection to the daemon: requests with a timeout, then events as lines.
///
/// The socket is non-blocking and every wait goes through a `Poller`, so a read never waits longer than
/// its deadline and another thread can interrupt it. Used from one thread at a time.
final class ClientConnection {
    /// How long `send` waits for its response unless told otherwise.
    static let defaultTimeout: Duration = .seconds(10)
    /// Lines from the daemon may be far longer than requests: a snapshot of a big bundle is one line.
    static let maximumLineLength = 1 << 32

    /// The socket path, for messages.
    let path: String
    /// How long `send` waits for its response.
    var timeout: Duration
    /// Interrupts waits from another thread.
    let interrupter: ConnectionInterrupter
    private let fd: Int32
    private var framer = LineFramer(maximumLineLength: ClientConnection.maximumLineLength)
    private var readBuffer = [UInt8](repeating: 0, count: 64 * 1024)
    private var isPeerClosed = false
    private var isClosed = false
    private var lastID: Int64 = 0
    /// Event lines that arrived while a response was awaited, in order.
    private var pendingEvents: [[UInt8]] = []

    /// Connects to the daemon listening at `path`.
    /// - Throws: `ClientError.cannotConnect` naming the path and keeping errno, or `.system` from `socketpair`.
    init(path: String, timeout: Duration = ClientConnection.defaultTimeout) throws(ClientError) {
        let poller: Poller
        do {
            poller = try Poller()
        } catch {
            throw .system(error)
        }
        do {
            fd = try UnixSocket.connect(toPath: path, nonBlocking: true)
        } catch {
            poller.close()
            throw .cannotConnect(path: path, error)
        }
        do {
            try poller.add(fd)
        } catch {
            SocketIO.close(fd)
            poller.close()
            throw .system(error)
        }
        self.path = path
        self.timeout = timeout
        self.interrupter = ConnectionInterrupter(poller: poller)
    }

    deinit {
        close()
    }

    /// Closes the socket; the daemon sees the connection end.
    func close() {
        guard !isClosed else { return }
        isClosed = true
        interrupter.poller.remove(fd)
        SocketIO.close(fd)
        interrupter.poller.close()
    }

    /// Sends `request` and waits up to `timeout` for its response.
    ///
    /// Returns the response's members other than `id` and `ok`, in the order the daemon wrote them, or the
    /// error it answered with. Events that arrive meanwhile are kept for `nextEvent()`.
    /// - Throws: `ClientError` when the request cannot be sent or no valid response arrives in time.
    func send(_ request: Request) throws(ClientError) -> Result<JSONValue, ProtocolError> {
        lastID += 1
        let id = RequestID.number(lastID)
        try write(RequestEncoder.encode(id: id, request))
        let deadline = ContinuousClock.now + timeout
        while true {
            let line: [UInt8]
            switch try nextLine(deadline: deadline) {
            case .line(let received): line = received
            case .closed: throw .connectionLost(path: path)
            case .interrupted: throw .interrupted
            }
            let value: JSONValue
            do {
                value = try JSONValue(parsing: line)
            } catch {
                throw .malformed(path: path, reason: "invalid JSON: \(error)")
            }
            guard let members = value.objectMembers else { throw .malformed(path: path, reason: "not a JSON object") }
            if value["event"] != nil {
                pendingEvents.append(line)
                continue
            }
            guard let isOK = value["ok"]?.boolValue else {
                throw .malformed(path: path, reason: "a line that is neither an event nor a response")
            }
            if let echoed = value["id"], !echoed.isNull, echoed != id.json {
                throw .malformed(path: path, reason: "a response to request \(echoed) while waiting for \(id)")
            }
            if isOK {
                return .success(.object(members.filter { $0.0 != "id" && $0.0 != "ok" }))
            }
            let message: ServerMessage
            do {
                message = try ServerMessage.decode(line)
            } catch {
                throw .malformed(path: path, reason: error.reason)
            }
            guard case .response(_, .failure(let error)) = message else {
                throw .malformed(path: path, reason: "a failed response without an error")
            }
            return .failure(error)
        }
    }

    /// The next event line as the daemon sent it (without its `"\n"`), waiting as long as it takes.
    ///
    /// Returns `.closed` when the daemon closes the connection and `.interrupted` after `interrupt()`.
    /// - Throws: `ClientError` when reading fails.
    func nextEvent() throws(ClientError) -> IncomingLine {
        if !pendingEvents.isEmpty { return .line(pendingEvents.removeFirst()) }
        return try nextLine(deadline: nil)
    }

    /// The next complete line, reading and waiting until `deadline` (forever when nil).
    private func nextLine(deadline: ContinuousClock.Instant?) throws(ClientError) -> IncomingLine {
        while true {
            switch framer.nextLine() {
            case .success(let line)?:
                return .line(line)
            case .failure(let error)?:
                throw .malformed(path: path, reason: "\(error)")
            case nil:
                break
            }
            if isPeerClosed { return .closed }
            if interrupter.isInterrupted { return .interrupted }
            if try readAvailable() { continue }
            let ready: [Int32]
            do {
                ready = try interrupter.poller.wait(timeout: deadline.map { $0 - .now })
            } catch {
                throw .system(error)
            }
            if ready.isEmpty, !interrupter.isInterrupted, let deadline, ContinuousClock.now >= deadline {
                throw .timedOut(path: path, after: timeout)
            }
        }
    }

    /// Reads what the socket holds into the framer; false when nothing was there.
    private func readAvailable() throws(ClientError) -> Bool {
        let result: Result<SocketIO.ReadResult, SystemError> = readBuffer.withUnsafeMutableBytes { buffer in
            Result { () throws(SystemError) in try SocketIO.read(fd, into: buffer) }
        }
        switch result {
        case .success(.data(let count)):
            framer.append(contentsOf: readBuffer[..<count])
            return true
        case .success(.closed):
            isPeerClosed = true
            return true
        case .success(.wouldBlock):
            return false
        case .failure(let error):
            throw .system(error)
        }
    }

    /// Writes all of `bytes`; requests are small, so a full socket buffer means the daemon stopped reading.
    private func write(_ bytes: [UInt8]) throws(ClientError) {
        var offset = 0
        while offset < bytes.count {
            let result: Result<Int, SystemError> = bytes.withUnsafeBytes { buffer in
                Result { () throws(SystemError) in
                    try SocketIO.write(fd, UnsafeRawBufferPointer(rebasing: buffer[offset...]))
                }
            }
            switch result {
            case .success(0):
                throw .notReading(path: path)
            case .success(let count):
                offset += count
            case .failure(let error) where error.errno == .brokenPipe || error.errno == .connectionReset:
                throw .connectionLost(path: path)
            case .failure(let error):
                throw .system(error)
            }
        }
    }
}
