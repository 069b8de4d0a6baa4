import Dispatch
import Foundation
import Synchronization
import Testing
@testable import HotStringsClient

/// The replaced value of a `PublishedValue` is destroyed after its lock is released: a reader is never held
/// up by the freeing of a large mirror.
struct PublishedValueTests {
    /// An object whose deinit blocks until `released` is signalled (or 10 s pass), and records which.
    final class SlowToFree: Sendable {
        let observer: Observer

        init(observer: Observer) {
            self.observer = observer
        }

        deinit {
            observer.started.signal()
            let result = observer.released.wait(timeout: .now() + .seconds(10)) == .success
            observer.wasReleased.store(result, ordering: .releasing)
            observer.finished.signal()
        }
    }

    /// What a `SlowToFree` reports to, outliving it.
    final class Observer: Sendable {
        let started = DispatchSemaphore(value: 0)
        let released = DispatchSemaphore(value: 0)
        let wasReleased = Atomic<Bool>(false)
        let finished = DispatchSemaphore(value: 0)
    }

    final class Flags: Sendable {
        let done = Atomic<Bool>(false)
        let torn = Atomic<Int>(0)
    }

    struct Held: Sendable {
        var object: SlowToFree?
        var label: String
    }

    @Test func aReaderReadsWhileTheReplacedValueIsBeingDestroyed() {
        let observer = Observer()
        let published = PublishedValue(Held(object: SlowToFree(observer: observer), label: "old"))
        Thread { published.publish(Held(object: nil, label: "new")) }.start()
        // The writer is now destroying the old value; if it still held the lock, this read would wait until
        // the destruction gave up after 10 s.
        #expect(observer.started.wait(timeout: .now() + .seconds(10)) == .success)
        let label = published.read { $0.label }
        observer.released.signal()
        #expect(observer.finished.wait(timeout: .now() + .seconds(20)) == .success)
        #expect(label == "new")
        let wasReleased = observer.wasReleased.load(ordering: .acquiring)
        #expect(wasReleased, "the read waited for the destruction")
    }

    @Test func readersSeeEachPublishedValueWhole() {
        let published = PublishedValue(["a": "0", "b": "0"])
        let flags = Flags()
        let readers = DispatchGroup()
        for _ in 0..<2 {
            readers.enter()
            Thread {
                while !flags.done.load(ordering: .acquiring) {
                    let pair = published.read { ($0["a"], $0["b"]) }
                    if pair.0 != pair.1 { flags.torn.add(1, ordering: .relaxed) }
                }
                readers.leave()
            }.start()
        }
        for round in 1...2_000 { published.publish(["a": String(round), "b": String(round)]) }
        flags.done.store(true, ordering: .releasing)
        readers.wait()
        let torn = flags.torn.load(ordering: .relaxed)
        #expect(torn == 0)
        #expect(published.read { $0["a"] } == "2000")
    }
}
