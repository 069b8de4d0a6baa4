import HotStringsProtocol
import HotStringsService
import LinuxSystem
import StringsFormat

/// The page's HTTP connections, served by the daemon's I/O loop beside the Unix socket's clients.
///
/// One request at a time per connection (keep-alive; a pipelined request waits in the buffer until the one
/// before it is answered), so a connection has at most one request in the core and the connection cap bounds
/// what HTTP adds to the core's work. Reads are one bounded `read` per ready connection per pass, like the
/// socket's clients; answers are written at once and the rest when the socket is writable.
struct WebConnection {
    /// Where a connection is.
    enum Stage {
        /// Between requests.
        case idle
        /// Reading a request's head and body.
        case request
        /// Waiting for the core's answer to a call.
        case core(WebCall, keepsAlive: Bool)
        /// An event stream: waiting for the subscription's answer, then relaying events.
        case events(isOpen: Bool)
        /// The last answer is being written; then the write side is shut and the rest of the input dropped.
        case closing
        /// Reading and dropping what the client still sends, until it closes or the linger time is up.
        case lingering
    }

    let id: ClientID
    var stage = Stage.idle
    var input: [UInt8] = []
    var output: [UInt8] = []
    var written = 0
    /// When the stage times out (nil: never, while the core or an event stream holds it).
    var deadline: ContinuousClock.Instant?
    /// The last time a request began or ended, to find the connection idle longest.
    var lastActive = ContinuousClock.now
    var isReading = true
    var isWriting = false

    /// Whether the connection may be closed to make room: it is waiting for a request, or reading one.
    var isEvictable: Bool {
        switch stage {
        case .idle, .request, .lingering, .closing: true
        case .core, .events: false
        }
    }

    var isEventStream: Bool { if case .events = stage { true } else { false } }
}

/// The page's connections, on the I/O thread.
struct WebState {
    var connections: [Int32: WebConnection] = [:]
    var descriptors: [ClientID: Int32] = [:]
    var eventStreams = 0
}

extension IOLoop {
    /// Accepts every pending HTTP connection, making room by closing the one idle longest at the cap.
    func acceptWeb(_ web: WebServer, _ state: inout State) {
        while true {
            let accepted: Int32?
            do {
                accepted = try LoopbackSocket.accept(web.listener)
            } catch {
                log.warning("web: cannot accept a connection: \(error)")
                return
            }
            guard let fd = accepted else { return }
            if state.web.connections.count >= web.limits.connections {
                let oldest = state.web.connections.filter { $0.value.isEvictable }
                    .min { $0.value.lastActive < $1.value.lastActive }?.key
                guard let oldest else {
                    SocketIO.close(fd)
                    continue
                }
                closeWeb(oldest, &state)
            }
            guard let id = admit(fd, &state) else { continue }
            var connection = WebConnection(id: id)
            connection.deadline = .now + web.limits.idleTimeout
            state.web.connections[fd] = connection
            state.web.descriptors[id] = fd
        }
    }

    /// Handles readiness of an HTTP connection.
    func webEvent(_ web: WebServer, _ event: EventPoller.Ready, _ state: inout State) {
        let fd = event.fd
        if event.isWritable { flushWeb(web, fd, &state) }
        guard let connection = state.web.connections[fd], event.isReadable || event.isHangUp else { return }
        guard connection.isReading else {
            if event.isHangUp { closeWeb(fd, &state) }
            return
        }
        switch SocketIO.receive(fd, into: &state.readBuffer) {
        case .bytes(let count):
            if case .lingering = connection.stage { return }
            if case .events = connection.stage { return }  // an event stream's client has nothing to say
            if case .idle = connection.stage {
                state.web.connections[fd]?.stage = .request
                state.web.connections[fd]?.deadline = .now + web.limits.requestTimeout
                state.web.connections[fd]?.lastActive = .now
            }
            state.web.connections[fd]?.input += state.readBuffer[..<count]
            processWeb(web, fd, &state)
        case .wouldBlock:
            break
        case .closed, .failed:
            closeWeb(fd, &state)
        }
    }

    /// Takes the next request out of the connection's input when it is whole, and answers or hands it on.
    func processWeb(_ web: WebServer, _ fd: Int32, _ state: inout State) {
        while let connection = state.web.connections[fd] {
            switch connection.stage {
            case .idle, .request: break
            default: return
            }
            guard !connection.input.isEmpty else {
                state.web.connections[fd]?.stage = .idle
                state.web.connections[fd]?.deadline = .now + web.limits.idleTimeout
                return
            }
            if case .idle = connection.stage {
                state.web.connections[fd]?.stage = .request
                state.web.connections[fd]?.deadline = .now + web.limits.requestTimeout
                state.web.connections[fd]?.lastActive = .now
            }
            switch HTTPRequestHead.parse(connection.input, limit: web.limits.headBytes) {
            case .incomplete:
                return
            case .refused(let status, let reason):
                log.warning("web: refused a request (\(status.code)): \(reason)")
                finishWeb(web, fd, .text(status, reason), keepsAlive: false, &state)
                return
            case .head(let head, let length):
                guard head.contentLength <= web.limits.bodyBytes else {
                    log.warning("web: refused a body of \(head.contentLength) bytes (413)")
                    finishWeb(web, fd, .text(.contentTooLarge, "bodies are limited to \(web.limits.bodyBytes) bytes"),
                              keepsAlive: false, &state)
                    return
                }
                guard connection.input.count >= length + head.contentLength else { return }
                let body = Array(connection.input[length..<(length + head.contentLength)])
                state.web.connections[fd]?.input.removeFirst(length + head.contentLength)
                route(web, fd, head, body, &state)
            }
        }
    }

    /// Checks access, then answers or hands the request to the core.
    private func route(_ web: WebServer, _ fd: Int32, _ head: HTTPRequestHead, _ body: [UInt8],
                       _ state: inout State) {
        switch web.access.check(head) {
        case .refused(let reason):
            log.warning("web: refused \(DisplayText.escaped(head.method, limit: 16)) "
                + "\(DisplayText.escaped(head.path, limit: 200)) (403): \(DisplayText.escaped(reason, limit: 200))")
            finishWeb(web, fd, .text(.forbidden, "forbidden"), keepsAlive: head.keepsAlive, &state)
        case .redirect(let location, let cookie):
            var response = HTTPResponse.text(.seeOther, "see \(location)")
            response.extraHeaders = [("Location", location), ("Set-Cookie", cookie)]
            finishWeb(web, fd, response, keepsAlive: head.keepsAlive, &state)
        case .allowed:
            switch WebRoutes.route(head, body) {
            case .respond(let response):
                finishWeb(web, fd, response, keepsAlive: head.keepsAlive, &state)
            case .call(let call, let input):
                guard let id = state.web.connections[fd]?.id else { return }
                state.web.connections[fd]?.stage = .core(call, keepsAlive: head.keepsAlive)
                state.web.connections[fd]?.deadline = nil
                updateWebInterest(fd, &state)
                toCore(input(id))
            case .events:
                guard state.web.eventStreams < web.limits.eventStreams,
                      let id = state.web.connections[fd]?.id else {
                    finishWeb(web, fd, .text(.unavailable, "too many event streams"), keepsAlive: false, &state)
                    return
                }
                state.web.eventStreams += 1
                state.web.connections[fd]?.stage = .events(isOpen: false)
                state.web.connections[fd]?.deadline = nil
                toCore(.request(id, nil, .subscribe(Subscription(snapshot: false))))
            }
        }
    }

    /// Queues an answer; the connection then takes its next request, or is closed once it is written.
    private func finishWeb(_ web: WebServer, _ fd: Int32, _ response: HTTPResponse, keepsAlive: Bool,
                           _ state: inout State) {
        guard state.web.connections[fd] != nil else { return }
        state.web.connections[fd]!.output += response.serialized(keepsAlive: keepsAlive)
        state.web.connections[fd]!.lastActive = .now
        if keepsAlive {
            state.web.connections[fd]!.stage = .idle
            state.web.connections[fd]!.deadline = .now + web.limits.idleTimeout
        } else {
            state.web.connections[fd]!.stage = .closing
            state.web.connections[fd]!.input = []
            state.web.connections[fd]!.deadline = .now + web.limits.lingerTimeout
        }
        flushWeb(web, fd, &state)
    }

    /// Writes what the connection has queued, as far as its socket takes it.
    func flushWeb(_ web: WebServer, _ fd: Int32, _ state: inout State) {
        guard var connection = state.web.connections[fd] else { return }
        while connection.written < connection.output.count {
            let result = connection.output.withUnsafeBytes {
                SocketIO.transmit(fd, UnsafeRawBufferPointer(rebasing: $0[connection.written...]))
            }
            switch result {
            case .bytes(let count):
                connection.written += count
                continue
            case .wouldBlock:
                break
            case .closed, .failed:
                closeWeb(fd, &state)
                return
            }
            break
        }
        if connection.written == connection.output.count {
            connection.output = []
            connection.written = 0
            if case .closing = connection.stage {
                SocketIO.shutdownWrite(fd)
                connection.stage = .lingering
                connection.deadline = .now + web.limits.lingerTimeout
            }
        } else if connection.isEventStream, connection.output.count - connection.written > web.limits.eventBytes {
            log.warning("web: closing an event stream that stopped reading")
            closeWeb(fd, &state)
            return
        }
        state.web.connections[fd] = connection
        updateWebInterest(fd, &state)
    }

    private func updateWebInterest(_ fd: Int32, _ state: inout State) {
        guard let connection = state.web.connections[fd] else { return }
        let wantsRead: Bool
        switch connection.stage {
        case .core, .closing: wantsRead = false
        default: wantsRead = true
        }
        let wantsWrite = connection.written < connection.output.count
        guard wantsRead != connection.isReading || wantsWrite != connection.isWriting else { return }
        var interest: EventPoller.Interest = []
        if wantsRead { interest.insert(.readable) }
        if wantsWrite { interest.insert(.writable) }
        state.web.connections[fd]?.isReading = wantsRead
        state.web.connections[fd]?.isWriting = wantsWrite
        try? poller.modify(fd, interest: interest)
    }

    func closeWeb(_ fd: Int32, _ state: inout State) {
        guard let connection = state.web.connections.removeValue(forKey: fd) else { return }
        state.web.descriptors[connection.id] = nil
        if connection.isEventStream { state.web.eventStreams -= 1 }
        poller.remove(fd)
        SocketIO.close(fd)
        toCore(.closed(connection.id))
    }

    /// The earliest deadline of an HTTP connection, for the poller's timeout.
    func nextWebDeadline(_ state: State) -> ContinuousClock.Instant? {
        state.web.connections.values.compactMap(\.deadline).min()
    }

    /// Ends what is past its deadline: a slow request gets 408, an idle or lingering connection is closed.
    func expireWeb(_ web: WebServer, _ state: inout State) {
        let now = ContinuousClock.now
        for (fd, connection) in state.web.connections {
            guard let deadline = connection.deadline, deadline <= now else { continue }
            switch connection.stage {
            case .request:
                log.warning("web: a request took longer than \(web.limits.requestTimeout) (408)")
                finishWeb(web, fd, .text(.requestTimeout, "request timeout"), keepsAlive: false, &state)
            default:
                closeWeb(fd, &state)
            }
        }
    }

    /// Delivers the core's output to the HTTP connection it is for; false when it is for none.
    func applyWeb(_ web: WebServer, _ output: ServiceOutput<WireLines>, _ state: inout State) -> Bool {
        switch output {
        case .response(let id, let line):
            guard let fd = state.web.descriptors[id], let connection = state.web.connections[fd] else {
                return false
            }
            switch connection.stage {
            case .core(let call, let keepsAlive):
                finishWeb(web, fd, WebRoutes.response(to: call, answer: line), keepsAlive: keepsAlive, &state)
                processWeb(web, fd, &state)
            case .events(isOpen: false):
                state.web.connections[fd]?.stage = .events(isOpen: true)
                state.web.connections[fd]?.output += HTTPResponse.eventStreamHead()
                flushWeb(web, fd, &state)
            default:
                break
            }
            return true
        case .event(let line, let ids):
            for id in ids {
                guard let fd = state.web.descriptors[id], state.web.connections[fd]?.isEventStream == true else {
                    continue
                }
                let data = line.last == UInt8(ascii: "\n") ? line.dropLast() : line[...]
                state.web.connections[fd]?.output += Array("data: ".utf8) + data + Array("\n\n".utf8)
                flushWeb(web, fd, &state)
            }
            return false
        case .snapshot(let id, _), .slowClientResync(let id, _), .slowClientSnapshot(let id, _):
            // Event streams subscribe without a snapshot; after a resync the page reads the tables again.
            return state.web.descriptors[id] != nil
        case .offCore(let id):
            // A page's connection has one request at a time, never counted in the core's backlog: it waits as it is.
            return state.web.descriptors[id] != nil
        case .firstScanServed:
            return false
        }
    }
}
