/// An immutable hash table from UTF-8 keys to UTF-8 values in one allocation, read by many threads without
/// touching any shared reference count.
///
/// A `[String: String]` lookup retains the dictionary's storage and returns a `String` that shares the stored
/// value's heap buffer: two atomic increments and decrements on cache lines every reading thread shares, which
/// is what made two threads do less than one. Here a lookup hashes the key's bytes, compares bytes, and copies
/// the value's bytes into a new `String` that belongs to the caller alone (an allocation from the thread's own
/// malloc cache, or none for values of up to 15 bytes).
///
/// Layout: `slots` (a power of two, at most half full; each the entry index + 1 in the low 32 bits, 0 for
/// empty, and the hash's high 32 bits), then `entries` (key offset, key length, value offset, value length),
/// then the bytes of every key and value.
final class FrozenTable: Sendable {
    private struct Entry {
        var keyOffset: UInt32
        var keyCount: UInt32
        var valueOffset: UInt32
        var valueCount: UInt32
    }

    // Written in init only, then read-only; the memory is owned by this object and freed in deinit.
    private nonisolated(unsafe) let slots: UnsafeMutablePointer<UInt64>
    private nonisolated(unsafe) let entries: UnsafeMutablePointer<Entry>
    private nonisolated(unsafe) let bytes: UnsafeMutablePointer<UInt8>
    private let mask: Int
    private let seed = ByteHash.seed
    /// The number of keys.
    let count: Int

    /// Copies `dictionary` into one block.
    /// - Complexity: O(n) in the keys and the bytes of keys and values.
    init(_ dictionary: [String: String]) {
        count = dictionary.count
        var capacity = 8
        while capacity < count * 2 { capacity *= 2 }
        mask = capacity - 1
        var byteCount = 0
        for (key, value) in dictionary { byteCount += key.utf8.count + value.utf8.count }
        precondition(byteCount <= Int(UInt32.max), "a table of more than 4 GiB")
        slots = .allocate(capacity: capacity)
        slots.initialize(repeating: 0, count: capacity)
        entries = .allocate(capacity: max(count, 1))
        bytes = .allocate(capacity: max(byteCount, 1))
        var offset = 0
        var index = 0
        for (key, value) in dictionary {
            let keyOffset = offset
            offset += Self.copy(key, to: bytes + offset)
            let valueOffset = offset
            offset += Self.copy(value, to: bytes + offset)
            let keyBytes = UnsafeBufferPointer(start: bytes + keyOffset, count: valueOffset - keyOffset)
            (entries + index).initialize(to: Entry(keyOffset: UInt32(keyOffset), keyCount: UInt32(keyBytes.count),
                                                   valueOffset: UInt32(valueOffset),
                                                   valueCount: UInt32(offset - valueOffset)))
            let hash = ByteHash.hash(keyBytes, seed: seed)
            var slot = Int(truncatingIfNeeded: hash) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = (hash & 0xFFFF_FFFF_0000_0000) | UInt64(index + 1)
            index += 1
        }
    }

    deinit {
        slots.deallocate()
        entries.deallocate()
        bytes.deallocate()
    }

    /// The value of the key whose UTF-8 bytes are `key`, as a new `String`, or nil.
    @inline(__always)
    func value(forKeyBytes key: UnsafeBufferPointer<UInt8>) -> String? {
        let hash = ByteHash.hash(key, seed: seed)
        let tag = hash & 0xFFFF_FFFF_0000_0000
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let content = slots[slot]
            if content == 0 { return nil }
            if content & 0xFFFF_FFFF_0000_0000 == tag {
                let entry = entries[Int(truncatingIfNeeded: content & 0xFFFF_FFFF) - 1]
                if Int(entry.keyCount) == key.count, ByteHash.equal(bytes + Int(entry.keyOffset), key) {
                    return String(decoding: UnsafeBufferPointer(start: bytes + Int(entry.valueOffset),
                                                                count: Int(entry.valueCount)), as: UTF8.self)
                }
            }
            slot = (slot + 1) & mask
        }
    }

    /// Every key and value, as new strings (for tests and the writer's comparisons, not for lookups).
    var dictionary: [String: String] {
        var result: [String: String] = [:]
        result.reserveCapacity(count)
        for index in 0..<count {
            let entry = entries[index]
            let key = String(decoding: UnsafeBufferPointer(start: bytes + Int(entry.keyOffset),
                                                           count: Int(entry.keyCount)), as: UTF8.self)
            result[key] = String(decoding: UnsafeBufferPointer(start: bytes + Int(entry.valueOffset),
                                                               count: Int(entry.valueCount)), as: UTF8.self)
        }
        return result
    }

    private static func copy(_ string: String, to destination: UnsafeMutablePointer<UInt8>) -> Int {
        var count = 0
        for byte in string.utf8 {
            destination[count] = byte
            count += 1
        }
        return count
    }
}

/// Runs `body` with the UTF-8 bytes of `string`, without copying them when the string is native (always on
/// Linux, where no string is bridged).
@inline(__always)
func withUTF8Bytes<T>(of string: String, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
    if let result = string.utf8.withContiguousStorageIfAvailable(body) { return result }
    var copy = string
    return copy.withUTF8(body)
}

/// A fast, seeded hash of bytes (8 at a time, multiply and fold), for tables whose keys come from the trusted
/// daemon; the seed is per process, so that the probe sequences are not fixed.
enum ByteHash {
    /// The process's seed, chosen at random once.
    static let seed = UInt64.random(in: .min ... .max) | 1

    /// The hash of `bytes` under `seed`.
    @inline(__always)
    static func hash(_ bytes: UnsafeBufferPointer<UInt8>, seed: UInt64) -> UInt64 {
        var hash = seed ^ (UInt64(bytes.count) &* 0x9E37_79B9_7F4A_7C15)
        guard let base = bytes.baseAddress else { return mix(hash) }
        let raw = UnsafeRawPointer(base)
        var offset = 0
        while offset + 8 <= bytes.count {
            hash = mix(hash ^ raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            offset += 8
        }
        if offset < bytes.count {
            var tail: UInt64 = 0
            var shift: UInt64 = 0
            while offset < bytes.count {
                tail |= UInt64(base[offset]) << shift
                shift += 8
                offset += 1
            }
            hash = mix(hash ^ tail)
        }
        return mix(hash)
    }

    /// Whether the `other.count` bytes at `stored` are those of `other`.
    @inline(__always)
    static func equal(_ stored: UnsafePointer<UInt8>, _ other: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = other.baseAddress else { return true }
        let left = UnsafeRawPointer(stored)
        let right = UnsafeRawPointer(base)
        var offset = 0
        while offset + 8 <= other.count {
            if left.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                != right.loadUnaligned(fromByteOffset: offset, as: UInt64.self) { return false }
            offset += 8
        }
        while offset < other.count {
            if stored[offset] != base[offset] { return false }
            offset += 1
        }
        return true
    }

    @inline(__always)
    private static func mix(_ value: UInt64) -> UInt64 {
        let product = value.multipliedFullWidth(by: 0xA076_1D64_78BD_642F)
        return product.high ^ product.low
    }
}
