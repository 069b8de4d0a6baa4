import Foundation
import Glibc

/// A raw HTTP/1.1 client for the page's tests: a blocking TCP socket to 127.0.0.1 whose reads give up after a
/// deadline, so a test that waits for an answer fails instead of hanging.
package final class WebClient {
    package let fd: Int32

    /// An answer: status, headers (names lowercased), body.
    package struct Response {
        package var status: Int
        package var headers: [String: String]
        package var body: [UInt8]
        package var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// Connects to 127.0.0.1:`port`; reads wait at most `timeout`.
    package init(port: UInt16, timeout: Duration = .seconds(10)) throws {
        // Kept in a local until connected: a throw after `self.fd` is set would run `deinit`, which would close the
        // number again after the close below, by then perhaps another thread's descriptor (an epoll set of a test
        // running in parallel failed with EINVAL that way, 1 looped run in 10).
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw WebClientError(description: "socket: \(errno)") }
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
            let failure = errno
            Glibc.close(fd)
            throw WebClientError(description: "connect to port \(port): errno \(failure)")
        }
        self.fd = fd
        var limit = timeval(tv_sec: Int(timeout.components.seconds), tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { Glibc.close(fd) }

    private var buffer: [UInt8] = []

    /// Sends all of `bytes`; false when the server closed the connection first.
    @discardableResult
    package func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count <= 0 { return false }
            offset += count
        }
        return true
    }

    @discardableResult
    package func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    /// Sends a request with `Host: 127.0.0.1:port` unless `headers` has a host, and a body's length.
    @discardableResult
    package func request(_ method: String, _ target: String, port: UInt16, headers: [(String, String)] = [],
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
    package func response() throws -> Response {
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
                    guard fill() else { throw WebClientError(description: "the body ended early") }
                }
                let body = Array(buffer[(end + 4)..<(end + 4 + length)])
                buffer.removeFirst(end + 4 + length)
                return Response(status: status, headers: headers, body: body)
            }
            guard fill() else {
                throw WebClientError(description: "no answer: \(String(decoding: buffer, as: UTF8.self))")
            }
        }
    }

    /// Reads until the bytes received contain `text` (an event stream's data).
    /// - Throws: `ClientError` when the connection ends or a read times out first.
    package func read(until text: String) throws -> String {
        while !String(decoding: buffer, as: UTF8.self).contains(text) {
            guard fill() else { throw WebClientError(description: "no \(text) in \(String(decoding: buffer, as: UTF8.self))") }
        }
        return String(decoding: buffer, as: UTF8.self)
    }

    /// Whether the server closes the connection (end of file or reset) before the read times out.
    package func isClosedByServer() -> Bool {
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

/// Why a `WebClient` gave up: the connection failed, ended or timed out.
package struct WebClientError: Error, CustomStringConvertible {
    package var description: String
}
