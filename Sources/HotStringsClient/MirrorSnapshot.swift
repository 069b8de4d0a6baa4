import Synchronization

/// One published version of the mirror, immutable: the tables readers look keys up in, and the status.
///
/// Readers reach it through `SnapshotPublisher` without retaining it, and look a key up without retaining
/// anything it holds: the table directory is plain memory of unretained references to the `FrozenTable`s that
/// `tables` keeps alive. Consecutive snapshots share the tables that did not change.
final class MirrorSnapshot: Sendable {
    /// How many snapshots exist in the process (counted by the writer's thread at creation and by whichever
    /// thread frees one): shows that replaced snapshots are freed.
    static let liveCount = Atomic<Int>(0)

    private struct DirectoryEntry {
        /// The name's first 8 bytes (fewer, zero-padded, for a shorter name): most names differ there.
        var head: UInt64
        var nameOffset: Int
        var nameCount: Int
        var table: Unmanaged<FrozenTable>
    }

    /// The view without its strings (those are in `tables`): rules, language, languages and connection status.
    let status: MirrorView
    /// Which published version of the client's mirror this is: 0 first, then one more per publish. A snapshot
    /// for another chain (`MirrorCore.snapshot(forAcceptLanguage:)`) has the generation of the mirror it was made from.
    let generation: UInt64
    /// Each table name's resolved values; keeps the tables that the directory points to alive.
    let tables: [String: FrozenTable]
    // Written in init only, then read-only; owned by this object and freed in deinit.
    private nonisolated(unsafe) let directory: UnsafeMutablePointer<DirectoryEntry>
    private nonisolated(unsafe) let names: UnsafeMutablePointer<UInt8>
    private let tableCount: Int
    /// The languages a key's origin names (origin `n` is `servedBy[n - 1]`): the chain the view was built with.
    let servedBy: [String]
    /// Whether the tables came from a source (a snapshot was applied): only then is a lookup that finds nothing
    /// a missing key rather than a mirror still empty.
    let isFromSource: Bool
    /// The current language (`status.language`) and its hash, for the missing-key records.
    let language: String
    let languageHash: UInt64

    /// The snapshot of `view`; tables not in `changed` (nil: all may have changed) are taken from `previous`. Its
    /// generation is `generation`, else one more than `previous`'s, else 0. `origins` gives a rebuilt table's keys
    /// that a fallback language answers, with that language's position in `servedBy` plus one (see
    /// `MirrorEngine.fallbackOrigins(table:)`).
    init(_ view: MirrorView, changed: Set<String>?, previous: MirrorSnapshot?, generation: UInt64? = nil,
         servedBy: [String] = [], isFromSource: Bool = false, origins: (String) -> [String: UInt8] = { _ in [:] }) {
        self.generation = generation ?? previous.map { $0.generation + 1 } ?? 0
        self.servedBy = servedBy
        self.isFromSource = isFromSource
        language = view.language
        languageHash = withUTF8Bytes(of: view.language) { ByteHash.hash($0, seed: ByteHash.seed) }
        var tables: [String: FrozenTable] = [:]
        for (name, entries) in view.strings {
            if let changed, !changed.contains(name), let kept = previous?.tables[name] {
                tables[name] = kept
            } else {
                tables[name] = FrozenTable(entries, origins: origins(name))
            }
        }
        self.tables = tables
        var status = view
        status.strings = [:]
        self.status = status
        tableCount = tables.count
        Self.liveCount.add(1, ordering: .relaxed)
        directory = .allocate(capacity: max(tables.count, 1))
        names = .allocate(capacity: max(tables.keys.reduce(0) { $0 + $1.utf8.count }, 1))
        var offset = 0
        for (index, (name, table)) in tables.enumerated() {
            let start = offset
            for byte in name.utf8 {
                names[offset] = byte
                offset += 1
            }
            let bytes = UnsafeBufferPointer(start: names + start, count: offset - start)
            (directory + index).initialize(to: DirectoryEntry(
                head: Self.head(bytes), nameOffset: start, nameCount: bytes.count,
                table: Unmanaged.passUnretained(table)))
        }
    }

    @inline(__always)
    private static func head(_ name: UnsafeBufferPointer<UInt8>) -> UInt64 {
        guard let base = name.baseAddress else { return 0 }
        if name.count >= 8 { return UnsafeRawPointer(base).loadUnaligned(as: UInt64.self) }
        return ByteHash.shortWord(base, count: name.count)
    }

    deinit {
        Self.liveCount.subtract(1, ordering: .relaxed)
        directory.deallocate()
        names.deallocate()
    }

    /// The format rule of `key` in the table named `table` and the language it came from, or nil when the key's
    /// value is a plain string (or missing).
    @inline(__always)
    func rule(forKey key: String, table: String) -> ResolvedRule? {
        guard !status.rules.isEmpty else { return nil }
        return status.rules[table]?[key]
    }

    /// The value of `key` in the table named `table`, as a new `String` that shares no storage with the
    /// snapshot, or nil.
    /// - Complexity: O(tables) integer comparisons to find the table, then one hash probe.
    @inline(__always)
    func value(forKey key: String, table: String) -> String? {
        entry(forKey: key, table: table)?.value
    }

    /// The value of `key` in the table named `table` (as `value(forKey:table:)`) and its origin: 0, or the
    /// position in `servedBy` plus one of the fallback language that answered it.
    @inline(__always)
    func entry(forKey key: String, table: String) -> (value: String, origin: UInt8)? {
        withUTF8Bytes(of: table) { name in
            let head = Self.head(name)
            for index in 0..<tableCount {
                let entry = directory[index]
                guard entry.head == head, entry.nameCount == name.count,
                      ByteHash.equal(names + entry.nameOffset, name) else { continue }
                return withUTF8Bytes(of: key) { key in
                    entry.table._withUnsafeGuaranteedRef { $0.entry(forKeyBytes: key) }
                }
            }
            return nil
        }
    }
}
