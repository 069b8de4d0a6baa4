import Dispatch
import Foundation
import Synchronization
import Testing
@testable import HotStringsClient

/// The reader path of `SnapshotPublisher`: whole snapshots, never an older one after a newer, the new one
/// after `publish` returned, and replaced snapshots freed.
struct SnapshotPublisherTests {
    /// A snapshot whose tables `A` and `B` hold `keys` keys, every value naming `round`.
    static func snapshot(_ round: Int, keys: Int = 64, previous: MirrorSnapshot? = nil) -> MirrorSnapshot {
        var view = MirrorView(language: "en", developmentLanguage: "en")
        let value = "round \(round) with a value long enough to live on the heap"
        for table in ["A", "B"] {
            view.strings[table] = Dictionary(uniqueKeysWithValues: (0..<keys).map { ("key.\($0)", value) })
        }
        return MirrorSnapshot(view, changed: nil, previous: previous)
    }

    /// The round a value names, or nil for a value no snapshot had.
    static func round(of value: String?) -> Int? {
        guard let value, value.hasPrefix("round ") else { return nil }
        return Int(value.dropFirst(6).prefix { $0 != " " })
    }

    final class Flags: Sendable {
        let isDone = Atomic<Bool>(false)
        let torn = Atomic<Int>(0)
        let wentBack = Atomic<Int>(0)
        let reads = Atomic<Int>(0)
    }

    /// Runs `count` threads calling `body` until `write` returns, then once more each; waits for them.
    static func readers(_ count: Int, flags: Flags, _ body: @escaping @Sendable () -> Void, write: () -> Void) {
        let finished = DispatchGroup()
        for _ in 0..<count {
            finished.enter()
            Thread {
                repeat { body() } while !flags.isDone.load(ordering: .acquiring)
                body()
                finished.leave()
            }.start()
        }
        write()
        flags.isDone.store(true, ordering: .releasing)
        finished.wait()
    }

    @Test func readersSeeWholeSnapshotsAndNeverAnOlderOneAfterANewer() {
        let publisher = SnapshotPublisher(Self.snapshot(0))
        let flags = Flags()
        let newest = Mutex<[ObjectIdentifier: Int]>([:])
        Self.readers(4, flags: flags, {
            let rounds = publisher.read { snapshot in
                [snapshot.value(forKey: "key.0", table: "A"), snapshot.value(forKey: "key.63", table: "A"),
                 snapshot.value(forKey: "key.31", table: "B")].map(Self.round(of:))
            }
            if Set(rounds).count != 1 || rounds[0] == nil { flags.torn.add(1, ordering: .relaxed) }
            let thread = ObjectIdentifier(Thread.current)
            let round = rounds[0] ?? -1
            let previous = newest.withLock { seen in
                defer { seen[thread] = max(seen[thread] ?? 0, round) }
                return seen[thread] ?? 0
            }
            if round < previous { flags.wentBack.add(1, ordering: .relaxed) }
            flags.reads.add(1, ordering: .relaxed)
        }, write: {
            for round in 1...1_000 { publisher.publish(Self.snapshot(round)) }
        })
        #expect(flags.reads.load(ordering: .relaxed) >= 4)
        #expect(flags.torn.load(ordering: .relaxed) == 0)
        #expect(flags.wentBack.load(ordering: .relaxed) == 0)
        #expect(publisher.read { Self.round(of: $0.value(forKey: "key.0", table: "A")) } == 1_000)
    }

    @Test func aReadAfterPublishReturnedSeesTheNewSnapshot() {
        let publisher = SnapshotPublisher(Self.snapshot(0))
        let published = DispatchSemaphore(value: 0)
        let checked = DispatchSemaphore(value: 0)
        let stale = Atomic<Int>(0)
        let rounds = 300
        Thread {
            for round in 1...rounds {
                // The thread holds the previous snapshot from its last read; this read must not use it.
                published.wait()
                let seen = publisher.read { Self.round(of: $0.value(forKey: "key.5", table: "B")) }
                if seen != round { stale.add(1, ordering: .relaxed) }
                checked.signal()
            }
        }.start()
        for round in 1...rounds {
            publisher.publish(Self.snapshot(round, keys: 8))
            published.signal()
            #expect(checked.wait(timeout: .now() + .seconds(10)) == .success)
        }
        #expect(stale.load(ordering: .relaxed) == 0)
    }

    @Test func replacedSnapshotsAreFreedOnceEveryReaderMovedOn() {
        let publisher = SnapshotPublisher(Self.snapshot(0))
        let replaced = Mutex<[Weak]>([])
        let flags = Flags()
        Self.readers(2, flags: flags, {
            _ = publisher.read { $0.value(forKey: "key.1", table: "A") }
        }, write: {
            for round in 1...200 {
                let old = publisher.snapshot
                replaced.withLock { $0.append(Weak(old)) }
                publisher.publish(Self.snapshot(round, keys: 256))
            }
        })
        // Each reader read once more after the last publish, so it holds only the current snapshot.
        let alive = replaced.withLock { $0.filter { $0.object != nil }.count }
        #expect(alive == 0)
    }

    @Test func aThreadDropsTheSnapshotOfAClientThatIsGone() {
        let kept = SnapshotPublisher(Self.snapshot(2))
        let results = Mutex<(heldWhileAlive: Bool, heldAfterDestroyed: Bool, freedAfterNextRead: Bool)?>(nil)
        let finished = DispatchSemaphore(value: 0)
        Thread {
            var gone: SnapshotPublisher? = SnapshotPublisher(Self.snapshot(1))
            let held = gone!.read { Weak($0) }
            let heldWhileAlive = held.object != nil
            gone = nil
            // The thread's cache still holds the snapshot of the client that is gone, until its next read.
            let heldAfterDestroyed = held.object != nil
            _ = kept.read { $0.value(forKey: "key.0", table: "A") }
            results.withLock { $0 = (heldWhileAlive, heldAfterDestroyed, held.object == nil) }
            finished.signal()
        }.start()
        #expect(finished.wait(timeout: .now() + .seconds(10)) == .success)
        let result = results.withLock { $0 }
        #expect(result?.heldWhileAlive == true)
        #expect(result?.heldAfterDestroyed == true)
        #expect(result?.freedAfterNextRead == true)
    }
}

/// A weak reference to a snapshot, to see whether it was freed.
final class Weak: @unchecked Sendable {
    // Written once in init; `weak` loads are atomic in the Swift runtime.
    weak var object: MirrorSnapshot?

    init(_ object: MirrorSnapshot) {
        self.object = object
    }
}
