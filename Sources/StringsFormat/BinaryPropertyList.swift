/// Reads a compiled binary property list (`bplist00`) holding a strings table, as Xcode ships
/// `.strings` files.
///
/// The top object must be a dictionary whose keys and values are strings: ASCII (marker `0x5X`)
/// or UTF-16 big-endian (marker `0x6X`). Like CoreFoundation, `0x7X` (UTF-8) is not accepted; it
/// is not part of the `bplist00` format. Unlike CoreFoundation, this reader is loud about input it
/// would silently repair: a byte above 0x7F in an ASCII string, a lone UTF-16 surrogate, a key
/// written twice (CoreFoundation keeps the first) and a non-string value are all errors. An empty
/// UTF-16 string is an error too, because CoreFoundation rejects the whole file for it.
///
/// Every offset, length, count and reference in the input is untrusted. Each is range-checked
/// with overflow-free arithmetic before use, and counts are capped by the bytes that could hold
/// them. Strings are decoded once per object and the decoded bytes are budgeted by the file size,
/// so objects that overlap or are referenced many times cannot make the work or the memory grow
/// faster than the input. Only the top dictionary is walked, so reference cycles cannot recurse.
enum BinaryPropertyList {
    /// The 32-byte trailer: 5 unused bytes, the sort version, the offset integer size, the object
    /// reference size, then three big-endian 64-bit integers (object count, top object, offset table).
    static let trailerSize = 32
    /// `bplist` and a two-character version.
    static let headerSize = 8
    private static let magic: [UInt8] = Array("bplist0".utf8)

    /// Whether `bytes` starts with `bplist0`, the signature CoreFoundation accepts (any version `0?`).
    static func isBinaryPropertyList(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count >= magic.count else { return false }
        return magic.indices.allSatisfy { bytes[$0] == magic[$0] }
    }

    /// Parses a binary property list whose top object is a dictionary of strings.
    ///
    /// Entries keep the dictionary's stored order and have no location or comment.
    /// - Throws: `ParseError` at line 1, column 1, with the offending byte offset in `byteOffset`
    ///   and in the reason.
    /// - Complexity: O(n) in the number of bytes, for any input.
    static func parseStringsTable(_ bytes: UnsafeRawBufferPointer) throws(ParseError) -> StringsTable {
        guard isBinaryPropertyList(bytes) else {
            throw error("missing the 'bplist0' signature", at: 0)
        }
        var reader = ObjectReader(layout: try Layout(bytes))
        return try reader.readStringsTable()
    }

    /// Parses a binary property list into the structure `PropertyListSerialization` returns (a `.stringsdict`
    /// compiled by Xcode, whose entries nest dictionaries).
    ///
    /// Dictionaries, arrays, strings (ASCII and UTF-16), integers up to 64 bits, reals, Booleans, dates and
    /// data are read; UIDs, sets, null and 128-bit integers are errors, as is a dictionary key that is not a
    /// string or appears twice. Objects may be shared (Apple's writer stores equal objects once): nesting is
    /// capped at `XMLPropertyList.maximumDepth`, so a reference cycle is an error, and the objects a tree
    /// expands to are capped at 16 per input byte, so shared objects cannot make the work grow faster than
    /// the input.
    /// - Throws: `ParseError` at line 1, column 1, with the offending byte offset in `byteOffset` and in the
    ///   reason.
    /// - Complexity: O(n) in the number of bytes, for any input.
    static func parse(_ bytes: UnsafeRawBufferPointer) throws(ParseError) -> PropertyListValue {
        guard isBinaryPropertyList(bytes) else {
            throw error("missing the 'bplist0' signature", at: 0)
        }
        var reader = ObjectReader(layout: try Layout(bytes))
        return try reader.readTopObject()
    }

    /// An error in binary property list `bytes` at `offset`.
    static func error(_ reason: String, at offset: Int) -> ParseError {
        ParseError("binary property list: \(reason) at byte offset \(offset)", line: 1, column: 1, byteOffset: offset)
    }

    /// What the object with `marker` is, with an article: "an array", "a UTF-16 string".
    static func kind(ofMarker marker: UInt8) -> String {
        switch marker >> 4 {
        case 0x0:
            switch marker {
            case 0x00: return "null"
            case 0x08, 0x09: return "a boolean"
            case 0x0F: return "a fill byte"
            default: return unknownKind(marker)
            }
        case 0x1: return "an integer"
        case 0x2: return "a real number"
        case 0x3: return marker == 0x33 ? "a date" : unknownKind(marker)
        case 0x4: return "data"
        case 0x5: return "an ASCII string"
        case 0x6: return "a UTF-16 string"
        case 0x7: return "a UTF-8 string (marker 0x7X is not part of bplist00)"
        case 0x8: return "a UID"
        case 0xA: return "an array"
        case 0xB: return "an ordered set"
        case 0xC: return "a set"
        case 0xD: return "a dictionary"
        default: return unknownKind(marker)
        }
    }

    private static func unknownKind(_ marker: UInt8) -> String {
        "an unknown object (marker \(hex(marker)))"
    }

    static func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return byte < 0x10 ? "0x0\(digits)" : "0x\(digits)"
    }
}

/// The validated frame of a binary property list: where the objects are and how references resolve.
///
/// After `init` succeeds, every offset table entry points into the object area
/// `headerSize..<offsetTable`, so resolving a reference that is in range needs no further check.
struct Layout {
    let bytes: UnsafeRawBufferPointer
    let offsetSize: Int
    let referenceSize: Int
    let objectCount: Int
    let topObject: Int
    /// Where the offset table starts, which is where the object area ends.
    let offsetTable: Int

    init(_ bytes: UnsafeRawBufferPointer) throws(ParseError) {
        typealias BPL = BinaryPropertyList
        let minimum = BPL.headerSize + 1 + BPL.trailerSize
        guard bytes.count >= minimum else {
            throw BPL.error(
                "truncated trailer: \(bytes.count) bytes, fewer than the \(minimum) a header, one object and the "
                    + "32-byte trailer need", at: bytes.count)
        }
        let trailer = bytes.count - BPL.trailerSize
        let offsetSize = Int(bytes[trailer + 6])
        let referenceSize = Int(bytes[trailer + 7])
        let objectCount = Self.uint(bytes, at: trailer + 8, size: 8)
        let topObject = Self.uint(bytes, at: trailer + 16, size: 8)
        let offsetTable = Self.uint(bytes, at: trailer + 24, size: 8)

        guard (1...8).contains(offsetSize) else {
            throw BPL.error("offset integer size \(offsetSize) in the trailer is not 1 to 8", at: trailer + 6)
        }
        guard (1...8).contains(referenceSize) else {
            throw BPL.error("object reference size \(referenceSize) in the trailer is not 1 to 8", at: trailer + 7)
        }
        guard offsetTable > UInt64(BPL.headerSize), offsetTable <= UInt64(trailer) else {
            throw BPL.error("offset table offset \(offsetTable) in the trailer is outside the file", at: trailer + 24)
        }
        // Now offsetTable fits in Int, and the table runs from it to the trailer.
        let tableBytes = trailer - Int(offsetTable)
        guard objectCount >= 1 else {
            throw BPL.error("the trailer claims no objects", at: trailer + 8)
        }
        // Equal sizes cap the object count by the file size before anything is allocated or walked.
        guard tableBytes % offsetSize == 0, objectCount == UInt64(tableBytes / offsetSize) else {
            throw BPL.error(
                "the trailer claims \(objectCount) objects of \(offsetSize)-byte offsets, but the offset table "
                    + "at byte offset \(offsetTable) has \(tableBytes) bytes", at: trailer + 8)
        }
        guard topObject < objectCount else {
            throw BPL.error("top object \(topObject) out of range (\(objectCount) objects)", at: trailer + 16)
        }
        guard referenceSize == 8 || objectCount >> UInt64(8 * referenceSize) == 0 else {
            throw BPL.error(
                "object reference size \(referenceSize) cannot address \(objectCount) objects", at: trailer + 7)
        }
        guard offsetSize == 8 || offsetTable >> UInt64(8 * offsetSize) == 0 else {
            throw BPL.error(
                "offset integer size \(offsetSize) cannot reach the offset table at \(offsetTable)", at: trailer + 6)
        }
        self.bytes = bytes
        self.offsetSize = offsetSize
        self.referenceSize = referenceSize
        self.objectCount = Int(objectCount)
        self.topObject = Int(topObject)
        self.offsetTable = Int(offsetTable)

        for index in 0..<self.objectCount {
            let position = self.offsetTable + index * offsetSize
            let offset = Self.uint(bytes, at: position, size: offsetSize)
            guard offset >= UInt64(BPL.headerSize), offset < UInt64(self.offsetTable) else {
                throw BPL.error(
                    "offset table entry \(index) points to \(offset), outside the object data "
                        + "(\(BPL.headerSize)..<\(self.offsetTable))", at: position)
            }
        }
    }

    /// The big-endian unsigned integer of `size` (at most 8) bytes at `offset`; the caller checked the range.
    static func uint(_ bytes: UnsafeRawBufferPointer, at offset: Int, size: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in offset..<(offset + size) {
            value = value << 8 | UInt64(bytes[index])
        }
        return value
    }

    /// The offset of object `index`, which must be below `objectCount`.
    func offset(ofObject index: Int) -> Int {
        Int(Self.uint(bytes, at: offsetTable + index * offsetSize, size: offsetSize))
    }

    /// The offset of the object whose reference is stored at `position` (inside the object area).
    func offset(ofObjectReferencedAt position: Int) throws(ParseError) -> Int {
        let reference = Self.uint(bytes, at: position, size: referenceSize)
        guard reference < UInt64(objectCount) else {
            throw BinaryPropertyList.error(
                "object reference \(reference) out of range (\(objectCount) objects)", at: position)
        }
        return offset(ofObject: Int(reference))
    }

    /// The element count of the object at `offset` (the marker's low nibble, or the integer object
    /// after a `0xF` nibble) and where its contents start; the contents are not checked here.
    func count(ofObjectAt offset: Int) throws(ParseError) -> (count: Int, contents: Int) {
        let nibble = Int(bytes[offset] & 0x0F)
        guard nibble == 0x0F else { return (nibble, offset + 1) }
        let position = offset + 1
        guard position < offsetTable else {
            throw BinaryPropertyList.error("truncated length of the object at byte offset \(offset)", at: position)
        }
        let marker = bytes[position]
        guard marker & 0xF0 == 0x10 else {
            throw BinaryPropertyList.error(
                "the length of the object at byte offset \(offset) is \(BinaryPropertyList.kind(ofMarker: marker)), "
                    + "not an integer", at: position)
        }
        let size = 1 << Int(marker & 0x0F)
        guard size <= offsetTable - position - 1 else {
            throw BinaryPropertyList.error("truncated \(size)-byte length integer", at: position)
        }
        var value: UInt64 = 0
        for index in (position + 1)..<(position + 1 + size) {
            guard value >> 56 == 0 else {
                throw BinaryPropertyList.error("length integer does not fit in 64 bits", at: position)
            }
            value = value << 8 | UInt64(bytes[index])
        }
        guard value <= UInt64(Int.max) else {
            throw BinaryPropertyList.error("length \(value) is negative or too large", at: position)
        }
        return (Int(value), position + 1 + size)
    }
}

/// Walks the top dictionary, decoding each string object once.
struct ObjectReader {
    let layout: Layout
    /// Decoded strings by object offset: a string shared by many keys is decoded once.
    private var strings: [Int: String] = [:]
    /// Input bytes that may still be decoded. Objects in a well-formed file do not overlap, so all
    /// of them together fit in the file; more means objects overlap, and decoding them would cost
    /// up to quadratic time and memory.
    private var budget: Int
    /// Objects `readTopObject` may still visit (see `BinaryPropertyList.parse(_:)`).
    var objectBudget = 0

    init(layout: Layout) {
        self.layout = layout
        self.budget = layout.offsetTable
    }

    enum Role {
        case key(Int)
        case value(key: String)
    }

    mutating func readStringsTable() throws(ParseError) -> StringsTable {
        let bytes = layout.bytes
        let top = layout.offset(ofObject: layout.topObject)
        guard bytes[top] >> 4 == 0xD else {
            throw BinaryPropertyList.error(
                "top object is \(BinaryPropertyList.kind(ofMarker: bytes[top])), not a dictionary", at: top)
        }
        let (count, references) = try layout.count(ofObjectAt: top)
        // Two references per entry; dividing keeps the check free of overflow.
        guard count <= (layout.offsetTable - references) / (2 * layout.referenceSize) else {
            throw BinaryPropertyList.error(
                "the dictionary claims \(count) entries, more references than the object data holds", at: top)
        }
        var table = StringsTable()
        // Distinct keys need distinct objects, so a claimed count beyond them reserves nothing more.
        table.reserveCapacity(min(count, layout.objectCount))
        for index in 0..<count {
            let keyPosition = references + index * layout.referenceSize
            let key = try string(referencedAt: keyPosition, as: .key(index))
            let value = try string(referencedAt: keyPosition + count * layout.referenceSize, as: .value(key: key))
            table.append(StringsEntry(key: key, value: value))
            // CoreFoundation keeps the first value of a repeated key, the text format the last: refuse to guess.
            guard table.count == index + 1 else {
                throw BinaryPropertyList.error("key '\(Self.abbreviated(key))' appears twice", at: keyPosition)
            }
        }
        return table
    }

    mutating func string(referencedAt position: Int, as role: Role) throws(ParseError) -> String {
        try string(at: try layout.offset(ofObjectReferencedAt: position), as: role)
    }

    mutating func string(at offset: Int, as role: Role) throws(ParseError) -> String {
        if let string = strings[offset] { return string }
        let marker = layout.bytes[offset]
        let isASCII = marker >> 4 == 0x5
        guard isASCII || marker >> 4 == 0x6 else {
            let kind = BinaryPropertyList.kind(ofMarker: marker)
            switch role {
            case .key(let index):
                throw BinaryPropertyList.error("key \(index) is \(kind), not a string", at: offset)
            case .value(let key):
                throw BinaryPropertyList.error(
                    "value for key '\(Self.abbreviated(key))' is \(kind), not a string", at: offset)
            }
        }
        let (count, contents) = try layout.count(ofObjectAt: offset)
        let unitSize = isASCII ? 1 : 2
        guard count <= (layout.offsetTable - contents) / unitSize else {
            throw BinaryPropertyList.error("string of \(count) characters runs past the object data", at: offset)
        }
        guard isASCII || count > 0 else {
            // CoreFoundation fails to allocate the zero characters and rejects the whole file.
            throw BinaryPropertyList.error("empty UTF-16 string, which CoreFoundation rejects", at: offset)
        }
        let byteCount = count * unitSize
        guard byteCount <= budget else {
            throw BinaryPropertyList.error(
                "string objects overlap: more string bytes than the file holds", at: offset)
        }
        budget -= byteCount
        let string = try isASCII
            ? decodeASCII(from: contents, count: count)
            : decodeUTF16(from: contents, count: count)
        strings[offset] = string
        return string
    }

    private func decodeASCII(from start: Int, count: Int) throws(ParseError) -> String {
        let slice = UnsafeRawBufferPointer(rebasing: layout.bytes[start..<(start + count)])
        if let index = slice.firstIndex(where: { $0 >= 0x80 }) {
            throw BinaryPropertyList.error(
                "non-ASCII byte \(BinaryPropertyList.hex(slice[index])) in an ASCII string", at: start + index)
        }
        return String(decoding: slice, as: UTF8.self)
    }

    private func decodeUTF16(from start: Int, count: Int) throws(ParseError) -> String {
        let bytes = layout.bytes
        var invalidOffset: Int?
        // A UTF-16 unit becomes at most 3 UTF-8 bytes (a surrogate pair, 2 units, becomes 4).
        let string = String(unsafeUninitializedCapacity: count * 3) { buffer in
            var written = 0
            var index = 0
            while index < count {
                let position = start + 2 * index
                let unit = UInt32(bytes[position]) << 8 | UInt32(bytes[position + 1])
                var scalar = unit
                if unit & 0xF800 == 0xD800 {
                    let next = position + 2
                    guard unit < 0xDC00, index + 1 < count else {
                        invalidOffset = position
                        return 0
                    }
                    let low = UInt32(bytes[next]) << 8 | UInt32(bytes[next + 1])
                    guard low & 0xFC00 == 0xDC00 else {
                        invalidOffset = position
                        return 0
                    }
                    scalar = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                    index += 1
                }
                written = Self.appendUTF8(scalar, to: buffer, at: written)
                index += 1
            }
            return written
        }
        if let invalidOffset {
            throw BinaryPropertyList.error("invalid UTF-16 (lone surrogate) in string", at: invalidOffset)
        }
        return string
    }

    /// Writes `scalar` (a valid Unicode scalar value) as UTF-8 at `index`; returns the index after it.
    private static func appendUTF8(
        _ scalar: UInt32, to buffer: UnsafeMutableBufferPointer<UInt8>, at index: Int
    ) -> Int {
        switch scalar {
        case 0..<0x80:
            buffer[index] = UInt8(scalar)
            return index + 1
        case 0x80..<0x800:
            buffer[index] = UInt8(0xC0 | scalar >> 6)
            buffer[index + 1] = UInt8(0x80 | scalar & 0x3F)
            return index + 2
        case 0x800..<0x10000:
            buffer[index] = UInt8(0xE0 | scalar >> 12)
            buffer[index + 1] = UInt8(0x80 | scalar >> 6 & 0x3F)
            buffer[index + 2] = UInt8(0x80 | scalar & 0x3F)
            return index + 3
        default:
            buffer[index] = UInt8(0xF0 | scalar >> 18)
            buffer[index + 1] = UInt8(0x80 | scalar >> 12 & 0x3F)
            buffer[index + 2] = UInt8(0x80 | scalar >> 6 & 0x3F)
            buffer[index + 3] = UInt8(0x80 | scalar & 0x3F)
            return index + 4
        }
    }

    /// `key` cut to 60 characters for an error message.
    private static func abbreviated(_ key: String) -> String {
        key.count <= 60 ? key : String(key.prefix(57)) + "..."
    }
}
