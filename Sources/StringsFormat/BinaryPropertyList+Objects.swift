/// The whole object tree of a binary property list, for `BinaryPropertyList.parse(_:)`.
extension ObjectReader {
    /// Reads the top object and everything it refers to.
    mutating func readTopObject() throws(ParseError) -> PropertyListValue {
        objectBudget = 16 * layout.bytes.count + 1024
        return try object(at: layout.offset(ofObject: layout.topObject), depth: 0)
    }

    private mutating func object(at offset: Int, depth: Int) throws(ParseError) -> PropertyListValue {
        guard objectBudget > 0 else {
            throw BinaryPropertyList.error("shared objects expand to more than 16 objects per input byte", at: offset)
        }
        objectBudget -= 1
        let bytes = layout.bytes
        let marker = bytes[offset]
        switch marker >> 4 {
        case 0x0 where marker == 0x08 || marker == 0x09:
            return .boolean(marker == 0x09)
        case 0x1:
            let size = 1 << Int(marker & 0x0F)
            let contents = try scalarContents(at: offset, size: size, allowed: [1, 2, 4, 8], what: "integer")
            let value = Layout.uint(bytes, at: contents, size: size)
            // Apple's writer stores negative numbers in 8 bytes; fewer bytes are unsigned.
            return .integer(Int64(bitPattern: value))
        case 0x2:
            let size = 1 << Int(marker & 0x0F)
            let contents = try scalarContents(at: offset, size: size, allowed: [4, 8], what: "real number")
            let bits = Layout.uint(bytes, at: contents, size: size)
            return .real(size == 4 ? Double(Float(bitPattern: UInt32(bits))) : Double(bitPattern: bits))
        case 0x3 where marker == 0x33:
            let contents = try scalarContents(at: offset, size: 8, allowed: [8], what: "date")
            return .date(Double(bitPattern: Layout.uint(bytes, at: contents, size: 8)))
        case 0x4:
            let (count, contents) = try layout.count(ofObjectAt: offset)
            guard count <= layout.offsetTable - contents else {
                throw BinaryPropertyList.error("data of \(count) bytes runs past the object data", at: offset)
            }
            return .data(Array(UnsafeRawBufferPointer(rebasing: bytes[contents..<(contents + count)])))
        case 0x5, 0x6:
            return .string(try string(at: offset, as: .key(0)))
        case 0xA:
            guard depth < XMLPropertyList.maximumDepth else { throw nestingError(at: offset) }
            let (count, references) = try containerReferences(at: offset, perElement: 1)
            var elements: [PropertyListValue] = []
            elements.reserveCapacity(count)
            for index in 0..<count {
                let position = references + index * layout.referenceSize
                elements.append(try object(at: try layout.offset(ofObjectReferencedAt: position), depth: depth + 1))
            }
            return .array(elements)
        case 0xD:
            guard depth < XMLPropertyList.maximumDepth else { throw nestingError(at: offset) }
            let (count, references) = try containerReferences(at: offset, perElement: 2)
            var entries: [String: PropertyListValue] = [:]
            entries.reserveCapacity(count)
            for index in 0..<count {
                let keyPosition = references + index * layout.referenceSize
                let key = try string(referencedAt: keyPosition, as: .key(index))
                let valuePosition = keyPosition + count * layout.referenceSize
                let value = try object(at: try layout.offset(ofObjectReferencedAt: valuePosition), depth: depth + 1)
                guard entries.updateValue(value, forKey: key) == nil else {
                    throw BinaryPropertyList.error("key '\(key.prefix(60))' appears twice in a dictionary",
                                                   at: keyPosition)
                }
            }
            return .dictionary(entries)
        default:
            throw BinaryPropertyList.error(
                "\(BinaryPropertyList.kind(ofMarker: marker)) is not supported in a property list read as values",
                at: offset)
        }
    }

    /// Where the `size` bytes of a number object start, after checking the size and that they are there.
    private func scalarContents(at offset: Int, size: Int, allowed: [Int], what: String) throws(ParseError)
        -> Int
    {
        guard allowed.contains(size) else {
            throw BinaryPropertyList.error("\(size)-byte \(what) is not supported", at: offset)
        }
        guard size <= layout.offsetTable - offset - 1 else {
            throw BinaryPropertyList.error("truncated \(size)-byte \(what)", at: offset)
        }
        return offset + 1
    }

    /// The element count of an array or dictionary and where its references start, checked to be in the data.
    private func containerReferences(at offset: Int, perElement: Int) throws(ParseError) -> (Int, Int) {
        let (count, references) = try layout.count(ofObjectAt: offset)
        // Dividing keeps the check free of overflow.
        guard count <= (layout.offsetTable - references) / (perElement * layout.referenceSize) else {
            throw BinaryPropertyList.error(
                "the container claims \(count) elements, more references than the object data holds", at: offset)
        }
        return (count, references)
    }

    private func nestingError(at offset: Int) -> ParseError {
        BinaryPropertyList.error(
            "nesting deeper than \(XMLPropertyList.maximumDepth) containers (or a container that contains itself)",
            at: offset)
    }
}
