extension JSONValue {
    /// The deepest nesting of arrays and objects accepted, so a line of 60,000 `[` cannot exhaust the stack.
    package static let maximumDepth = JSONScanner.maximumDepth

    /// Parses exactly one JSON value (RFC 8259), surrounded by optional whitespace.
    ///
    /// Strict: invalid UTF-8, raw control characters in strings, lone surrogate escapes, leading zeros,
    /// trailing commas and trailing content are errors. Object members keep their order (repeated names
    /// are kept too; the subscript reads the last one).
    ///
    /// - Throws: `JSONSyntaxError` naming the first problem.
    package init(parsing bytes: some Collection<UInt8>) throws(JSONSyntaxError) {
        let parsed: Result<JSONValue, JSONSyntaxError>? = bytes.withContiguousStorageIfAvailable { buffer in
            Result { () throws(JSONSyntaxError) -> JSONValue in try JSONParser.parse(buffer) }
        }
        if let parsed {
            self = try parsed.get()
        } else {
            self = try Array(bytes).withUnsafeBufferPointer { buffer throws(JSONSyntaxError) in
                try JSONParser.parse(buffer)
            }
        }
    }
}

/// Builds a `JSONValue` tree with the shared `JSONScanner`.
enum JSONParser {
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(JSONSyntaxError) -> JSONValue {
        var scanner = JSONScanner(bytes)
        let value = try parseValue(&scanner)
        try scanner.finish()
        return value
    }

    private static func parseValue(_ scanner: inout JSONScanner) throws(JSONSyntaxError) -> JSONValue {
        switch scanner.peek() {
        case UInt8(ascii: "{"):
            try scanner.beginObject()
            var members: [(String, JSONValue)] = []
            var isFirst = true
            while let (name, _) = try scanner.nextMember(isFirst: &isFirst) {
                members.append((name, try parseValue(&scanner)))
            }
            return .object(members)
        case UInt8(ascii: "["):
            try scanner.beginArray()
            var elements: [JSONValue] = []
            var isFirst = true
            while try scanner.nextElement(isFirst: &isFirst) { elements.append(try parseValue(&scanner)) }
            return .array(elements)
        case UInt8(ascii: "\""): return .string(try scanner.readString())
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return .bool(try scanner.readBool())
        case UInt8(ascii: "n"):
            try scanner.readNull()
            return .null
        case nil: throw scanner.error("unexpected end of input")
        default:
            switch try scanner.readNumber() {
            case .integer(let value): return .number(value)
            case .double(let value): return .double(value)
            }
        }
    }
}
