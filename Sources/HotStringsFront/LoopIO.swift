import LinuxSystem

/// The system calls the I/O loop makes: its poller, its listeners' accepts and its connections' reads, writes and
/// closes. The daemon and embedded mode run the loop over `SystemLoopIO` (epoll and real sockets); the loop's tests run
/// it over fake sockets and a fake poller, turn by turn without a thread, as swift-nio tests a handler on an
/// `EmbeddedChannel`.
package protocol LoopIO: Sendable {
    /// Adds `fd` to the poller with `interest` (`EventPoller.add`).
    func add(_ fd: Int32, interest: EventPoller.Interest) throws(SystemError)
    /// Replaces the poller's interest in `fd` (`EventPoller.modify`).
    func modify(_ fd: Int32, interest: EventPoller.Interest) throws(SystemError)
    /// Takes `fd` out of the poller (`EventPoller.remove`).
    func remove(_ fd: Int32)
    /// Waits until a descriptor is ready, `wake()` is called or `timeout` passes (nil: no timeout), as
    /// `EventPoller.wait`.
    func wait(timeout: Duration?) throws(SystemError) -> [EventPoller.Ready]
    /// Makes a wait return; from any thread.
    func wake()
    /// A connection pending on `listener` (`accept4`, non-blocking and close-on-exec), or nil when none is.
    func accept(_ listener: Int32) throws(SystemError) -> Int32?
    /// Who is at the other end of the Unix socket connection `fd` (`SO_PEERCRED`).
    func peerCredentials(_ fd: Int32) throws(SystemError) -> PeerCredentials
    /// One read from `fd` into `buffer` (`SocketIO.receive`).
    func receive(_ fd: Int32, into buffer: inout [UInt8]) -> SocketIO.Transfer
    /// One write of as much of `bytes` as `fd` takes now (`SocketIO.transmit`).
    func transmit(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> SocketIO.Transfer
    /// Shuts down the writing side of `fd` (`shutdown(SHUT_WR)`).
    func shutdownWrite(_ fd: Int32)
    /// Closes `fd`, already out of the poller.
    func close(_ fd: Int32)
}

/// The loop's system calls on Linux: an `EventPoller` and the sockets' calls of `LinuxSystem`.
package struct SystemLoopIO: LoopIO {
    /// The poller; closed when released, not when the loop ends: the core may still wake it until it has drained,
    /// and a closed eventfd's number can be reused.
    let poller: EventPoller

    /// Creates the poller (`epoll_create1`, `eventfd`).
    /// - Throws: `SystemError` from `EventPoller.init`.
    package init() throws(SystemError) {
        poller = try EventPoller()
    }

    package func add(_ fd: Int32, interest: EventPoller.Interest) throws(SystemError) {
        try poller.add(fd, interest: interest)
    }

    package func modify(_ fd: Int32, interest: EventPoller.Interest) throws(SystemError) {
        try poller.modify(fd, interest: interest)
    }

    package func remove(_ fd: Int32) { poller.remove(fd) }

    package func wait(timeout: Duration?) throws(SystemError) -> [EventPoller.Ready] {
        try poller.wait(timeout: timeout)
    }

    package func wake() { poller.wake() }

    package func accept(_ listener: Int32) throws(SystemError) -> Int32? {
        try UnixSocket.accept(listener)
    }

    package func peerCredentials(_ fd: Int32) throws(SystemError) -> PeerCredentials {
        try UnixSocket.peerCredentials(fd)
    }

    package func receive(_ fd: Int32, into buffer: inout [UInt8]) -> SocketIO.Transfer {
        SocketIO.receive(fd, into: &buffer)
    }

    package func transmit(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> SocketIO.Transfer {
        SocketIO.transmit(fd, bytes)
    }

    package func shutdownWrite(_ fd: Int32) { SocketIO.shutdownWrite(fd) }

    package func close(_ fd: Int32) { SocketIO.close(fd) }
}
