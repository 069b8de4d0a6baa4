/// How many bytes two buffers have in common at their start or at their end, compared eight bytes at a time.
///
/// A String Catalog read again after a save is compared with its last version once this way (a save changes a
/// few bytes of two megabytes), rather than member by member.
enum CommonBytes {
    /// How many bytes `left` and `right` begin with in common.
    static func prefixCount(_ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>) -> Int {
        let count = min(left.count, right.count)
        guard count > 0, let leftBase = left.baseAddress, let rightBase = right.baseAddress else { return 0 }
        let (leftRaw, rightRaw) = (UnsafeRawPointer(leftBase), UnsafeRawPointer(rightBase))
        func word(_ pointer: UnsafeRawPointer, _ offset: Int) -> UInt64 {
            pointer.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        }
        var offset = 0
        // 64 bytes a step while they agree: the loop a catalog spends its comparison in (from memory, eight loads a
        // step compared 2 MB in 0.21 ms here, four in 0.24 ms).
        while offset + 64 <= count {
            var difference: UInt64 = 0
            for index in 0..<8 {
                difference |= word(leftRaw, offset + 8 * index) ^ word(rightRaw, offset + 8 * index)
            }
            if difference != 0 { break }
            offset += 64
        }
        while offset + 8 <= count {
            let difference = word(leftRaw, offset) ^ word(rightRaw, offset)
            // The loads are little-endian: the first byte that differs is the lowest set byte.
            if difference != 0 { return offset + (UInt64(littleEndian: difference).trailingZeroBitCount / 8) }
            offset += 8
        }
        while offset < count, left[offset] == right[offset] { offset += 1 }
        return offset
    }

    /// How many bytes `left` and `right` end with in common, at most `limit`.
    static func suffixCount(_ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>,
                            atMost limit: Int) -> Int {
        let count = min(left.count, right.count, limit)
        guard count > 0, let leftBase = left.baseAddress, let rightBase = right.baseAddress else { return 0 }
        // Both ends, as pointers to the byte after the last one.
        let (leftEnd, rightEnd) = (UnsafeRawPointer(leftBase + left.count), UnsafeRawPointer(rightBase + right.count))
        func word(_ end: UnsafeRawPointer, _ offset: Int) -> UInt64 {
            end.loadUnaligned(fromByteOffset: -offset, as: UInt64.self)
        }
        var matched = 0
        while matched + 64 <= count {
            var difference: UInt64 = 0
            for index in 1...8 {
                difference |= word(leftEnd, matched + 8 * index) ^ word(rightEnd, matched + 8 * index)
            }
            if difference != 0 { break }
            matched += 64
        }
        while matched + 8 <= count {
            let difference = word(leftEnd, matched + 8) ^ word(rightEnd, matched + 8)
            // The last byte of the word is its highest: the bytes that agree at its end are its leading zero bytes.
            if difference != 0 { return matched + (UInt64(littleEndian: difference).leadingZeroBitCount / 8) }
            matched += 8
        }
        while matched < count, left[left.count - 1 - matched] == right[right.count - 1 - matched] { matched += 1 }
        return matched
    }
}
