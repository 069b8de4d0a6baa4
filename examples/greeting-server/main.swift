// greeting-server: a small HTTP server that renders each page in the language of its request, from a bundle
// HotStrings keeps live (embedded mode: no daemon). Swift and Glibc only, no packages.
//
//     swift run greeting-server sample-bundle 8080
//     curl -H 'Accept-Language: de-CH, fr;q=0.8' 'http://127.0.0.1:8080/?count=3'
//
// Each request takes one snapshot of the strings (`snapshot(acceptLanguage:)`) and renders the whole page from
// it: a release or an edit landing while the page renders changes the next page, never half of this one.
// `?slow=MS` waits MS milliseconds between the page's first and last text, as a page that queries a database
// would (the tests land a release in that gap).
//
// What a server facing clients it does not control needs, and this one has: one thread reads every request head
// with `poll`, each within a deadline (5 s) and a cap (8 KiB), so a client that connects and sends nothing, or a
// byte a minute, costs a file descriptor until its deadline, never a thread; a parser that answers whatever it
// cannot read with a status (400, 405, 408, 431) instead of trapping; and no thread ever waits on a client.

import Dispatch
import Glibc
import HotStringsClient
import HotStringsEmbedded

/// How long a client has to send its request line and headers.
let headDeadline: Duration = .seconds(5)
/// The largest request head read.
let headLimit = 8192
/// How many connections may be sending their heads at once; past it, the one that has waited longest is closed.
let pendingLimit = 512

/// One parsed request: the path's query parameters and the Accept-Language header.
struct Request {
    /// The target as sent (`/?count=3`): printable ASCII only, so it is safe to log.
    var target: String
    var path: String
    var query: [String: String]
    var acceptLanguage: String?

    /// What `parse` found in the bytes received so far.
    enum Parse {
        /// No blank line yet, within the cap: read on.
        case incomplete
        case request(Request)
        /// A head the server answers with `status` (`400 Bad Request`) and `reason`.
        case refused(status: String, reason: String)
    }

    /// Parses a request head (request line, headers, blank line) at the start of `bytes`. Never traps: anything
    /// it cannot read is `.refused`.
    static func parse(_ bytes: [UInt8]) -> Parse {
        guard let end = headEnd(bytes) else {
            return bytes.count > headLimit
                ? .refused(status: "431 Request Header Fields Too Large", reason: "a head over \(headLimit) bytes")
                : .incomplete
        }
        let lines = String(decoding: bytes[..<end], as: UTF8.self)
            .split(separator: "\r\n", omittingEmptySubsequences: false)
        let parts = lines[0].split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[2].hasPrefix("HTTP/1."), parts[1].hasPrefix("/"),
              parts[1].unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else {
            return .refused(status: "400 Bad Request", reason: "a malformed request line")
        }
        guard parts[0] == "GET" else { return .refused(status: "405 Method Not Allowed", reason: "only GET") }
        let target = parts[1].split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        var request = Request(target: String(parts[1]), path: String(target[0]), query: [:])
        for pair in (target.count > 1 ? target[1] : "").split(separator: "&") {
            let nameAndValue = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            request.query[String(nameAndValue[0])] = nameAndValue.count > 1 ? String(nameAndValue[1]) : ""
        }
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":"), colon != line.startIndex,
                  !line.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\t" || $0.value == 0x7F }) else {
                return .refused(status: "400 Bad Request", reason: "a malformed header line")
            }
            if line[..<colon].lowercased() == "accept-language" {
                request.acceptLanguage = line[line.index(after: colon)...].trimmingCharacters(in: " \t")
            }
        }
        return .request(request)
    }

    /// The offset of the `\r\n\r\n` that ends the head, within the first `headLimit` bytes.
    private static func headEnd(_ bytes: [UInt8]) -> Int? {
        let count = min(bytes.count, headLimit)
        guard count >= 4 else { return nil }
        return (0...(count - 4)).first { bytes[$0..<$0 + 4].elementsEqual([13, 10, 13, 10]) }
    }
}

extension Substring {
    func trimmingCharacters(in set: String) -> String {
        String(drop { set.contains($0) }.reversed().drop { set.contains($0) }.reversed())
    }
}

/// Answers `request` on the connection `fd`: its language, the snapshot's generation, a greeting and a plural,
/// all from one snapshot.
func answer(_ request: Request, on fd: Int32, strings: LiveStrings) {
    guard request.path == "/" else { return respond(fd, "404 Not Found", "not found\n") }
    let snapshot: LiveStrings.Snapshot
    do {
        snapshot = try strings.snapshot(acceptLanguage: request.acceptLanguage ?? "")
    } catch {
        return respond(fd, "400 Bad Request", "\(error)\n")
    }
    // The access log, once the page's snapshot is taken.
    say(2, "GET \(request.target) -> \(snapshot.language), generation \(snapshot.generation)")
    let count = request.query["count"].flatMap { Int($0) } ?? 1
    let top = "language: \(snapshot.language)\ngeneration: \(snapshot.generation)\n"
        + snapshot.localizedString("greeting") + "\n"
    let finish: @Sendable () -> Void = {
        let rest = snapshot.localizedString("items.count", arguments: [count]) + "\n"
            + snapshot.localizedString("welcome.title") + "\n"
        respond(fd, "200 OK", top + rest, headers: ["Content-Language: \(snapshot.language)"])
    }
    guard let slow = request.query["slow"].flatMap({ Int($0) }), slow > 0 else { return finish() }
    // Waits without holding a thread: the rest of the page is rendered later, from the same snapshot.
    DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(min(slow, 10_000)), execute: finish)
}

/// Writes the answer to `fd` and closes it. The socket stays non-blocking: an answer is far smaller than a
/// socket's buffer, so a client that cannot take it at once is not reading, and is closed, not waited for.
func respond(_ fd: Int32, _ status: String, _ body: String, headers: [String] = []) {
    defer { close(fd) }
    let bodyBytes = Array(body.utf8)
    var response = "HTTP/1.1 \(status)\r\nContent-Type: text/plain; charset=utf-8\r\n"
    response += "Content-Length: \(bodyBytes.count)\r\nConnection: close\r\n"
    for header in headers { response += header + "\r\n" }
    let bytes = Array((response + "\r\n").utf8) + bodyBytes
    var sent = 0
    while sent < bytes.count {
        let count = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard count > 0 else { return }
        sent += count
    }
    // What the client sent past its head is read before closing: closing with unread bytes resets the
    // connection, and a reset can destroy the answer before the client has read it.
    shutdown(fd, Int32(SHUT_WR))
    var scratch = [UInt8](repeating: 0, count: 4096)
    var drained = 0
    while drained < 65536 {
        let count = read(fd, &scratch, scratch.count)
        guard count > 0 else { break }
        drained += count
    }
}

// MARK: - Start

/// A connection whose request head is still arriving.
struct Pending {
    var head: [UInt8] = []
    let deadline: ContinuousClock.Instant
}

/// Starts the strings and the listener, then reads every request head on this thread, within its deadline, and
/// answers each request on the pool.
func run(bundle: String, port: UInt16) -> Never {
    let strings: LiveStrings
    do {
        strings = try LiveStrings.embedded(bundle: bundle)
    } catch {
        fail("\(error)")
    }
    guard strings.blockUntilSynchronized(timeout: .seconds(10)) else { fail("the bundle was not read within 10 s") }
    let listener = listen(port: port)
    signal(SIGPIPE, SIG_IGN)
    var pending: [Int32: Pending] = [:]
    var buffer = [UInt8](repeating: 0, count: 4096)
    /// Stops reading `fd` and answers it with `status` and `reason`.
    func refuse(_ fd: Int32, _ status: String, _ reason: String) {
        pending[fd] = nil
        respond(fd, status, reason + "\n")
    }
    while true {
        var polled = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0)]
        polled += pending.keys.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        let timeout = pending.values.map(\.deadline).min().map { deadline -> Int32 in
            let (seconds, attoseconds) = ContinuousClock.now.duration(to: deadline).components
            return Int32(clamping: max(0, seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1))
        } ?? -1
        guard poll(&polled, nfds_t(polled.count), timeout) >= 0 || errno == EINTR else { fail("poll: \(errno)") }
        for entry in polled.dropFirst() where entry.revents != 0 {
            let count = read(entry.fd, &buffer, buffer.count)
            if count < 0, errno == EAGAIN || errno == EINTR { continue }
            guard count > 0 else {
                // The client closed (or reset) before its head ended: nothing to answer if it sent nothing.
                if pending[entry.fd]?.head.isEmpty ?? true || count < 0 {
                    pending[entry.fd] = nil
                    close(entry.fd)
                } else {
                    refuse(entry.fd, "400 Bad Request", "the request ended before its blank line")
                }
                continue
            }
            pending[entry.fd]?.head += buffer[..<count]
            switch Request.parse(pending[entry.fd]?.head ?? []) {
            case .incomplete:
                continue
            case .refused(let status, let reason):
                refuse(entry.fd, status, reason)
            case .request(let request):
                pending[entry.fd] = nil
                DispatchQueue.global().async { answer(request, on: entry.fd, strings: strings) }
            }
        }
        for (fd, connection) in pending where connection.deadline <= .now {
            refuse(fd, "408 Request Timeout", "no whole request within \(headDeadline)")
        }
        guard polled[0].revents != 0 else { continue }
        while true {
            let fd = accept(listener, nil, nil)
            if fd < 0, errno != EMFILE && errno != ENFILE { break }
            if pending.count >= pendingLimit || fd < 0,
               let oldest = pending.min(by: { $0.value.deadline < $1.value.deadline }) {
                // Out of room (or of file descriptors): the connection that has waited longest makes way.
                pending[oldest.key] = nil
                close(oldest.key)
            }
            guard fd >= 0 else { break }
            _ = fcntl(fd, F_SETFL, O_NONBLOCK)
            pending[fd] = Pending(deadline: .now + headDeadline)
        }
    }
}

/// A non-blocking TCP listener on 127.0.0.1:`port` (0: any free port); prints the URL on standard output.
func listen(port: UInt16) -> Int32 {
    let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
    var yes: Int32 = 1
    setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
            bind(listener, pointer, length) == 0 && Glibc.listen(listener, SOMAXCONN) == 0
                && getsockname(listener, pointer, &length) == 0
        }
    }
    guard bound else { fail("cannot listen on 127.0.0.1:\(port): \(String(cString: strerror(errno)))") }
    say(1, "listening on http://127.0.0.1:\(UInt16(bigEndian: address.sin_port))")
    return listener
}

/// Writes `line` and a newline to file descriptor `fd`, unbuffered.
func say(_ fd: Int32, _ line: String) {
    let bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
}

/// Prints `message` as an error and exits 1.
func fail(_ message: String) -> Never {
    say(2, "greeting-server: error: \(message)")
    exit(1)
}

let arguments = CommandLine.arguments
guard arguments.count == 3, let port = UInt16(arguments[2]) else {
    say(2, "usage: greeting-server BUNDLE PORT (0: any free port)")
    exit(64)
}
run(bundle: arguments[1], port: port)
