import HotStringsProtocol
import LinuxSystem
import Synchronization

/// Records the lookups of one `LiveStrings` that found no value or only a fallback's, and reports them to the
/// source in batches (`report-missing`), at most once per `interval`.
///
/// Lookups that find their value never come here. A miss takes the lock of one of `shardCount` small tables
/// (picked by the key's hash, so threads that miss different keys rarely meet), counts, and leaves; the first
/// miss after a report schedules the next one, so an app that misses nothing costs no wake-up. Bounded: at most
/// `capacity` distinct entries wait (in the tables and in a report not yet delivered); lookups of new entries
/// beyond that are counted as dropped and the count is reported. Only names are kept: table, key, languages.
final class MissRecorder: Sendable {
    /// Sends one report; true when the source took it (or refused it for good), false to keep it for the next
    /// attempt (no connection).
    typealias Send = @Sendable (MissingReport) async -> Bool

    private struct Tally {
        var count: Int64
        var firstSeen: Int64
        var lastSeen: Int64
    }

    private static let shardCount = 16
    /// The most bytes of entries in one request line, under the daemon's 64 KiB line cap.
    static let maximumReportBytes = 60_000

    let capacity: Int
    let interval: Duration
    private let send: Send
    /// One lock and table of the shards (a class: a `Mutex` cannot be an array's element).
    private final class Shard: Sendable {
        let entries = Mutex<[MissingEntry.Identity: Tally]>([:])
    }

    private let shards: [Shard]
    /// Entries not yet delivered, carried over from failed attempts.
    private let pending = Mutex<[MissingEntry.Identity: Tally]>([:])
    /// Distinct entries in the shards and `pending` (entries two shards share count twice until merged).
    private let distinct = Atomic<Int>(0)
    private let dropped = Atomic<Int64>(0)
    private let isScheduled = Atomic<Bool>(false)
    private let isStopped = Atomic<Bool>(false)

    init(capacity: Int, interval: Duration = .seconds(1), send: @escaping Send) {
        self.capacity = capacity
        self.interval = interval
        self.send = send
        shards = (0..<Self.shardCount).map { _ in Shard() }
    }

    /// Counts one lookup of `key` in `table` that `snapshot` could not answer from the best match: missing when
    /// `origin` is 0, else a fallback answered by `snapshot.servedBy[origin - 1]`.
    @inline(never)
    func record(_ key: String, table: String, origin: UInt8, in snapshot: MirrorSnapshot) {
        guard snapshot.isFromSource else { return }
        guard !key.isEmpty, key.utf8.count <= MissingEntry.maximumKeyLength, !table.isEmpty, table.utf8.count <= 255
        else {
            // What the daemon would refuse: counted, not kept.
            dropped.add(1, ordering: .relaxed)
            return scheduleReport()
        }
        let servedBy = origin == 0 ? nil : snapshot.servedBy[Int(origin) - 1]
        let identity = MissingEntry.Identity(kind: origin == 0 ? .missing : .fallback, table: table, key: key,
                                             language: snapshot.status.language, servedBy: servedBy)
        let now = WallClock.coarseMilliseconds
        let shard = withUTF8Bytes(of: key) { Int(truncatingIfNeeded: ByteHash.hash($0, seed: ByteHash.seed)) }
            & (Self.shardCount - 1)
        let isKept = shards[shard].entries.withLock { entries -> Bool in
            if entries[identity] != nil {
                entries[identity]!.count += 1
                entries[identity]!.lastSeen = now
                return true
            }
            guard distinct.load(ordering: .relaxed) < capacity else { return false }
            distinct.add(1, ordering: .relaxed)
            entries[identity] = Tally(count: 1, firstSeen: now, lastSeen: now)
            return true
        }
        if !isKept { dropped.add(1, ordering: .relaxed) }
        scheduleReport()
    }

    /// Stops reporting; what waits is dropped.
    func stop() {
        isStopped.store(true, ordering: .releasing)
    }

    /// The entries waiting and the lookups dropped (for tests).
    var waiting: (entries: Int, dropped: Int64) {
        (distinct.load(ordering: .relaxed), dropped.load(ordering: .relaxed))
    }

    private func scheduleReport() {
        guard !isScheduled.load(ordering: .relaxed),
              !isScheduled.exchange(true, ordering: .acquiringAndReleasing) else { return }
        Task.detached { [weak self, interval] in
            try? await Task.sleep(for: interval)
            await self?.report()
        }
    }

    /// Sends what the shards and `pending` hold; what could not be delivered waits for the next attempt.
    private func report() async {
        guard !isStopped.load(ordering: .acquiring) else { return }
        var taken = 0
        var batch = pending.withLock { pending in
            defer { pending = [:] }
            return pending
        }
        let before = batch.count
        for shard in shards {
            let entries = shard.entries.withLock { entries in
                defer { entries = [:] }
                return entries
            }
            taken += entries.count
            batch.merge(entries) { kept, new in
                Tally(count: kept.count + new.count, firstSeen: min(kept.firstSeen, new.firstSeen),
                      lastSeen: max(kept.lastSeen, new.lastSeen))
            }
        }
        // Entries two shards (or a shard and `pending`) shared are one now.
        distinct.subtract(before + taken - batch.count, ordering: .relaxed)
        var droppedCount = dropped.exchange(0, ordering: .relaxed)
        var undelivered: [MissingEntry.Identity: Tally] = [:]
        for chunk in Self.chunks(of: batch) {
            let report = MissingReport(entries: chunk, dropped: droppedCount)
            if !isStopped.load(ordering: .acquiring), await send(report) {
                droppedCount = 0
                distinct.subtract(chunk.count, ordering: .relaxed)
            } else {
                for entry in chunk {
                    undelivered[entry.identity] = Tally(count: entry.count, firstSeen: entry.firstSeen,
                                                        lastSeen: entry.lastSeen)
                }
            }
        }
        if batch.isEmpty, droppedCount > 0, await send(MissingReport(entries: [], dropped: droppedCount)) {
            droppedCount = 0
        }
        if droppedCount > 0 { dropped.add(droppedCount, ordering: .relaxed) }
        if !undelivered.isEmpty {
            pending.withLock { pending in
                pending.merge(undelivered) { kept, new in
                    Tally(count: kept.count + new.count, firstSeen: min(kept.firstSeen, new.firstSeen),
                          lastSeen: max(kept.lastSeen, new.lastSeen))
                }
            }
        }
        isScheduled.store(false, ordering: .releasing)
        if distinct.load(ordering: .relaxed) > 0 || dropped.load(ordering: .relaxed) > 0 { scheduleReport() }
    }

    /// `batch` as entries, in reports of at most `MissingReport.maximumEntries` entries and about
    /// `maximumReportBytes` bytes each.
    private static func chunks(of batch: [MissingEntry.Identity: Tally]) -> [[MissingEntry]] {
        var chunks: [[MissingEntry]] = []
        var chunk: [MissingEntry] = []
        var bytes = 0
        for (identity, tally) in batch {
            let entry = MissingEntry(identity, count: tally.count, firstSeen: tally.firstSeen,
                                     lastSeen: tally.lastSeen)
            let size = entry.json.serialized().count + 1
            if !chunk.isEmpty, chunk.count == MissingReport.maximumEntries || bytes + size > maximumReportBytes {
                chunks.append(chunk)
                chunk = []
                bytes = 0
            }
            chunk.append(entry)
            bytes += size
        }
        if !chunk.isEmpty { chunks.append(chunk) }
        return chunks
    }
}
