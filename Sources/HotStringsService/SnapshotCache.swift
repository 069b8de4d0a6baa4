/// Rendered snapshots by subscription filter, so that subscribers with the same filter share one while the
/// data stays the same (after a resync, every subscriber needs one at once).
///
/// Bounded three ways: an entry is dropped when the data changes (its `seq` is past), when no subscriber
/// has its filter any more, and, least recently used first, beyond `SnapshotCacheLimits` (a snapshot larger than the
/// byte cap is never kept).
struct SnapshotCache<Value> {
    private struct Entry {
        var seq: UInt64
        var value: Value
        var size: Int
        var lastUse: UInt64
    }

    let limits: SnapshotCacheLimits
    private var entries: [SubscriptionFilter: Entry] = [:]
    private var clock: UInt64 = 0
    /// Bytes of the snapshots kept.
    private(set) var bytes = 0

    init(limits: SnapshotCacheLimits) {
        self.limits = limits
    }

    /// Snapshots kept.
    var count: Int { entries.count }

    /// The snapshot for `filter` at `seq`, if one is kept.
    mutating func value(for filter: SubscriptionFilter, seq: UInt64) -> Value? {
        guard let entry = entries[filter], entry.seq == seq else { return nil }
        clock += 1
        entries[filter]?.lastUse = clock
        return entry.value
    }

    /// Keeps `value` for `filter` at `seq`: drops snapshots of older data, then the least recently used
    /// until the caps hold.
    mutating func insert(_ value: Value, size: Int, for filter: SubscriptionFilter, seq: UInt64) {
        if entries.values.contains(where: { $0.seq != seq }) {
            entries = entries.filter { $0.value.seq == seq }
            bytes = entries.values.reduce(0) { $0 + $1.size }
        }
        remove(filter)
        guard size <= limits.bytes, limits.entries > 0 else { return }
        while entries.count >= limits.entries || bytes + size > limits.bytes {
            guard let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse })?.key else { break }
            remove(oldest)
        }
        clock += 1
        entries[filter] = Entry(seq: seq, value: value, size: size, lastUse: clock)
        bytes += size
    }

    /// Drops the snapshot for `filter` (its last subscriber is gone).
    mutating func remove(_ filter: SubscriptionFilter) {
        if let entry = entries.removeValue(forKey: filter) { bytes -= entry.size }
    }
}
