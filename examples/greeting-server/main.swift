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

import Dispatch
import Glibc
import HotStringsClient
import HotStringsEmbedded

/// One parsed request: the path's query parameters and the Accept-Language header.
struct Request {
    var target: String
    var path: String
    var query: [String: String]
    var acceptLanguage: String?

    /// Reads the request line and headers (at most 8 KiB); nil for anything else.
    init?(head: [UInt8]) {
        let lines = String(decoding: head, as: UTF8.self).split(separator: "\r\n", omittingEmptySubsequences: false)
        let requestLine = lines.first?.split(separator: " ") ?? []
        guard requestLine.count == 3, requestLine[0] == "GET" else { return nil }
        target = String(requestLine[1])
        let parts = requestLine[1].split(separator: "?", maxSplits: 1)
        path = String(parts.first ?? "/")
        query = [:]
        for pair in (parts.count > 1 ? parts[1] : "").split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            query[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
        }
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            if line[..<colon].lowercased() == "accept-language" {
                acceptLanguage = line[line.index(after: colon)...].trimmingCharacters(in: " \t")
            }
        }
    }
}

extension Substring {
    func trimmingCharacters(in set: String) -> String {
        String(drop { set.contains($0) }.reversed().drop { set.contains($0) }.reversed())
    }
}

/// The page for `request`: its language, the snapshot's generation, a greeting and a plural, all from one
/// snapshot. Returns the status line's code and reason, the headers and the body.
func page(for request: Request, strings: LiveStrings) -> (status: String, headers: [String], body: String) {
    guard request.path == "/" else { return ("404 Not Found", [], "not found\n") }
    let snapshot: LiveStrings.Snapshot
    do {
        snapshot = try strings.snapshot(acceptLanguage: request.acceptLanguage ?? "")
    } catch {
        return ("400 Bad Request", [], "\(error)\n")
    }
    // The access log, once the page's snapshot is taken.
    say(2, "GET \(request.target) -> \(snapshot.language), generation \(snapshot.generation)")
    let count = request.query["count"].flatMap { Int($0) } ?? 1
    var body = "language: \(snapshot.language)\ngeneration: \(snapshot.generation)\n"
    body += snapshot.localizedString("greeting") + "\n"
    if let slow = request.query["slow"].flatMap({ Int($0) }), slow > 0 {
        usleep(UInt32(min(slow, 10_000)) * 1000)
    }
    body += snapshot.localizedString("items.count", arguments: [count]) + "\n"
    body += snapshot.localizedString("welcome.title") + "\n"
    return ("200 OK", ["Content-Language: \(snapshot.language)"], body)
}

/// Answers one connection: one request, then close.
func serve(_ fd: Int32, strings: LiveStrings) {
    defer { close(fd) }
    var head: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while head.count < 8192 {
        let count = read(fd, &buffer, buffer.count)
        guard count > 0 else { return }
        head += buffer[0..<count]
        if endsWithBlankLine(head) { break }
    }
    let (status, headers, body) = Request(head: head).map { page(for: $0, strings: strings) }
        ?? ("400 Bad Request", [], "bad request\n")
    let bodyBytes = Array(body.utf8)
    var response = "HTTP/1.1 \(status)\r\nContent-Type: text/plain; charset=utf-8\r\n"
    response += "Content-Length: \(bodyBytes.count)\r\nConnection: close\r\n"
    for header in headers { response += header + "\r\n" }
    let bytes = Array((response + "\r\n").utf8) + bodyBytes
    var sent = 0
    while sent < bytes.count {
        let count = bytes[sent...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard count > 0 else { return }
        sent += count
    }
}

/// Whether `head` holds the blank line that ends a request's headers.
func endsWithBlankLine(_ head: [UInt8]) -> Bool {
    guard head.count >= 4 else { return false }
    return (0...(head.count - 4)).contains { head[$0..<$0 + 4].elementsEqual([13, 10, 13, 10]) }
}

// MARK: - Start

/// Starts the strings and the listener, then answers each connection.
func run(bundle: String, port: UInt16) -> Never {
    let strings: LiveStrings
    do {
        strings = try LiveStrings.embedded(bundle: bundle)
    } catch {
        fail("\(error)")
    }
    guard strings.blockUntilSynchronized(timeout: .seconds(10)) else { fail("the bundle was not read within 10 s") }
    let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    var yes: Int32 = 1
    setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
            bind(listener, pointer, length) == 0 && listen(listener, 64) == 0 && getsockname(listener, pointer, &length) == 0
        }
    }
    guard bound else { fail("cannot listen on 127.0.0.1:\(port): \(String(cString: strerror(errno)))") }
    say(1, "listening on http://127.0.0.1:\(UInt16(bigEndian: address.sin_port))")
    signal(SIGPIPE, SIG_IGN)
    while true {
        let fd = accept(listener, nil, nil)
        guard fd >= 0 else { continue }
        // A thread of its own: a page that waits (`?slow=`) must not hold up the others.
        DispatchQueue.global().async { serve(fd, strings: strings) }
    }
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
