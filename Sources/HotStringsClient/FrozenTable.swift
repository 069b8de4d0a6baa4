/// An immutable hash table from UTF-8 keys to UTF-8 values in one allocation, read by many threads without
/// touching any shared reference count.
///
/// A `[String: String]` lookup retains the dictionary's storage and returns a `String` that shares the stored
/// value's heap buffer: two atomic increments and decrements on cache lines every reading thread shares, which
/// is what made two threads do less than one. Here a lookup hashes the key's bytes, compares bytes, and copies
/// the value's bytes into a new `String` that belongs to the caller alone (an allocation from the thread's own
/// malloc cache, or none for values of up to 15 bytes).
///
/// Layout: `slots` (a power of two, at most three quarters full; each the record's offset + 1 in the low 32
/// bits, 0 for empty, 24 bits of the key hash above them, and the key's origin in the top 8 bits), then the records, each the key's and the value's byte
/// counts (32 bits each), the key's bytes and the value's bytes: a lookup reads one slot and one record.
final class FrozenTable: Sendable {
    // Written in init only, then read-only; the memory is owned by this object and freed in deinit.
    private nonisolated(unsafe) let slots: UnsafeMutablePointer<UInt64>
    private nonisolated(unsafe) let records: UnsafeMutableRawPointer
    private let mask: Int
    private let seed = ByteHash.seed
    /// The number of keys.
    let count: Int

    /// The slot bits that hold a key hash's bits.
    private static let tagMask: UInt64 = 0x00FF_FFFF_0000_0000

    /// Copies `dictionary` into one block; `origins` gives keys a small number a lookup returns with the value
    /// (the mirror's: which fallback language answered, see `MirrorSnapshot`), 0 for the others.
    /// - Complexity: O(n) in the keys and the bytes of keys and values.
    init(_ dictionary: [String: String], origins: [String: UInt8] = [:]) {
        count = dictionary.count
        var capacity = 8
        while capacity * 3 < count * 4 { capacity *= 2 }
        mask = capacity - 1
        var byteCount = 0
        for (key, value) in dictionary { byteCount += 8 + key.utf8.count + value.utf8.count }
        precondition(byteCount < Int(UInt32.max), "a table of 4 GiB or more")
        slots = .allocate(capacity: capacity)
        slots.initialize(repeating: 0, count: capacity)
        records = .allocate(byteCount: max(byteCount, 1), alignment: 8)
        var offset = 0
        for (key, value) in dictionary {
            let record = offset
            let keyCount = Self.copy(key, to: records + record + 8)
            let valueCount = Self.copy(value, to: records + record + 8 + keyCount)
            records.storeBytes(of: UInt32(keyCount), toByteOffset: record, as: UInt32.self)
            records.storeBytes(of: UInt32(valueCount), toByteOffset: record + 4, as: UInt32.self)
            offset += 8 + keyCount + valueCount
            let keyBytes = UnsafeBufferPointer(start: (records + record + 8).assumingMemoryBound(to: UInt8.self),
                                               count: keyCount)
            let hash = ByteHash.hash(keyBytes, seed: seed)
            var slot = Int(truncatingIfNeeded: hash) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            let origin = UInt64(origins.isEmpty ? 0 : origins[key] ?? 0) << 56
            slots[slot] = origin | (hash & Self.tagMask) | UInt64(record + 1)
        }
    }

    deinit {
        slots.deallocate()
        records.deallocate()
    }

    /// The value of the key whose UTF-8 bytes are `key`, as a new `String`, or nil.
    @inline(__always)
    func value(forKeyBytes key: UnsafeBufferPointer<UInt8>) -> String? {
        entry(forKeyBytes: key)?.value
    }

    /// The value of the key whose UTF-8 bytes are `key`, as a new `String`, and its origin, or nil.
    @inline(__always)
    func entry(forKeyBytes key: UnsafeBufferPointer<UInt8>) -> (value: String, origin: UInt8)? {
        let hash = ByteHash.hash(key, seed: seed)
        let tag = hash & Self.tagMask
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let content = slots[slot]
            if content == 0 { return nil }
            if content & Self.tagMask == tag {
                let record = records + Int(truncatingIfNeeded: content & 0xFFFF_FFFF) - 1
                let keyCount = Int(record.loadUnaligned(as: UInt32.self))
                let bytes = (record + 8).assumingMemoryBound(to: UInt8.self)
                if keyCount == key.count, ByteHash.equal(bytes, key) {
                    let valueCount = Int(record.loadUnaligned(fromByteOffset: 4, as: UInt32.self))
                    let value = String(decoding: UnsafeBufferPointer(start: bytes + keyCount, count: valueCount),
                                       as: UTF8.self)
                    return (value, UInt8(truncatingIfNeeded: content >> 56))
                }
            }
            slot = (slot + 1) & mask
        }
    }

    /// Every key and value, as new strings (for tests, not for lookups).
    var dictionary: [String: String] {
        var result: [String: String] = [:]
        result.reserveCapacity(count)
        var offset = 0
        for _ in 0..<count {
            let keyCount = Int(records.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
            let valueCount = Int(records.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self))
            let bytes = (records + offset + 8).assumingMemoryBound(to: UInt8.self)
            result[String(decoding: UnsafeBufferPointer(start: bytes, count: keyCount), as: UTF8.self)] =
                String(decoding: UnsafeBufferPointer(start: bytes + keyCount, count: valueCount), as: UTF8.self)
            offset += 8 + keyCount + valueCount
        }
        return result
    }

    private static func copy(_ string: String, to raw: UnsafeMutableRawPointer) -> Int {
        let destination = raw.assumingMemoryBound(to: UInt8.self)
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
        let count = bytes.count
        var hash = seed ^ (UInt64(count) &* 0x9E37_79B9_7F4A_7C15)
        guard let base = bytes.baseAddress else { return mix(hash) }
        let raw = UnsafeRawPointer(base)
        if count < 8 { return mix(hash ^ shortWord(base, count: count)) }
        var offset = 0
        while offset + 8 < count {
            hash = mix(hash ^ raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            offset += 8
        }
        // The last 8 bytes, overlapping the previous word when the count is not a multiple of 8.
        return mix(hash ^ raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self))
    }

    /// The `count` (< 8) bytes at `base` as one little-endian word.
    @inline(__always)
    static func shortWord(_ base: UnsafePointer<UInt8>, count: Int) -> UInt64 {
        var word: UInt64 = 0
        var index = count
        while index > 0 {
            index -= 1
            word = word << 8 | UInt64(base[index])
        }
        return word
    }

    /// Whether the `other.count` bytes at `stored` are those of `other`.
    @inline(__always)
    static func equal(_ stored: UnsafePointer<UInt8>, _ other: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = other.baseAddress else { return true }
        let count = other.count
        if count < 8 { return shortWord(stored, count: count) == shortWord(base, count: count) }
        let left = UnsafeRawPointer(stored)
        let right = UnsafeRawPointer(base)
        var offset = 0
        while offset + 8 < count {
            if left.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                != right.loadUnaligned(fromByteOffset: offset, as: UInt64.self) { return false }
            offset += 8
        }
        return left.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
            == right.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
    }

    @inline(__always)
    private static func mix(_ value: UInt64) -> UInt64 {
        let product = value.multipliedFullWidth(by: 0xA076_1D64_78BD_642F)
        return product.high ^ product.low
    }
}
