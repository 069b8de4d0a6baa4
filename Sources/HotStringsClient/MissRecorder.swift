import HotStringsProtocol
import LinuxSystem
import Synchronization

/// Records the lookups of one `LiveStrings` that found no value or only a fallback's, and reports them to the
/// source in batches (`report-missing`), at most once per `interval`.
///
/// Lookups that find their value never come here. Each thread records into a buffer of its own (found through a
/// thread-local list, `ThreadMisses`), under a lock only the report task also takes, so threads that miss at
/// once never share a cache line; a repeated miss is a probe of a small table (`MissTable`) and a count. The
/// first miss after a report schedules the next one, so an app that misses nothing costs no wake-up. Bounded:
/// at most `capacity` distinct entries wait (in the buffers and in a report not yet delivered); lookups of new
/// entries beyond that are counted as dropped and the count is reported. Only names are kept: table, key,
/// languages.
final class MissRecorder: Sendable {
    /// Sends one report; true when the source took it (or refused it for good), false to keep it for the next
    /// attempt (no connection).
    typealias Send = @Sendable (MissingReport) async -> Bool

    private static let nextIdentifier = Atomic<UInt64>(1)
    /// The most bytes of entries in one request line, under the daemon's 64 KiB line cap.
    static let maximumReportBytes = 60_000

    /// Unique for the process's lifetime, to find this recorder's buffer in a thread's list.
    let identifier: UInt64
    let capacity: Int
    let interval: Duration
    private let send: Send
    /// Every thread's buffer for this recorder (those of threads that exited are dropped once emptied).
    private let buffers = Mutex<[MissBuffer]>([])
    /// Entries not yet delivered, carried over from failed attempts.
    private let pending = Mutex<[(key: MissKey, tally: MissTally)]>([])
    /// Distinct entries in the buffers and `pending` (entries two threads share count twice until merged).
    private let distinct = Atomic<Int>(0)
    private let dropped = Atomic<Int64>(0)
    private let isScheduled = Atomic<Bool>(false)
    private let isStopped = Atomic<Bool>(false)

    init(capacity: Int, interval: Duration = .seconds(1), send: @escaping Send) {
        identifier = Self.nextIdentifier.add(1, ordering: .relaxed).oldValue
        self.capacity = capacity
        self.interval = interval
        self.send = send
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
        var hash = withUTF8Bytes(of: key) { ByteHash.hash($0, seed: ByteHash.seed) }
        hash = hash &* 31 ^ withUTF8Bytes(of: table) { ByteHash.hash($0, seed: ByteHash.seed) }
        hash = hash &* 31 ^ snapshot.languageHash
        if let servedBy { hash = hash &* 31 ^ withUTF8Bytes(of: servedBy) { ByteHash.hash($0, seed: ByteHash.seed) } }
        let language = snapshot.language
        let now = WallClock.coarseMilliseconds
        let buffer = ThreadMisses.ofThisThread.withObject(make: ThreadMisses.init) { $0.buffer(for: self) }
        let isKept = buffer.entries.withLock { entries -> Bool in
            if entries.count(hash: hash, table: table, key: key, language: language, servedBy: servedBy, at: now) {
                return true
            }
            guard distinct.load(ordering: .relaxed) < capacity else { return false }
            distinct.add(1, ordering: .relaxed)
            entries.insert(MissKey(hash: hash, table: table, key: key, language: language, servedBy: servedBy),
                           at: now)
            return true
        }
        if !isKept { dropped.add(1, ordering: .relaxed) }
        scheduleReport()
    }

    /// A new buffer for the calling thread, registered for the reports.
    func makeBuffer() -> MissBuffer {
        let buffer = MissBuffer()
        buffers.withLock { $0.append(buffer) }
        return buffer
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
        // A strong reference: a weak one would give the recorder a side table, and then every lookup's retain of
        // it takes the slow path through that shared table, which made two threads that miss no faster than one.
        // The recorder outlives its client by at most `interval`; `stop()` makes that report send nothing.
        Task.detached { [self, interval] in
            try? await Task.sleep(for: interval)
            await report()
        }
    }

    /// Every entry the buffers and `pending` hold, merged, leaving them empty; drops the buffers of threads
    /// that exited.
    private func takeAll() -> [MissingEntry.Identity: (key: MissKey, tally: MissTally)] {
        var batch: [MissingEntry.Identity: (key: MissKey, tally: MissTally)] = [:]
        var taken = 0
        func add(_ entries: [(key: MissKey, tally: MissTally)]) {
            taken += entries.count
            for (key, tally) in entries {
                let identity = key.identity
                if let kept = batch[identity] {
                    batch[identity] = (kept.key, kept.tally.merged(with: tally))
                } else {
                    batch[identity] = (key, tally)
                }
            }
        }
        add(pending.withLock { pending in
            defer { pending = [] }
            return pending
        })
        let all = buffers.withLock { buffers in
            defer { buffers.removeAll { $0.isRetired.load(ordering: .acquiring) } }
            return buffers
        }
        for buffer in all { add(buffer.entries.withLock { $0.takeAll() }) }
        // Entries two buffers (or a buffer and `pending`) shared are one now.
        distinct.subtract(taken - batch.count, ordering: .relaxed)
        return batch
    }

    /// Sends what the buffers and `pending` hold; what could not be delivered waits for the next attempt.
    private func report() async {
        guard !isStopped.load(ordering: .acquiring) else { return }
        let batch = Array(takeAll().values)
        var droppedCount = dropped.exchange(0, ordering: .relaxed)
        var undelivered: [(key: MissKey, tally: MissTally)] = []
        for chunk in Self.chunks(of: batch) {
            let entries = chunk.map { key, tally in
                MissingEntry(key.identity, count: tally.count, firstSeen: tally.firstSeen, lastSeen: tally.lastSeen)
            }
            if !isStopped.load(ordering: .acquiring), await send(MissingReport(entries: entries, dropped: droppedCount)) {
                droppedCount = 0
                distinct.subtract(chunk.count, ordering: .relaxed)
            } else {
                undelivered += chunk
            }
        }
        if batch.isEmpty, droppedCount > 0, await send(MissingReport(entries: [], dropped: droppedCount)) {
            droppedCount = 0
        }
        if droppedCount > 0 { dropped.add(droppedCount, ordering: .relaxed) }
        if !undelivered.isEmpty { pending.withLock { $0 += undelivered } }
        isScheduled.store(false, ordering: .releasing)
        if distinct.load(ordering: .relaxed) > 0 || dropped.load(ordering: .relaxed) > 0 { scheduleReport() }
    }

    /// `batch` in reports of at most `MissingReport.maximumEntries` entries and about `maximumReportBytes` bytes
    /// each.
    private static func chunks(of batch: [(key: MissKey, tally: MissTally)]) -> [[(key: MissKey, tally: MissTally)]] {
        var chunks: [[(key: MissKey, tally: MissTally)]] = []
        var chunk: [(key: MissKey, tally: MissTally)] = []
        var bytes = 0
        for (key, tally) in batch {
            let size = MissingEntry(key.identity, count: tally.count, firstSeen: tally.firstSeen,
                                    lastSeen: tally.lastSeen).json.serialized().count + 1
            if !chunk.isEmpty, chunk.count == MissingReport.maximumEntries || bytes + size > maximumReportBytes {
                chunks.append(chunk)
                chunk = []
                bytes = 0
            }
            chunk.append((key, tally))
            bytes += size
        }
        if !chunk.isEmpty { chunks.append(chunk) }
        return chunks
    }
}

/// One thread's misses for one recorder: locked by that thread and by the report task only.
final class MissBuffer: Sendable {
    let entries = Mutex(MissTable())
    /// Set when the thread exited (or let the buffer go): the next report empties it and forgets it.
    let isRetired = Atomic<Bool>(false)
}

/// The buffers one thread records into, one per recorder it missed for. Used by its thread only.
final class ThreadMisses {
    /// The list of each thread; its buffers are retired when the thread exits.
    static let ofThisThread: ThreadSpecificObject<ThreadMisses> = {
        do {
            return try ThreadSpecificObject<ThreadMisses>()
        } catch {
            fatalError("HotStringsClient needs one pthread key for its missing-key records: \(error)")
        }
    }()

    /// The most recorders a thread keeps a buffer for; beyond, the least recently added one is retired.
    static let capacity = 8

    // Used by one thread only, so the exclusivity checks of a class's `var`s would guard against nothing.
    @exclusivity(unchecked) private var buffers: [(recorder: UInt64, buffer: MissBuffer)] = []

    deinit {
        for (_, buffer) in buffers { buffer.isRetired.store(true, ordering: .releasing) }
    }

    /// This thread's buffer for `recorder`, made and registered on its first miss.
    @inline(__always)
    func buffer(for recorder: MissRecorder) -> MissBuffer {
        for entry in buffers where entry.recorder == recorder.identifier { return entry.buffer }
        return add(recorder)
    }

    @inline(never)
    private func add(_ recorder: MissRecorder) -> MissBuffer {
        if buffers.count == Self.capacity { buffers.removeLast().buffer.isRetired.store(true, ordering: .releasing) }
        let buffer = recorder.makeBuffer()
        buffers.insert((recorder.identifier, buffer), at: 0)
        return buffer
    }
}

/// A client's recorder as lookups pass it: without a retain. Retaining the recorder on every lookup wrote its
/// reference count from every thread that looks keys up, one shared cache line, and two threads were no faster
/// than one; the owner (`LiveStrings`, a `Snapshot`) keeps the recorder alive for as long as it hands this out.
struct MissRecording {
    private let recorder: Unmanaged<MissRecorder>

    /// `recorder` when there is one; its owner must keep it alive while this is in use.
    init?(_ recorder: MissRecorder?) {
        guard let recorder else { return nil }
        self.recorder = Unmanaged.passUnretained(recorder)
    }

    /// See `MissRecorder.record(_:table:origin:in:)`.
    @inline(__always)
    func record(_ key: String, table: String, origin: UInt8, in snapshot: MirrorSnapshot) {
        recorder._withUnsafeGuaranteedRef { $0.record(key, table: table, origin: origin, in: snapshot) }
    }
}
