/// A request line and headers as the page's HTTP/1.1 server reads them: strictly, and within a cap.
///
/// Only what the page needs is accepted: origin-form targets (`/path?query`), `\r\n` line ends, no line folding,
/// no control bytes in values, one `Content-Length` at most, no `Transfer-Encoding` (a chunked body is
/// refused with 411: the page and scripts send whole JSON bodies with their length).
struct HTTPRequestHead: Sendable {
    /// The method, as sent (`GET`, `POST`).
    var method: String
    /// The path, percent-decoded, without the query.
    var path: String
    /// The path as sent, without the query: still percent-encoded, so it holds no control character (the parser
    /// refuses the request line otherwise) and says what the client asked for exactly (`/%2F` is not `//`).
    var rawPath: String
    /// The query's parameters in order, percent-decoded (`+` is a space).
    var query: [(name: String, value: String)]
    /// The headers in order, names lowercased.
    var headers: [(name: String, value: String)]
    /// Whether the connection stays open after the answer (HTTP/1.1 unless `Connection: close`).
    var keepsAlive: Bool
    /// The body's length from `Content-Length` (0 without one).
    var contentLength: Int

    /// The value of the header `name` (lowercase); nil when absent.
    func header(_ name: String) -> String? {
        headers.first { $0.name == name }?.value
    }

    /// The query parameter `name`; nil when absent.
    func parameter(_ name: String) -> String? {
        query.first { $0.name == name }?.value
    }

    /// Whether the method changes state (anything but `GET` and `HEAD`).
    var isStateChanging: Bool { method != "GET" && method != "HEAD" }

    /// What `parse` found at the start of a buffer.
    enum Parse {
        /// No blank line yet, and fewer than the cap's bytes.
        case incomplete
        /// A head `length` bytes long (its blank line included).
        case head(HTTPRequestHead, length: Int)
        /// A head the server refuses, with the status to answer and why.
        case refused(HTTPStatus, String)
    }

    /// Parses the head at the start of `buffer`, refusing one longer than `limit` bytes with 431.
    static func parse(_ buffer: [UInt8], limit: Int) -> Parse {
        guard let end = headEnd(buffer, within: limit) else {
            return buffer.count > limit ? .refused(.headerFieldsTooLarge, "a head over \(limit) bytes") : .incomplete
        }
        var lines = split(buffer[..<end])
        guard !lines.isEmpty else { return .refused(.badRequest, "an empty request line") }
        let requestLine = lines.removeFirst()
        let parts = requestLine.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, parts[0].allSatisfy(isToken), parts[1].first == "/" else {
            return .refused(.badRequest, "a malformed request line")
        }
        let version = parts[2]
        guard version == "HTTP/1.1" || version == "HTTP/1.0" else {
            return .refused(.versionNotSupported, "the version \(version)")
        }
        var headers: [(name: String, value: String)] = []
        for line in lines {
            guard let colon = line.firstIndex(of: ":"), colon != line.startIndex,
                  line[..<colon].allSatisfy(isToken) else {
                return .refused(.badRequest, "a malformed header line")
            }
            let value = line[line.index(after: colon)...].trimmingSpacesAndTabs()
            guard !value.unicodeScalars.contains(where: { ($0.value < 0x20 && $0 != "\t") || $0.value == 0x7F }) else {
                return .refused(.badRequest, "a control character in a header")
            }
            headers.append((line[..<colon].lowercased(), value))
        }
        for name in ["host", "content-length", "authorization", "origin"]
            where headers.filter({ $0.name == name }).count > 1 {
            return .refused(.badRequest, "more than one \(name) header")
        }
        guard !headers.contains(where: { $0.name == "transfer-encoding" }) else {
            return .refused(.lengthRequired, "a Transfer-Encoding (send Content-Length)")
        }
        var contentLength = 0
        if let text = headers.first(where: { $0.name == "content-length" })?.value {
            guard !text.isEmpty, text.count <= 18, text.allSatisfy(\.isASCIIDigit), let length = Int(text) else {
                return .refused(.badRequest, "a malformed Content-Length")
            }
            contentLength = length
        }
        let target = parts[1]
        let question = target.firstIndex(of: "?")
        guard let path = percentDecoded(target[..<(question ?? target.endIndex)], plusIsSpace: false),
              let query = question.map({ parseQuery(target[target.index(after: $0)...]) }) ?? []
        else { return .refused(.badRequest, "a malformed target") }
        let connection = headers.first { $0.name == "connection" }?.value.lowercased() ?? ""
        let keepsAlive = version == "HTTP/1.1" ? !connection.contains("close") : connection.contains("keep-alive")
        let rawPath = String(target[..<(question ?? target.endIndex)])
        let head = HTTPRequestHead(method: String(parts[0]), path: path, rawPath: rawPath, query: query,
                                   headers: headers, keepsAlive: keepsAlive, contentLength: contentLength)
        return .head(head, length: end + 4)
    }

    /// The index of the `\r\n\r\n` that ends the head, looking at no more than `limit` bytes.
    private static func headEnd(_ buffer: [UInt8], within limit: Int) -> Int? {
        let count = min(buffer.count, limit)
        guard count >= 4 else { return nil }
        var index = 0
        while index + 3 < count {
            if buffer[index] == 13, buffer[index + 1] == 10, buffer[index + 2] == 13, buffer[index + 3] == 10 {
                return index
            }
            index += 1
        }
        return nil
    }

    /// The lines of a head, split at `\r\n`; a bare `\n` or `\r`, or a folded line, makes a line no token starts.
    private static func split(_ bytes: ArraySlice<UInt8>) -> [String] {
        var lines: [String] = []
        var start = bytes.startIndex
        var index = bytes.startIndex
        while index < bytes.endIndex {
            if bytes[index] == 13, index + 1 < bytes.endIndex, bytes[index + 1] == 10 {
                lines.append(String(decoding: bytes[start..<index], as: UTF8.self))
                index += 2
                start = index
            } else {
                index += 1
            }
        }
        lines.append(String(decoding: bytes[start..<bytes.endIndex], as: UTF8.self))
        return lines
    }

    private static func isToken(_ character: Character) -> Bool {
        guard let ascii = character.asciiValue, ascii > 32, ascii < 127 else { return false }
        return !"()<>@,;:\\\"/[]?={} ".contains(character)
    }

    private static func parseQuery(_ text: Substring) -> [(name: String, value: String)]? {
        var pairs: [(name: String, value: String)] = []
        for part in text.split(separator: "&") {
            let equals = part.firstIndex(of: "=")
            guard let name = percentDecoded(part[..<(equals ?? part.endIndex)], plusIsSpace: true),
                  let value = percentDecoded(equals.map { part[part.index(after: $0)...] } ?? "", plusIsSpace: true)
            else { return nil }
            pairs.append((name, value))
        }
        return pairs
    }

    /// `%XX` decoded as UTF-8; nil for a bad escape or bytes that are not UTF-8.
    static func percentDecoded(_ text: Substring, plusIsSpace: Bool) -> String? {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%") {
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                    return nil
                }
                bytes.append(high << 4 | low)
            } else {
                bytes.append(plusIsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { asciiValue.map { $0 >= 48 && $0 <= 57 } ?? false }
}

extension Substring {
    fileprivate func trimmingSpacesAndTabs() -> String {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isBlank($0) }), let last = lastIndex(where: { !isBlank($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
