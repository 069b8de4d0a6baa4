/// Reads XML property lists (`.stringsdict`, `Info.plist`) into the structure Foundation's
/// `PropertyListSerialization` returns.
///
/// The reader is a single forward pass over UTF-8 bytes with an explicit stack, so no input can make it
/// recurse: nesting deeper than `maximumDepth` is an error. Only XML's five predefined entities and numeric
/// character references are expanded; a DTD internal subset (where entity bombs live) is an error, and an
/// external DTD (`<!DOCTYPE plist PUBLIC …>`) is skipped unread. Every construct is read once, so the work is
/// linear in the input for any input. Divergences from CoreFoundation are listed in `docs/FORMAT.md`.
public enum XMLPropertyList {
    /// The deepest nesting of `<dict>` and `<array>` accepted.
    public static let maximumDepth = 512

    /// Whether `bytes` looks like an XML property list: it starts (after an optional UTF-8 BOM and
    /// whitespace) with `<?xml`, `<!DOCTYPE plist` or `<plist`.
    public static func isXMLPropertyList(_ bytes: [UInt8]) -> Bool {
        var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while start < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[start]) { start += 1 }
        let rest = bytes[start...]
        return rest.starts(with: Array("<?xml".utf8)) || rest.starts(with: Array("<!DOCTYPE plist".utf8))
            || rest.starts(with: Array("<plist".utf8))
    }

    /// Parses the XML property list `bytes` (UTF-8, with or without a BOM).
    /// - Throws: `ParseError` with the line and column (in Unicode scalars) of the offending byte.
    /// - Complexity: O(n) in the number of bytes, for any input.
    public static func parse(_ bytes: [UInt8]) throws(ParseError) -> PropertyListValue {
        let result: Result<PropertyListValue, ParseError> = bytes.withUnsafeBufferPointer { buffer in
            var reader = XMLPropertyListReader(buffer)
            do throws(ParseError) {
                return .success(try reader.readDocument())
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Parses `bytes` as `parse` does, and says where each dictionary member is: what an editor changes.
    static func outline(_ bytes: [UInt8]) throws(ParseError) -> (PropertyListValue, [XMLMemberSpan]) {
        let result: Result<(PropertyListValue, [XMLMemberSpan]), ParseError> = bytes.withUnsafeBufferPointer { buffer in
            var reader = XMLPropertyListReader(buffer)
            reader.spans = []
            do throws(ParseError) {
                let value = try reader.readDocument()
                return .success((value, reader.spans ?? []))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}

/// Where one object of an XML property list is, as byte offsets into the input.
struct XMLMemberSpan {
    /// The dictionary keys from the top object down to this one (empty for the top object); `nil` inside arrays.
    var path: [String]?
    /// The `<key>` tag of this member; the value's own start for the top object.
    var keyStart: Int
    /// From the value's opening tag to just after its closing tag.
    var value: Range<Int>
    /// For a container, where its closing tag starts.
    var closingTag: Int?
}

/// The reader's state: the input, the position and the stack of open containers.
///
/// The finished members of all open containers wait on two shared stacks (values, and the keys of dictionary
/// members), so a container is built once, at its final size, when it closes.
struct XMLPropertyListReader {
    private struct Container {
        var isDictionary: Bool
        /// Where this container's members start on `values` (and, for a dictionary, on `keys`).
        var valueStart: Int
        var keyStart: Int
        /// A dictionary's key waiting for its value, and where it was written.
        var key: String?
        var keyOffset = 0
        /// Where the container's opening tag is.
        var openOffset = 0

        var elementName: String { isDictionary ? "dict" : "array" }
    }

    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0
    private var stack: [Container] = []
    private var values: [PropertyListValue] = []
    private var keys: [String] = []
    /// Where each object is, in the order they end, when an editor asked (`XMLPropertyList.outline`).
    var spans: [XMLMemberSpan]?

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// The prolog, the top object (inside `<plist>` or bare, as CoreFoundation allows) and the epilog.
    mutating func readDocument() throws(ParseError) -> PropertyListValue {
        if let (offset, reason) = UTF8Validation.firstError(in: bytes) {
            throw error("not UTF-8 text: \(reason) (XML property lists are read as UTF-8)", at: offset)
        }
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
        try skipMiscellany(allowDoctype: true)
        guard position < bytes.count else { throw error("empty property list: no <plist> element", at: position) }
        var isWrapped = false
        let tagOffset = position
        var tag = try readTag()
        if tag.name == .plist, !tag.isClosing {
            guard !tag.isEmpty else { throw error("empty <plist/> element: no object", at: tagOffset) }
            isWrapped = true
            try skipMiscellany(allowDoctype: false)
            tag = try readTag()
        }
        let value = try readValue(startingWith: tag)
        try skipMiscellany(allowDoctype: false)
        if isWrapped {
            let closeOffset = position
            guard position < bytes.count else { throw error("the input ends before </plist>", at: position) }
            let close = try readTag()
            guard close.isClosing, close.name == .plist else {
                throw error("expected </plist> after the top object, found \(close)", at: closeOffset)
            }
            try skipMiscellany(allowDoctype: false)
        }
        guard position == bytes.count else {
            throw error("unexpected text after the end of the property list", at: position)
        }
        return value
    }

    // MARK: Objects

    /// An element's name: the property list's own names without a string to compare or free; any other name is
    /// `other`, and the tag keeps it as written.
    enum ElementName: Equatable, CustomStringConvertible {
        case plist, dict, array, key, string, integer, real, `true`, `false`, date, data, other

        var description: String {
            switch self {
            case .plist: "plist"
            case .dict: "dict"
            case .array: "array"
            case .key: "key"
            case .string: "string"
            case .integer: "integer"
            case .real: "real"
            case .true: "true"
            case .false: "false"
            case .date: "date"
            case .data: "data"
            case .other: "?"
            }
        }

        /// The closing tag of an element that holds text, `</name>`, as bytes to compare the input with; empty for
        /// the others.
        var closingTag: StaticString {
            switch self {
            case .key: "</key>"
            case .string: "</string>"
            case .integer: "</integer>"
            case .real: "</real>"
            case .date: "</date>"
            case .data: "</data>"
            default: ""
            }
        }
    }

    struct Tag: CustomStringConvertible {
        var name: ElementName
        var isClosing: Bool
        var isEmpty: Bool
        var offset: Int
        /// The name as written: a view of the input, read only while the input is parsed (for messages).
        var written: UnsafeBufferPointer<UInt8>

        var description: String {
            let name = String(decoding: written, as: UTF8.self)
            return isClosing ? "</\(name)>" : isEmpty ? "<\(name)/>" : "<\(name)>"
        }
    }

    /// Reads the object that `first` opens, with containers on the explicit stack, never recursing.
    private mutating func readValue(startingWith first: Tag) throws(ParseError) -> PropertyListValue {
        var tag = first
        while true {
            var finished: PropertyListValue?
            var valueStart = tag.offset
            if tag.isClosing {
                guard let top = stack.last else { throw error("unexpected \(tag)", at: tag.offset) }
                guard tag.name == (top.isDictionary ? .dict : .array) else {
                    throw error("\(tag) closes <\(top.elementName)>", at: tag.offset)
                }
                stack.removeLast()
                finished = try close(top)
                valueStart = top.openOffset
            } else {
                finished = try readObject(tag)
            }
            if let value = finished {
                if spans != nil { recordSpan(from: valueStart, closingTag: tag.isClosing ? tag.offset : nil) }
                if stack.isEmpty { return value }
                try add(value, at: tag.offset)
            }
            try skipMiscellany(allowDoctype: false)
            guard position < bytes.count else {
                throw error("the input ends inside <\(stack.last?.elementName ?? "plist")>", at: position)
            }
            tag = try readTag()
        }
    }

    /// Reads the object `tag` opens; a container that is not empty is pushed and yields `nil`.
    private mutating func readObject(_ tag: Tag) throws(ParseError) -> PropertyListValue? {
        switch tag.name {
        case .dict, .array:
            if tag.isEmpty { return tag.name == .dict ? .dictionary([:]) : .array([]) }
            guard stack.count < XMLPropertyList.maximumDepth else {
                throw error("nesting deeper than \(XMLPropertyList.maximumDepth) containers", at: tag.offset)
            }
            stack.append(Container(isDictionary: tag.name == .dict, valueStart: values.count, keyStart: keys.count,
                                   openOffset: tag.offset))
            return nil
        case .key:
            guard let top = stack.last, top.isDictionary else { throw error("<key> outside a <dict>", at: tag.offset) }
            if let pending = top.key { throw error("key '\(pending)' has no value", at: top.keyOffset) }
            let key = tag.isEmpty ? "" : try readText(closing: .key)
            stack[stack.count - 1].key = key
            stack[stack.count - 1].keyOffset = tag.offset
            return nil
        case .string:
            return .string(tag.isEmpty ? "" : try readText(closing: .string))
        case .true, .false:
            if !tag.isEmpty {
                let closeOffset = position
                let close = try readTag()
                guard close.isClosing, close.name == tag.name else {
                    throw error("expected </\(tag.name)>, found \(close)", at: closeOffset)
                }
            }
            return .boolean(tag.name == .true)
        case .integer, .real, .date, .data:
            let textOffset = position
            let text = tag.isEmpty ? "" : try readText(closing: tag.name)
            return try scalar(tag.name, text, at: textOffset)
        default:
            throw error("unknown element \(tag) (expected dict, array, key, string, integer, real, true, "
                + "false, date or data)", at: tag.offset)
        }
    }

    /// Records where the object that just ended is (it started at `start`; the input is read up to its end).
    private mutating func recordSpan(from start: Int, closingTag: Int?) {
        var path: [String]? = []
        for container in stack {
            guard container.isDictionary, let key = container.key else {
                path = nil
                break
            }
            path?.append(key)
        }
        spans?.append(XMLMemberSpan(path: path, keyStart: stack.last?.keyOffset ?? start, value: start..<position,
                                    closingTag: closingTag))
    }

    /// Adds a finished object to the innermost container.
    private mutating func add(_ value: PropertyListValue, at offset: Int) throws(ParseError) {
        let top = stack.count - 1
        if stack[top].isDictionary {
            guard let key = stack[top].key else {
                throw error("\(value.kind) where a <key> is expected in <dict>", at: offset)
            }
            stack[top].key = nil
            keys.append(key)
        }
        values.append(value)
    }

    /// The finished object of a container just closed, built at its final size from the members it collected.
    ///
    /// The members are moved out of the shared stacks, not copied: their slots get a value that owns nothing
    /// (`false`, `""`) before the stacks drop them, so no member is retained and released on the way.
    private mutating func close(_ container: Container) throws(ParseError) -> PropertyListValue {
        let count = values.count - container.valueStart
        defer {
            values.removeSubrange(container.valueStart...)
            keys.removeSubrange(container.keyStart...)
        }
        guard container.isDictionary else {
            return .array([PropertyListValue](unsafeUninitializedCapacity: count) { target, initialized in
                values.withUnsafeMutableBufferPointer { source in
                    let members = source.baseAddress! + container.valueStart
                    target.baseAddress!.moveInitialize(from: members, count: count)
                    members.initialize(repeating: .boolean(false), count: count)
                }
                initialized = count
            })
        }
        if let key = container.key {
            throw error("key '\(key)' has no value before </dict>", at: container.keyOffset)
        }
        var entries = [String: PropertyListValue](minimumCapacity: count)
        keys.withUnsafeMutableBufferPointer { keyBuffer in
            values.withUnsafeMutableBufferPointer { valueBuffer in
                let memberKeys = keyBuffer.baseAddress! + container.keyStart
                let members = valueBuffer.baseAddress! + container.valueStart
                for index in 0..<count {
                    // A key written twice keeps its last value, as CoreFoundation does.
                    entries[(memberKeys + index).move()] = (members + index).move()
                }
                memberKeys.initialize(repeating: "", count: count)
                members.initialize(repeating: .boolean(false), count: count)
            }
        }
        return .dictionary(entries)
    }

    private func scalar(_ name: ElementName, _ text: String, at offset: Int) throws(ParseError) -> PropertyListValue {
        let trimmed = text.trimmingWhitespace()
        switch name {
        case .integer:
            // CoreFoundation refuses whitespace around an integer, so this reader does too.
            guard let value = PropertyListScalars.integer(text[...]) else {
                throw error("<integer> '\(text)' is not a 64-bit integer", at: offset)
            }
            return .integer(value)
        case .real:
            guard let value = Double(trimmed) else { throw error("<real> '\(trimmed)' is not a number", at: offset) }
            return .real(value)
        case .date:
            guard let value = PropertyListScalars.date(trimmed) else {
                throw error("<date> '\(trimmed)' is not YYYY-MM-DDTHH:MM:SSZ", at: offset)
            }
            return .date(value)
        default:
            guard let value = PropertyListScalars.base64(text) else {
                throw error("<data> is not Base64", at: offset)
            }
            return .data(value)
        }
    }
}
