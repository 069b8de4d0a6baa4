import StringsFormat

/// Encodes responses as lines: `{"id":…,"ok":true,…}` or `{"id":…,"ok":false,"error":{…}}`.
///
/// `id` always comes first and is `null` when the request had none or it could not be read.
package enum ResponseEncoder {
    /// The success line of `answer`: its members after `id` and `ok`, in the order docs/PROTOCOL.md shows, ending
    /// in `"\n"`.
    ///
    /// - Complexity: O(n) in the size of the answer; a `table` answer's entries are written straight from the pairs.
    package static func success(id: RequestID?, _ answer: Answer) -> [UInt8] {
        var out = header(id: id, ok: true)
        answer.body?.appendMembers(to: &out)
        out.append(contentsOf: "}\n".utf8)
        return out
    }

    /// A failure line: `error` holds `code`, `message` and, when set, `available`.
    package static func failure(id: RequestID?, _ error: ProtocolError) -> [UInt8] {
        var out = header(id: id, ok: false)
        out.append(contentsOf: #","error":{"code":"#.utf8)
        JSONWriter.appendQuoted(error.code.rawValue, to: &out)
        out.append(contentsOf: #","message":"#.utf8)
        JSONWriter.appendQuoted(error.message, to: &out)
        if let available = error.available {
            out.append(contentsOf: #","available":"#.utf8)
            JSONWriter.appendStringArray(available, to: &out)
        }
        out.append(contentsOf: "}}\n".utf8)
        return out
    }

    private static func header(id: RequestID?, ok: Bool) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(128)
        writeHeader(id: id, ok: ok, to: &out)
        return out
    }

    /// `line`, a response encoded with no `id` (`{"id":null,…`), as the response to `id`: the members after
    /// `id` are copied as they are, so an answer rendered once serves every request for the same content.
    /// - Precondition: `line` was encoded here with `id` nil.
    package static func line(_ line: [UInt8], answering id: RequestID?) -> [UInt8] {
        let anonymous = Array(#"{"id":null"#.utf8)
        precondition(line.starts(with: anonymous), "not a response encoded without an id")
        guard id != nil else { return line }
        var out: [UInt8] = []
        out.reserveCapacity(line.count + 24)
        writeHeader(id: id, ok: true, to: &out)
        // The header just written ends in `,"ok":true`; what follows `{"id":null` in `line` starts with the
        // same `,"ok":…`, so the header's `ok` member is taken back and the line's kept.
        out.removeLast(#","ok":true"#.utf8.count)
        out.append(contentsOf: line[anonymous.count...])
        return out
    }

    private static func writeHeader(id: RequestID?, ok: Bool, to out: inout [UInt8]) {
        out.append(contentsOf: #"{"id":"#.utf8)
        switch id {
        case .number(let number)?: JSONWriter.appendInteger(number, to: &out)
        case .string(let string)?: JSONWriter.appendQuoted(string, to: &out)
        case nil: out.append(contentsOf: "null".utf8)
        }
        out.append(contentsOf: ok ? #","ok":true"#.utf8 : #","ok":false"#.utf8)
    }
}
