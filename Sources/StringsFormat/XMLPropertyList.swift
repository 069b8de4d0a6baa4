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

    private let bytes: UnsafeBufferPointer<UInt8>
    private var position = 0
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
    private enum ElementName: Equatable, CustomStringConvertible {
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

    private struct Tag: CustomStringConvertible {
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

    // MARK: Markup

    /// Skips whitespace, comments and processing instructions (and, before the top element, a DOCTYPE).
    private mutating func skipMiscellany(allowDoctype: Bool) throws(ParseError) {
        while position < bytes.count {
            var index = position
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0A
                || bytes[index] == 0x0D { index += 1 }
            position = index
            guard position < bytes.count else { return }
            let byte = bytes[position]
            // Most markup here is an element's tag: one look at the byte after '<' tells.
            guard byte == UInt8(ascii: "<"), position + 1 < bytes.count,
                  bytes[position + 1] == UInt8(ascii: "!") || bytes[position + 1] == UInt8(ascii: "?") else { return }
            if hasPrefix("<!--") {
                try skip(past: "-->", from: position, what: "comment")
            } else if hasPrefix("<?") {
                try skip(past: "?>", from: position, what: "processing instruction")
            } else if hasPrefix("<!DOCTYPE") {
                guard allowDoctype else { throw error("a DOCTYPE after the top element", at: position) }
                let start = position
                while position < bytes.count, bytes[position] != UInt8(ascii: ">") {
                    if bytes[position] == UInt8(ascii: "[") {
                        throw error("a DTD internal subset is not supported: entities it declares would not be "
                            + "expanded", at: position)
                    }
                    if bytes[position] == UInt8(ascii: "\"") || bytes[position] == UInt8(ascii: "'") {
                        try skipQuoted(from: start)
                    } else {
                        position += 1
                    }
                }
                guard position < bytes.count else { throw error("unterminated DOCTYPE", at: start) }
                position += 1
            } else {
                return
            }
        }
    }

    /// Reads `<name attr="…">`, `<name/>` or `</name>`; attributes are skipped.
    private mutating func readTag() throws(ParseError) -> Tag {
        if let tag = knownTag() { return tag }
        let start = position
        guard position < bytes.count, bytes[position] == UInt8(ascii: "<") else {
            throw error("expected an element, found text", at: position)
        }
        position += 1
        let isClosing = position < bytes.count && bytes[position] == UInt8(ascii: "/")
        if isClosing { position += 1 }
        let nameStart = position
        while position < bytes.count, isNameByte(bytes[position]) { position += 1 }
        guard position > nameStart else { throw error("expected an element name after '<'", at: start) }
        let written = UnsafeBufferPointer(rebasing: bytes[nameStart..<position])
        let name = Self.elementName(written)
        while true {
            guard position < bytes.count else {
                throw error("the input ends inside the tag <\(String(decoding: written, as: UTF8.self))", at: start)
            }
            switch bytes[position] {
            case UInt8(ascii: ">"):
                position += 1
                return Tag(name: name, isClosing: isClosing, isEmpty: false, offset: start, written: written)
            case UInt8(ascii: "/") where !isClosing && position + 1 < bytes.count
                && bytes[position + 1] == UInt8(ascii: ">"):
                position += 2
                return Tag(name: name, isClosing: false, isEmpty: true, offset: start, written: written)
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                try skipQuoted(from: start)
            case UInt8(ascii: "<"):
                throw error("'<' inside the tag <\(String(decoding: written, as: UTF8.self))", at: position)
            default:
                position += 1
            }
        }
    }

    /// The tag at the position if it is one of those every property list is made of, recognized with one
    /// eight-byte load and moved past; `nil` leaves the reading to `readTag`. Each constant is the tag's bytes as a
    /// little-endian integer.
    @inline(__always)
    private mutating func knownTag() -> Tag? {
        guard position + 8 <= bytes.count, let base = bytes.baseAddress else { return nil }
        let word = WordScan.word(base, at: position)
        func first(_ count: UInt64) -> UInt64 { word & ((1 << (count * 8)) - 1) }
        let name: ElementName
        let length: Int
        var isClosing = false
        var isEmpty = false
        switch word >> 8 & 0xFF {  // the byte after '<'
        case UInt64(UInt8(ascii: "k")) where first(5) == 0x3E79_656B_3C:  // <key>
            (name, length) = (.key, 5)
        case UInt64(UInt8(ascii: "s")) where word == 0x3E67_6E69_7274_733C:  // <string>
            (name, length) = (.string, 8)
        case UInt64(UInt8(ascii: "d")) where first(6) == 0x3E74_6369_643C:  // <dict>
            (name, length) = (.dict, 6)
        case UInt64(UInt8(ascii: "/")) where first(7) == 0x3E_7463_6964_2F3C:  // </dict>
            (name, length, isClosing) = (.dict, 7, true)
        case UInt64(UInt8(ascii: "/")) where word == 0x3E79_6172_7261_2F3C:  // </array>
            (name, length, isClosing) = (.array, 8, true)
        case UInt64(UInt8(ascii: "a")) where first(7) == 0x3E_7961_7272_613C:  // <array>
            (name, length) = (.array, 7)
        case UInt64(UInt8(ascii: "t")) where first(7) == 0x3E_2F65_7572_743C:  // <true/>
            (name, length, isEmpty) = (.true, 7, true)
        case UInt64(UInt8(ascii: "f")) where word == 0x3E2F_6573_6C61_663C:  // <false/>
            (name, length, isEmpty) = (.false, 8, true)
        default:
            return nil
        }
        let nameStart = position + (isClosing ? 2 : 1)
        let nameEnd = position + length - (isEmpty ? 2 : 1)
        let tag = Tag(name: name, isClosing: isClosing, isEmpty: isEmpty, offset: position,
                      written: UnsafeBufferPointer(rebasing: bytes[nameStart..<nameEnd]))
        position += length
        return tag
    }

    /// The length of `</name>` if it is at the position, else `nil`; the closing tags of keys and strings, which
    /// end almost every text, are recognized with one eight-byte load (the constants are their bytes as a
    /// little-endian integer).
    @inline(__always)
    private func closingTagLength(_ name: ElementName) -> Int? {
        if position + 9 <= bytes.count, let base = bytes.baseAddress {
            let word = WordScan.word(base, at: position)
            switch name {
            case .key: return word & 0xFFFF_FFFF_FFFF == 0x3E79_656B_2F3C ? 6 : nil  // </key>
            case .string: return word == 0x676E_6972_7473_2F3C && base[position + 8] == UInt8(ascii: ">") ? 9 : nil
            default: break
            }
        }
        guard name.closingTag.utf8CodeUnitCount > 0, hasPrefix(name.closingTag) else { return nil }
        return name.closingTag.utf8CodeUnitCount
    }

    /// Reads character data up to `</name>`, expanding entities and CDATA sections.
    private mutating func readText(closing name: ElementName) throws(ParseError) -> String {
        let start = position
        position = markupOrReference(from: position)
        // Most texts are one run of characters up to their closing tag: made into a string straight from the
        // input, without a copy in between (or no string at all for the names every `.stringsdict` repeats).
        if position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: "/") {
            let end = position
            if let length = closingTagLength(name) {
                position += length
            } else {
                let tag = try readTag()
                guard tag.name == name else {
                    throw error("\(tag) inside <\(name)> (text cannot hold elements)", at: end)
                }
            }
            let text = UnsafeBufferPointer(rebasing: bytes[start..<end])
            return Self.wellKnownString(text) ?? String(decoding: text, as: UTF8.self)
        }
        var text = Array(UnsafeBufferPointer(rebasing: bytes[start..<position]))
        while true {
            let chunkStart = position
            while position < bytes.count, bytes[position] != UInt8(ascii: "<"), bytes[position] != UInt8(ascii: "&") {
                position += 1
            }
            text.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[chunkStart..<position]))
            guard position < bytes.count else { throw error("the input ends inside <\(name)>", at: start) }
            if bytes[position] == UInt8(ascii: "&") {
                try readReference(into: &text)
            } else if hasPrefix("<![CDATA[") {
                let dataStart = position + 9
                try skip(past: "]]>", from: position, what: "CDATA section")
                text.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[dataStart..<(position - 3)]))
            } else if hasPrefix("<!--") {
                try skip(past: "-->", from: position, what: "comment")
            } else {
                let tagOffset = position
                let tag = try readTag()
                guard tag.isClosing, tag.name == name else {
                    throw error("\(tag) inside <\(name)> (text cannot hold elements)", at: tagOffset)
                }
                return String(decoding: text, as: UTF8.self)
            }
        }
    }

    /// Expands `&amp; &lt; &gt; &quot; &apos; &#N; &#xH;`; any other reference is an error.
    private mutating func readReference(into text: inout [UInt8]) throws(ParseError) {
        let start = position
        var end = position + 1
        while end < bytes.count, end - start < 12, bytes[end] != UInt8(ascii: ";") { end += 1 }
        guard end < bytes.count, bytes[end] == UInt8(ascii: ";") else {
            throw error("'&' that does not start a reference (write &amp;)", at: start)
        }
        let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[(start + 1)..<end]), as: UTF8.self)
        position = end + 1
        switch name {
        case "amp": text.append(UInt8(ascii: "&"))
        case "lt": text.append(UInt8(ascii: "<"))
        case "gt": text.append(UInt8(ascii: ">"))
        case "quot": text.append(UInt8(ascii: "\""))
        case "apos": text.append(UInt8(ascii: "'"))
        default:
            var value: UInt32?
            if name.hasPrefix("#x") || name.hasPrefix("#X") {
                value = UInt32(name.dropFirst(2), radix: 16)
            } else if name.hasPrefix("#") {
                value = UInt32(name.dropFirst(1), radix: 10)
            } else {
                throw error("unknown entity &\(name); (only &amp; &lt; &gt; &quot; &apos; and numeric references "
                    + "are expanded)", at: start)
            }
            guard let scalar = value, scalar != 0, scalar <= 0x10FFFF, !(0xD800...0xDFFF).contains(scalar) else {
                throw error("&\(name); is not a Unicode scalar", at: start)
            }
            UTF8Validation.append(scalar: scalar, to: &text)
        }
    }

    private mutating func skipQuoted(from start: Int) throws(ParseError) {
        let quote = bytes[position]
        position += 1
        while position < bytes.count, bytes[position] != quote { position += 1 }
        guard position < bytes.count else { throw error("unterminated quoted value", at: start) }
        position += 1
    }

    private mutating func skip(past terminator: StaticString, from start: Int, what: String) throws(ParseError) {
        let end = terminator.utf8Start
        let length = terminator.utf8CodeUnitCount
        while position + length <= bytes.count {
            if bytes[position] == end[0], (0..<length).allSatisfy({ bytes[position + $0] == end[$0] }) {
                position += length
                return
            }
            position += 1
        }
        throw error("unterminated \(what)", at: start)
    }

    /// The offset of the first '<' or '&' at or after `offset`, or the end of the input: eight bytes at a time.
    private func markupOrReference(from offset: Int) -> Int {
        guard let base = bytes.baseAddress else { return offset }
        var index = offset
        while index + WordScan.width <= bytes.count {
            let word = WordScan.word(base, at: index)
            if WordScan.contains(word, UInt8(ascii: "<")) || WordScan.contains(word, UInt8(ascii: "&")) { break }
            index += WordScan.width
        }
        while index < bytes.count, base[index] != UInt8(ascii: "<"), base[index] != UInt8(ascii: "&") { index += 1 }
        return index
    }

    /// The string `text` spells if it is one of the names of `.stringsdict` rules, which every entry repeats: a
    /// string literal needs no memory of its own (nothing to allocate, copy, check or free).
    @inline(__always)
    private static func wellKnownString(_ text: UnsafeBufferPointer<UInt8>) -> String? {
        // All of them start with "NSString" and are longer than a string stored inline (15 bytes).
        guard text.count >= 22, text[0] == UInt8(ascii: "N") else { return nil }
        func spells(_ known: StaticString) -> Bool { Self.equal(text, known) }
        switch text.count {
        case 22: return spells("NSStringPluralRuleType") ? "NSStringPluralRuleType" : nil
        case 25: return spells("NSStringFormatSpecTypeKey") ? "NSStringFormatSpecTypeKey" : nil
        case 26:
            if spells("NSStringLocalizedFormatKey") { return "NSStringLocalizedFormatKey" }
            return spells("NSStringFormatValueTypeKey") ? "NSStringFormatValueTypeKey" : nil
        case 29: return spells("NSStringVariableWidthRuleType") ? "NSStringVariableWidthRuleType" : nil
        case 30: return spells("NSStringDeviceSpecificRuleType") ? "NSStringDeviceSpecificRuleType" : nil
        default: return nil
        }
    }

    /// Whether `bytes` are exactly `known`: a plain loop, shorter than a call for these few bytes.
    @inline(__always)
    private static func equal(_ bytes: UnsafeBufferPointer<UInt8>, _ known: StaticString) -> Bool {
        guard bytes.count == known.utf8CodeUnitCount else { return false }
        let expected = known.utf8Start
        for index in 0..<bytes.count where bytes[index] != expected[index] { return false }
        return true
    }

    private func hasPrefix(_ prefix: StaticString) -> Bool {
        let length = prefix.utf8CodeUnitCount
        guard position + length <= bytes.count else { return false }
        return Self.equal(UnsafeBufferPointer(rebasing: bytes[position..<(position + length)]), prefix)
    }

    /// The name of an element: one of the property list's own, else decoded from the bytes.
    private static func elementName(_ name: UnsafeBufferPointer<UInt8>) -> ElementName {
        func matches(_ known: StaticString) -> Bool { equal(name, known) }
        let known: ElementName?
        switch (name.count, name.first) {
        case (3, UInt8(ascii: "k")): known = matches("key") ? .key : nil
        case (4, UInt8(ascii: "d")): known = matches("dict") ? .dict : matches("date") ? .date : matches("data") ? .data : nil
        case (4, UInt8(ascii: "r")): known = matches("real") ? .real : nil
        case (4, UInt8(ascii: "t")): known = matches("true") ? .true : nil
        case (5, UInt8(ascii: "a")): known = matches("array") ? .array : nil
        case (5, UInt8(ascii: "f")): known = matches("false") ? .false : nil
        case (5, UInt8(ascii: "p")): known = matches("plist") ? .plist : nil
        case (6, UInt8(ascii: "s")): known = matches("string") ? .string : nil
        case (7, UInt8(ascii: "i")): known = matches("integer") ? .integer : nil
        default: known = nil
        }
        return known ?? .other
    }

    private func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."),
             UInt8(ascii: ":"):
            true
        default:
            byte >= 0x80
        }
    }

    private func error(_ reason: String, at offset: Int) -> ParseError {
        let (line, column) = ParseError.location(of: offset, in: bytes)
        return ParseError("XML property list: \(reason)", line: line, column: column, byteOffset: offset)
    }
}
