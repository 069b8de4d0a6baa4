/// An open-addressing hash index from key bytes to a table's record positions.
///
/// Keys are hashed as raw UTF-8 with the standard library's seeded SipHash (`Hasher`), so a file
/// crafted to collide cannot make inserts quadratic, and compared byte for byte, as CoreFoundation
/// compares strings. Linear probing; the load factor stays at or below one half.
struct ByteKeyIndex: Sendable {
    enum Lookup {
        /// The key is the record at this position.
        case found(Int)
        /// The key is absent; this slot is where it would go (-1 when the index has no slots yet).
        case vacant(Int)
    }

    /// Record positions, -1 for an empty slot.
    private var slots: [Int32] = []

    /// The seeded hash of a key's bytes.
    static func hash(_ bytes: UnsafeRawBufferPointer) -> Int {
        var hasher = Hasher()
        hasher.combine(bytes: bytes)
        return hasher.finalize()
    }

    /// Whether `count` bytes at `lhsStart` in `lhs` equal those at `rhsStart` in `rhs`.
    @inline(__always)
    static func bytesEqual(
        _ lhs: UnsafeBufferPointer<UInt8>, _ lhsStart: Int, _ rhs: UnsafeBufferPointer<UInt8>, _ rhsStart: Int, count: Int
    ) -> Bool {
        guard count > 0 else { return true }
        let left = lhs.baseAddress! + lhsStart
        let right = rhs.baseAddress! + rhsStart
        var index = 0
        while index + 8 <= count {
            if WordScan.word(left, at: index) != WordScan.word(right, at: index) { return false }
            index += 8
        }
        while index < count {
            if left[index] != right[index] { return false }
            index += 1
        }
        return true
    }

    /// Finds the record whose hash is `hash` and that `matches` accepts.
    @inline(__always)
    func find(
        hash: Int, in records: [StringsTable.Record], matches: (StringsTable.Record) -> Bool
    ) -> Lookup {
        guard !slots.isEmpty else { return .vacant(-1) }
        let mask = slots.count - 1
        var slot = hash & mask
        while true {
            let position = Int(slots[slot])
            if position < 0 { return .vacant(slot) }
            let candidate = records[position]
            if candidate.hash == hash, matches(candidate) { return .found(position) }
            slot = (slot + 1) & mask
        }
    }

    /// Records that `position` (the next record, not yet in `records`) has `hash` and goes in `slot`.
    mutating func insert(_ position: Int, at slot: Int, hash: Int, records: [StringsTable.Record]) {
        if (position + 1) * 2 > slots.count {
            var capacity = max(16, slots.count)
            while (position + 1) * 2 > capacity { capacity *= 2 }
            slots = [Int32](repeating: -1, count: capacity)
            for (existing, record) in records.enumerated() { place(existing, hash: record.hash) }
            place(position, hash: hash)
        } else {
            slots[slot] = Int32(position)
        }
    }

    private mutating func place(_ position: Int, hash: Int) {
        let mask = slots.count - 1
        var slot = hash & mask
        while slots[slot] >= 0 { slot = (slot + 1) & mask }
        slots[slot] = Int32(position)
    }
}
