@testable import HotStringsFront
import LinuxSystem
import Synchronization

/// Fake sockets and a fake level-triggered poller for the I/O loop, as swift-nio's `EmbeddedChannel` is for a
/// handler: the test connects clients to a listener, writes what they send, reads what the loop wrote, shuts down or
/// closes their ends, and fills their receive buffers; the loop (`LoopHarness`) makes its calls here, on the test's
/// thread, one pass at a time.
///
/// A wait never blocks: it reports what is ready now, as epoll would (readable: bytes to read, the peer's end of
/// input or hang-up; writable: room in the peer's receive buffer; hang-up: the peer closed, whatever the interest).
final class EmbeddedLoopIO: LoopIO {
    /// One connection: both ends' buffers and what each end did.
    struct Socket {
        /// Bytes the client sent that the loop has not read.
        var toLoop: [UInt8] = []
        /// Bytes the loop wrote that the client has not read.
        var toClient: [UInt8] = []
        /// How many unread bytes the client's receive buffer holds before a write blocks.
        var capacity: Int
        var credentials: PeerCredentials
        var clientShutWrite = false
        var clientClosed = false
        var loopShutWrite = false
        var loopClosed = false
    }

    private struct Wires {
        var sockets: [Int32: Socket] = [:]
        /// Connections made to each listener and not accepted yet.
        var pending: [Int32: [Int32]] = [:]
        /// What the poller waits for, by descriptor.
        var interests: [Int32: EventPoller.Interest] = [:]
        var nextDescriptor: Int32 = 100
        /// The error the next accepts throw, as many times as `acceptFailures` says.
        var acceptFailures = 0
        var modifies = 0
        var lastTimeout: Duration??
    }

    private let wires = Mutex(Wires())

    /// The receive buffer of a new client (a Unix socket's is a few hundred kilobytes).
    static let defaultCapacity = 256 << 10

    // MARK: - The test's side

    /// Makes a listener descriptor, not in the poller yet.
    func makeListener() -> Int32 {
        wires.withLock { wires in
            defer { wires.nextDescriptor += 1 }
            wires.pending[wires.nextDescriptor] = []
            return wires.nextDescriptor
        }
    }

    /// Connects a client to `listener`: pending until the loop accepts it. Returns the loop's end's descriptor.
    func connect(to listener: Int32, as credentials: PeerCredentials = PeerCredentials(processID: 1, userID: 1000,
                                                                                          groupID: 1000)) -> Int32 {
        wires.withLock { wires in
            let fd = wires.nextDescriptor
            wires.nextDescriptor += 1
            wires.sockets[fd] = Socket(capacity: Self.defaultCapacity, credentials: credentials)
            wires.pending[listener, default: []].append(fd)
            return fd
        }
    }

    /// The client of `fd` sends `bytes`.
    func send(_ bytes: [UInt8], on fd: Int32) {
        wires.withLock { $0.sockets[fd]?.toLoop += bytes }
    }

    /// Takes what the loop wrote to `fd` and the client has not read.
    func read(_ fd: Int32, upTo count: Int = .max) -> [UInt8] {
        wires.withLock { wires in
            guard let socket = wires.sockets[fd] else { return [] }
            let taken = Array(socket.toClient.prefix(count))
            wires.sockets[fd]!.toClient.removeFirst(taken.count)
            return taken
        }
    }

    /// The client shuts down its writing side: the loop reads end of file after what it sent.
    func shutdownClientWrite(_ fd: Int32) { wires.withLock { $0.sockets[fd]?.clientShutWrite = true } }

    /// The client closes its end: a hang-up, and writes fail.
    func closeClient(_ fd: Int32) { wires.withLock { $0.sockets[fd]?.clientClosed = true } }

    /// Sets how many unread bytes the client's receive buffer holds (0: the client reads nothing more).
    func setCapacity(_ capacity: Int, of fd: Int32) { wires.withLock { $0.sockets[fd]?.capacity = capacity } }

    /// The next `count` accepts fail with EMFILE.
    func failAccepts(_ count: Int) { wires.withLock { $0.acceptFailures = count } }

    /// The state of `fd`'s connection.
    func socket(_ fd: Int32) -> Socket? { wires.withLock { $0.sockets[fd] } }

    /// Whether the poller has `fd`.
    func isWatched(_ fd: Int32) -> Bool { wires.withLock { $0.interests[fd] != nil } }

    /// What the poller waits for on `fd`.
    func interest(of fd: Int32) -> EventPoller.Interest? { wires.withLock { $0.interests[fd] } }

    /// How many times the loop changed an interest (`epoll_ctl(EPOLL_CTL_MOD)`).
    var modifyCount: Int { wires.withLock { $0.modifies } }

    /// The timeout of the last wait (nil inside: none).
    var lastTimeout: Duration?? { wires.withLock { $0.lastTimeout } }

    /// The descriptors a wait would report now.
    var readyDescriptors: [Int32] { wires.withLock { Self.ready($0).map(\.fd) } }

    // MARK: - The loop's side

    func add(_ fd: Int32, interest: EventPoller.Interest) throws(SystemError) {
        try wires.withLock { wires throws(SystemError) in
            guard wires.interests[fd] == nil else { throw SystemError(operation: "epoll_ctl", errno: .exists) }
            wires.interests[fd] = interest
        }
    }

    func modify(_ fd: Int32, interest: EventPoller.Interest) throws(SystemError) {
        try wires.withLock { wires throws(SystemError) in
            guard wires.interests[fd] != nil else {
                throw SystemError(operation: "epoll_ctl", errno: .noSuchFileOrDirectory)
            }
            wires.interests[fd] = interest
            wires.modifies += 1
        }
    }

    func remove(_ fd: Int32) { wires.withLock { _ = $0.interests.removeValue(forKey: fd) } }

    func wait(timeout: Duration?) throws(SystemError) -> [EventPoller.Ready] {
        wires.withLock { wires in
            wires.lastTimeout = .some(timeout)
            return Self.ready(wires)
        }
    }

    func wake() {}

    func accept(_ listener: Int32) throws(SystemError) -> Int32? {
        try wires.withLock { wires throws(SystemError) -> Int32? in
            if wires.acceptFailures > 0 {
                wires.acceptFailures -= 1
                throw SystemError(operation: "accept4", errno: .tooManyOpenFiles)
            }
            guard var queue = wires.pending[listener], !queue.isEmpty else { return nil }
            let fd = queue.removeFirst()
            wires.pending[listener] = queue
            return fd
        }
    }

    func peerCredentials(_ fd: Int32) throws(SystemError) -> PeerCredentials {
        try wires.withLock { wires throws(SystemError) in
            guard let socket = wires.sockets[fd] else { throw SystemError(operation: "getsockopt", errno: .badFileDescriptor) }
            return socket.credentials
        }
    }

    func receive(_ fd: Int32, into buffer: inout [UInt8]) -> SocketIO.Transfer {
        wires.withLock { wires in
            guard let socket = wires.sockets[fd], !socket.loopClosed else {
                return .failed(SystemError(operation: "read", errno: .badFileDescriptor))
            }
            guard !socket.toLoop.isEmpty else { return socket.clientShutWrite || socket.clientClosed ? .closed : .wouldBlock }
            let count = min(buffer.count, socket.toLoop.count)
            buffer.replaceSubrange(0..<count, with: socket.toLoop[..<count])
            wires.sockets[fd]!.toLoop.removeFirst(count)
            return .bytes(count)
        }
    }

    func transmit(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> SocketIO.Transfer {
        wires.withLock { wires in
            guard let socket = wires.sockets[fd], !socket.loopClosed, !socket.loopShutWrite else {
                return .failed(SystemError(operation: "send", errno: .badFileDescriptor))
            }
            guard !socket.clientClosed else { return .closed }
            let room = socket.capacity - socket.toClient.count
            guard room > 0 else { return .wouldBlock }
            let count = min(room, bytes.count)
            wires.sockets[fd]!.toClient += bytes.prefix(count)
            return .bytes(count)
        }
    }

    func shutdownWrite(_ fd: Int32) { wires.withLock { $0.sockets[fd]?.loopShutWrite = true } }

    func close(_ fd: Int32) {
        wires.withLock { wires in
            wires.sockets[fd]?.loopClosed = true
            wires.interests[fd] = nil
        }
    }

    /// What epoll would report now, by descriptor.
    private static func ready(_ wires: Wires) -> [EventPoller.Ready] {
        wires.interests.keys.sorted().compactMap { fd in
            let interest = wires.interests[fd]!
            if let pending = wires.pending[fd] {
                return interest.contains(.readable) && !pending.isEmpty
                    ? EventPoller.Ready(fd: fd, isReadable: true, isWritable: false, isHangUp: false) : nil
            }
            guard let socket = wires.sockets[fd], !socket.loopClosed else { return nil }
            let isReadable = interest.contains(.readable)
                && (!socket.toLoop.isEmpty || socket.clientShutWrite || socket.clientClosed)
            let isWritable = interest.contains(.writable) && !socket.clientClosed
                && socket.toClient.count < socket.capacity
            let isHangUp = socket.clientClosed
            guard isReadable || isWritable || isHangUp else { return nil }
            return EventPoller.Ready(fd: fd, isReadable: isReadable, isWritable: isWritable, isHangUp: isHangUp)
        }
    }
}
