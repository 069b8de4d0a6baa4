import HotStringsProtocol

/// One entry's names, with a hash computed once from their bytes (`ByteHash`): Swift's `String` hashing
/// (SipHash over normalized text) of four names would cost more than the lookup that missed.
struct MissKey: Sendable {
    let hash: UInt64
    let table: String
    let key: String
    let language: String
    let servedBy: String?

    /// Whether these are the names given (compared without copying them).
    @inline(__always)
    func matches(hash: UInt64, table: String, key: String, language: String, servedBy: String?) -> Bool {
        self.hash == hash && self.key == key && self.table == table && self.language == language
            && self.servedBy == servedBy
    }

    var identity: MissingEntry.Identity {
        MissingEntry.Identity(kind: servedBy == nil ? .missing : .fallback, table: table, key: key,
                              language: language, servedBy: servedBy)
    }
}

/// How often an entry was seen, and when first and last (milliseconds since 1970).
struct MissTally: Sendable {
    var count: Int64
    var firstSeen: Int64
    var lastSeen: Int64

    /// The two tallies of one entry as one.
    func merged(with other: MissTally) -> MissTally {
        MissTally(count: count &+ other.count, firstSeen: min(firstSeen, other.firstSeen),
                  lastSeen: max(lastSeen, other.lastSeen))
    }
}

/// A small open-addressed table of entries keyed by `MissKey.hash`: one thread's misses between two reports.
/// A repeated miss is one probe of an `Int32` array and a comparison of names; no hashing beyond `ByteHash`.
struct MissTable: Sendable {
    private(set) var entries: [(key: MissKey, tally: MissTally)] = []
    /// Indices into `entries`, -1 for empty; a power of two, at most half full.
    private var slots = [Int32](repeating: -1, count: 16)

    var count: Int { entries.count }

    /// Counts one more lookup of an entry already here; false when it is not.
    @inline(__always)
    mutating func count(hash: UInt64, table: String, key: String, language: String, servedBy: String?,
                        at now: Int64) -> Bool {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let index = Int(slots[slot])
            if index < 0 { return false }
            if entries[index].key.matches(hash: hash, table: table, key: key, language: language, servedBy: servedBy) {
                entries[index].tally.count &+= 1
                entries[index].tally.lastSeen = now
                return true
            }
            slot = (slot + 1) & mask
        }
    }

    /// Adds a new entry (not already here) seen once at `now`.
    mutating func insert(_ key: MissKey, at now: Int64) {
        if (entries.count + 1) * 2 > slots.count { grow() }
        place(key.hash, index: entries.count)
        entries.append((key, MissTally(count: 1, firstSeen: now, lastSeen: now)))
    }

    /// Every entry, leaving the table empty.
    mutating func takeAll() -> [(key: MissKey, tally: MissTally)] {
        defer {
            entries = []
            slots = [Int32](repeating: -1, count: 16)
        }
        return entries
    }

    private mutating func grow() {
        slots = [Int32](repeating: -1, count: slots.count * 2)
        for (index, entry) in entries.enumerated() { place(entry.key.hash, index: index) }
    }

    private mutating func place(_ hash: UInt64, index: Int) {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while slots[slot] >= 0 { slot = (slot + 1) & mask }
        slots[slot] = Int32(index)
    }
}
