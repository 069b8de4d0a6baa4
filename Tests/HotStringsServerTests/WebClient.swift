import Foundation
import Glibc
import HotStringsTestSupport
import Testing

/// A raw HTTP/1.1 client for the page's tests: a blocking TCP socket to 127.0.0.1 whose reads give up after a
/// deadline, so a test that waits for an answer fails instead of hanging.
final class WebClient {
    let fd: Int32

    /// An answer: status, headers (names lowercased), body.
    struct Response {
        var status: Int
        var headers: [String: String]
        var body: [UInt8]
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// Connects to 127.0.0.1:`port`; reads wait at most `timeout`.
    init(port: UInt16, timeout: Duration = .seconds(10)) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw ClientError(description: "socket: \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            Glibc.close(fd)
            throw ClientError(description: "connect to port \(port): errno \(errno)")
        }
        var limit = timeval(tv_sec: Int(timeout.components.seconds), tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { Glibc.close(fd) }

    private var buffer: [UInt8] = []

    /// Sends all of `bytes`; false when the server closed the connection first.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count <= 0 { return false }
            offset += count
        }
        return true
    }

    @discardableResult
    func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    /// Sends a request with `Host: 127.0.0.1:port` unless `headers` has a host, and a body's length.
    @discardableResult
    func request(_ method: String, _ target: String, port: UInt16, headers: [(String, String)] = [],
                 body: String? = nil) -> Bool {
        var text = "\(method) \(target) HTTP/1.1\r\n"
        if !headers.contains(where: { $0.0.lowercased() == "host" }) { text += "Host: 127.0.0.1:\(port)\r\n" }
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        if let body { text += "Content-Length: \(body.utf8.count)\r\n\r\n" + body } else { text += "\r\n" }
        return send(text)
    }

    /// Reads more bytes into the buffer; false at the end, on an error or when the read times out.
    private func fill() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return false }
        buffer += chunk[..<count]
        return true
    }

    /// Reads one whole answer (with a `Content-Length`).
    /// - Throws: `ClientError` when the connection ends or the read times out first.
    func response() throws -> Response {
        while true {
            if let end = find([13, 10, 13, 10]) {
                let head = String(decoding: buffer[..<end], as: UTF8.self).components(separatedBy: "\r\n")
                var headers: [String: String] = [:]
                for line in head.dropFirst() {
                    guard let colon = line.firstIndex(of: ":") else { continue }
                    headers[line[..<colon].lowercased()] = line[line.index(after: colon)...]
                        .trimmingCharacters(in: .whitespaces)
                }
                let status = Int(head[0].split(separator: " ")[1]) ?? 0
                let length = Int(headers["content-length"] ?? "0") ?? 0
                while buffer.count < end + 4 + length {
                    guard fill() else { throw ClientError(description: "the body ended early") }
                }
                let body = Array(buffer[(end + 4)..<(end + 4 + length)])
                buffer.removeFirst(end + 4 + length)
                return Response(status: status, headers: headers, body: body)
            }
            guard fill() else {
                throw ClientError(description: "no answer: \(String(decoding: buffer, as: UTF8.self))")
            }
        }
    }

    /// Reads until the bytes received contain `text` (an event stream's data).
    /// - Throws: `ClientError` when the connection ends or a read times out first.
    func read(until text: String) throws -> String {
        while !String(decoding: buffer, as: UTF8.self).contains(text) {
            guard fill() else { throw ClientError(description: "no \(text) in \(String(decoding: buffer, as: UTF8.self))") }
        }
        return String(decoding: buffer, as: UTF8.self)
    }

    /// Whether the server closes the connection (end of file or reset) before the read times out.
    func isClosedByServer() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count == 0 { return true }
            if count < 0 { return errno == ECONNRESET }
        }
    }

    private func find(_ needle: [UInt8]) -> Int? {
        guard buffer.count >= needle.count else { return nil }
        for index in 0...(buffer.count - needle.count) where Array(buffer[index..<(index + needle.count)]) == needle {
            return index
        }
        return nil
    }
}

/// A daemon serving the page, with where the page is.
struct WebDaemon {
    let daemon: Daemon
    let port: UInt16
    let token: String

    /// Starts `serve --web 0` on the sandbox and reads the page's address from its log.
    static func start(_ sandbox: Sandbox, arguments: [String] = []) throws -> WebDaemon {
        let daemon = try Daemon.serving(sandbox, arguments: ["--web", "0"] + arguments)
        guard let line = daemon.log.split(separator: "\n").first(where: { $0.contains("web: http://127.0.0.1:") }),
              let address = line.split(separator: "web: http://127.0.0.1:").last,
              let port = UInt16(address.prefix { $0.isNumber }),
              let token = address.split(separator: "?token=").last else {
            throw ClientError(description: "no web line in the log:\n\(daemon.log)")
        }
        return WebDaemon(daemon: daemon, port: port, token: String(token))
    }

    var bearer: (String, String) { ("Authorization", "Bearer \(token)") }
    var origin: (String, String) { ("Origin", "http://127.0.0.1:\(port)") }

    /// A new connection to the page.
    func client() throws -> WebClient { try WebClient(port: port) }
}
