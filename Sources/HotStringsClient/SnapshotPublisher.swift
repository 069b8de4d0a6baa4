import LinuxSystem
import Synchronization

/// Publishes a client's `MirrorSnapshot`s to reader threads that never wait for a swap and, in the common case,
/// write no memory that another thread reads.
///
/// Each reading thread keeps its own retained reference to the snapshot it last read (in `ReaderCache`, a
/// thread-local object), with the generation it had. A read loads the publisher's generation (one acquiring
/// load of a cache line that changes only when a new snapshot is published) and, when it is the one the thread
/// holds, reads that snapshot without retaining it. After a publish, the thread's next read takes the new
/// snapshot under the lock (one retain, one release per thread per reload) and keeps it.
///
/// Guarantees: a reader sees one whole snapshot; a read that starts after `publish` returned (for instance in
/// a reload hook, or after one ran) sees that snapshot or a newer one; a thread never goes back to an older
/// snapshot. Replaced snapshots are freed when the last thread that held one reads again, or exits; a thread
/// that read once and never again keeps at most one snapshot per client alive.
final class SnapshotPublisher: Sendable {
    private static let nextIdentifier = Atomic<UInt64>(1)
    /// Bumped when a publisher is destroyed, so that readers drop the snapshots of clients that are gone.
    static let retirements = Atomic<UInt64>(0)

    /// Unique for the process's lifetime (unlike an address, never reused by a later client).
    let identifier: UInt64
    private let generation = Atomic<UInt64>(0)
    private let current: Mutex<(generation: UInt64, snapshot: MirrorSnapshot)>

    init(_ snapshot: MirrorSnapshot) {
        identifier = Self.nextIdentifier.add(1, ordering: .relaxed).oldValue
        current = Mutex((0, snapshot))
    }

    deinit {
        Self.retirements.add(1, ordering: .releasing)
    }

    /// The snapshot readers get now (retained: for the writer, not for lookups).
    var snapshot: MirrorSnapshot { current.withLock { $0.snapshot } }

    /// Makes `snapshot` the one readers get. One writer at a time (the caller serializes); the replaced snapshot
    /// is released after the lock, so freeing it never holds up a reader.
    func publish(_ snapshot: MirrorSnapshot) {
        var replaced = snapshot
        current.withLock { state in
            swap(&state.snapshot, &replaced)
            state.generation += 1
            // Under the lock, so that a reader that took (generation, snapshot) under it never sees a newer
            // generation paired with an older snapshot.
            generation.store(state.generation, ordering: .releasing)
        }
        withExtendedLifetime(replaced) {}
    }

    /// Runs `body` with the current snapshot, unretained: it must not let the snapshot escape.
    @inline(__always)
    func read<T>(_ body: (MirrorSnapshot) -> T) -> T {
        let generation = generation.load(ordering: .acquiring)
        let retirements = Self.retirements.load(ordering: .acquiring)
        return ReaderCache.ofThisThread.withObject(make: ReaderCache.init) { cache in
            if cache.retirements == retirements, let held = cache.snapshot(of: identifier, generation: generation) {
                return held._withUnsafeGuaranteedRef(body)
            }
            return refresh(cache, retirements: retirements)._withUnsafeGuaranteedRef(body)
        }
    }

    /// The slow path: drops the snapshots of clients that are gone, and takes this client's current one.
    @inline(never)
    private func refresh(_ cache: ReaderCache, retirements: UInt64) -> Unmanaged<MirrorSnapshot> {
        if cache.retirements != retirements {
            cache.dropRetired()
            cache.retirements = retirements
        }
        let (generation, snapshot) = current.withLock { ($0.generation, Unmanaged.passRetained($0.snapshot)) }
        cache.hold(snapshot, of: self, generation: generation)
        return snapshot
    }
}

/// The snapshots one thread holds, one per client it read from. Used by its thread only.
final class ReaderCache {
    /// Plain data (no reference counting when read): the fast path only compares these.
    struct Entry {
        var client: UInt64
        var generation: UInt64
        var snapshot: Unmanaged<MirrorSnapshot>
    }

    /// A weak reference to the publisher of the entry at the same index, to see when its client is gone.
    struct Owner {
        weak var publisher: SnapshotPublisher?
    }

    /// The cache of each thread; released (with the snapshots it holds) when the thread exits.
    static let ofThisThread: ThreadSpecificObject<ReaderCache> = {
        do {
            return try ThreadSpecificObject<ReaderCache>()
        } catch {
            fatalError("HotStringsClient needs one pthread key for its readers: \(error)")
        }
    }()

    /// The most clients a thread holds snapshots of; beyond, the least recently refreshed one is dropped.
    static let capacity = 8

    // Used by one thread only, so the exclusivity checks of a class's `var`s would guard against nothing.
    @exclusivity(unchecked) private var entries: [Entry] = []
    @exclusivity(unchecked) private var owners: [Owner] = []
    /// `SnapshotPublisher.retirements` when the entries were last checked for clients that are gone.
    @exclusivity(unchecked) var retirements: UInt64 = 0

    deinit {
        for entry in entries { entry.snapshot.release() }
    }

    /// The snapshot held for `client` when it is of `generation`.
    @inline(__always)
    func snapshot(of client: UInt64, generation: UInt64) -> Unmanaged<MirrorSnapshot>? {
        for index in entries.indices where entries[index].client == client {
            return entries[index].generation == generation ? entries[index].snapshot : nil
        }
        return nil
    }

    /// Holds `snapshot` (already retained) for `publisher`, releasing the one it replaces.
    func hold(_ snapshot: Unmanaged<MirrorSnapshot>, of publisher: SnapshotPublisher, generation: UInt64) {
        if let index = entries.firstIndex(where: { $0.client == publisher.identifier }) {
            entries.remove(at: index).snapshot.release()
            owners.remove(at: index)
        } else if entries.count == Self.capacity {
            entries.removeLast().snapshot.release()
            owners.removeLast()
        }
        // The most recently refreshed first: the client read most is found at once.
        entries.insert(Entry(client: publisher.identifier, generation: generation, snapshot: snapshot), at: 0)
        owners.insert(Owner(publisher: publisher), at: 0)
    }

    /// Releases the snapshots of clients whose publisher is gone.
    func dropRetired() {
        for index in entries.indices.reversed() where owners[index].publisher == nil {
            entries.remove(at: index).snapshot.release()
            owners.remove(at: index)
        }
    }
}
