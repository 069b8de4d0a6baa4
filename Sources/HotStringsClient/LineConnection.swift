import HotStringsProtocol
import LinuxSystem
import Synchronization

/// One connection to the daemon's line protocol: a non-blocking Unix socket whose server was checked, a line
/// framer, a write buffer, request IDs, and waits with deadlines.
///
/// The one connection type of the client library, the CLI commands, the benchmark and the tests. It can be
/// driven by a loop (`queue`, `flush`, `readAvailable`, `nextLine`, `wait`) as `SocketTransport` does, or used
/// in a blocking request/response style (`request(_:timeout:)`, `nextEvent()`; see `LineConnection+Blocking`).
/// Every wait goes through the connection's `EventPoller`, so none lasts longer than its deadline and another
/// thread can cut it short through `interrupter`. Used from one thread at a time.
package final class LineConnection {
    /// No limit on a line from the daemon: a snapshot of a big bundle is one line of megabytes.
    package static let unlimitedLineLength = 1 << 32

    /// The socket path, for messages.
    package let path: String
    /// The connected socket; for tests that read raw bytes, and for callers that poll many connections.
    package let fd: Int32
    /// Who listens at the other end, as the kernel recorded it.
    package let server: PeerCredentials
    /// Wakes or interrupts this connection's waits from another thread.
    package let interrupter: ConnectionInterrupter
    var framer: LineFramer
    private var readBuffer = [UInt8](repeating: 0, count: 64 * 1024)
    private var outbox: [UInt8] = []
    private var isWatchingWritable = false
    private var lastID: Int64 = 0
    private var isClosed = false
    /// Whether the daemon closed the connection (end of file or reset); lines read before stay available.
    package private(set) var isClosedByPeer = false
    /// Event lines that arrived while a blocking request waited for its response, in order.
    var pendingEvents: [[UInt8]] = []

    /// Connects to the daemon at `path` and checks with `SO_PEERCRED` that `trust` believes its server, before
    /// anything is sent or read.
    /// - Throws: `.cannotConnect` naming the path and keeping errno, `.untrustedServer` with the server's
    ///   credentials (the socket is closed), or `.system` when the poller cannot be made.
    package init(path: String, trust: ServerTrust = ServerTrust(),
                 maximumLineLength: Int = LineConnection.unlimitedLineLength) throws(ConnectionError) {
        let fd: Int32
        do {
            fd = try UnixSocket.connect(toPath: path, nonBlocking: true)
        } catch {
            throw .cannotConnect(path: path, error)
        }
        do {
            server = try UnixSocket.peerCredentials(fd)
        } catch {
            SocketIO.close(fd)
            throw .system(error)
        }
        guard trust.trusts(userID: server.userID) else {
            SocketIO.close(fd)
            throw .untrustedServer(path: path, server: server)
        }
        let poller: EventPoller
        do {
            poller = try EventPoller()
        } catch {
            SocketIO.close(fd)
            throw .system(error)
        }
        do {
            try poller.add(fd, interest: .readable)
        } catch {
            poller.close()
            SocketIO.close(fd)
            throw .system(error)
        }
        self.path = path
        self.fd = fd
        self.interrupter = ConnectionInterrupter(poller: poller)
        framer = LineFramer(maximumLineLength: maximumLineLength)
    }

    deinit {
        close()
    }

    /// Closes the socket and the poller; the daemon sees the connection end. Later calls do nothing.
    package func close() {
        guard !isClosed else { return }
        isClosed = true
        interrupter.poller.remove(fd)
        SocketIO.close(fd)
        interrupter.poller.close()
    }

    // MARK: - Writing

    /// Queues `request` with the next request ID and returns the ID; `flush()` sends it.
    @discardableResult
    package func queue(_ request: Request) -> Int64 {
        lastID += 1
        outbox.append(contentsOf: RequestEncoder.encode(id: .number(lastID), request))
        return lastID
    }

    /// Queues raw bytes (a hand-written request line, or garbage for a test); `flush()` sends them.
    package func queue(bytes: some Sequence<UInt8>) {
        outbox.append(contentsOf: bytes)
    }

    /// Drops the queued bytes the socket has not taken, as a sender that gives up does.
    package func discardUnsentBytes() throws(ConnectionError) {
        outbox.removeAll()
        try watchWritable(false)
    }

    /// Whether queued bytes wait for room in the socket.
    package var hasUnsentBytes: Bool { !outbox.isEmpty }

    /// Writes as much of the queue as the socket takes now; the rest waits, and the poller watches for room.
    /// - Throws: `.connectionLost` when the daemon is gone, `.system` for other failures.
    package func flush() throws(ConnectionError) {
        if !outbox.isEmpty {
            let result: Result<Int, SystemError> = outbox.withUnsafeBytes { bytes in
                Result { () throws(SystemError) in try SocketIO.write(fd, bytes) }
            }
            switch result {
            case .success(let count):
                outbox.removeFirst(count)
            case .failure(let error) where error.errno == .brokenPipe || error.errno == .connectionReset:
                throw .connectionLost(path: path)
            case .failure(let error):
                throw .system(error)
            }
        }
        try watchWritable(!outbox.isEmpty)
    }

    private func watchWritable(_ isWanted: Bool) throws(ConnectionError) {
        guard isWanted != isWatchingWritable else { return }
        try setInterest(isWanted ? [.readable, .writable] : .readable)
        isWatchingWritable = isWanted
    }

    private func setInterest(_ interest: EventPoller.Interest) throws(ConnectionError) {
        do {
            try interrupter.poller.modify(fd, interest: interest)
        } catch {
            throw .system(error)
        }
    }

    // MARK: - Reading

    /// Reads what the socket holds now into the framer, without waiting; returns whether anything arrived
    /// (bytes, or the end of the connection).
    ///
    /// Stops after a read that did not fill the buffer: the socket was empty then, and a level-triggered wait
    /// reports anything that arrived since. That saves a read per message on the request/response path.
    /// - Throws: `.system` when a read fails for another reason than the peer going away.
    @discardableResult
    package func readAvailable() throws(ConnectionError) -> Bool {
        var hasArrived = false
        while !isClosedByPeer {
            let result: Result<SocketIO.ReadResult, SystemError> = readBuffer.withUnsafeMutableBytes { buffer in
                Result { () throws(SystemError) in try SocketIO.read(fd, into: buffer) }
            }
            switch result {
            case .success(.data(let count)):
                framer.append(contentsOf: readBuffer[..<count])
                hasArrived = true
                if count < readBuffer.count { return true }
            case .success(.closed):
                isClosedByPeer = true
                hasArrived = true
            case .success(.wouldBlock):
                return hasArrived
            case .failure(let error):
                throw .system(error)
            }
        }
        return hasArrived
    }

    /// The next complete line read so far, without its `"\n"`; nil when none is complete yet.
    /// - Throws: `.malformed` when a line is longer than the connection's limit.
    package func nextLine() throws(ConnectionError) -> [UInt8]? {
        switch framer.nextLine() {
        case .success(let line)?: line
        case .failure(let error)?: throw .malformed(path: path, reason: "\(error)")
        case nil: nil
        }
    }

    // MARK: - Waiting

    /// Waits until the socket has room to write (or `interrupter` wakes it, or `timeout` passes), whatever
    /// there is to read: for a sender that must not read, such as a test of a client that never reads.
    /// Returns false after the timeout with no room.
    /// - Throws: `.system` when the wait fails.
    @discardableResult
    package func waitForRoom(timeout: Duration?) throws(ConnectionError) -> Bool {
        try setInterest(.writable)
        let result = Result { () throws(SystemError) in
            try interrupter.poller.wait(timeout: timeout.map { max($0, .zero) })
        }
        try setInterest(isWatchingWritable ? [.readable, .writable] : .readable)
        do {
            return try !result.get().isEmpty
        } catch {
            throw .system(error)
        }
    }

    /// Waits until the socket is readable, has room for queued bytes, `interrupter` wakes it, or `timeout`
    /// passes (nil: no limit); returns false after the timeout with nothing ready.
    /// - Throws: `.system` when the wait fails.
    @discardableResult
    package func wait(timeout: Duration?) throws(ConnectionError) -> Bool {
        do {
            return try !interrupter.poller.wait(timeout: timeout.map { max($0, .zero) }).isEmpty
        } catch {
            throw .system(error)
        }
    }
}

/// Wakes a connection's wait from another thread: to hand it new work, or to interrupt it for good (SIGINT).
package final class ConnectionInterrupter: Sendable {
    /// The connection's poller.
    let poller: EventPoller
    private let flag = Atomic<Bool>(false)

    init(poller: EventPoller) {
        self.poller = poller
    }

    /// Makes the connection's current (or next) wait return, and blocking calls throw `.interrupted`.
    package func interrupt() {
        flag.store(true, ordering: .releasing)
        poller.wake()
    }

    /// Makes the connection's current (or next) wait return, so that its loop looks at new work.
    package func wake() {
        poller.wake()
    }

    /// Whether `interrupt()` has been called.
    package var isInterrupted: Bool { flag.load(ordering: .acquiring) }
}
