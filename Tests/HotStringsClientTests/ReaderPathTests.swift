import Dispatch
import Foundation
import HotStringsProtocol
import HotStringsTestSupport
import Synchronization
import Testing
@testable import HotStringsClient

/// `LiveStrings` lookups on many threads while reloads land: whole versions only, never back to an old value,
/// the new value once a reload hook ran, and replaced mirrors freed.
struct ReaderPathTests {
    /// The value of every key in `round`: long enough for the heap, and naming its round.
    static func value(_ round: Int) -> String {
        "round \(round) of a value long enough to be stored on the heap"
    }

    static func round(of value: String) -> Int? {
        guard value.hasPrefix("round "), value.hasSuffix(" of a value long enough to be stored on the heap")
        else { return nil }
        return Int(value.dropFirst(6).prefix { $0 != " " })
    }

    /// A client in German, synchronized with a de table of `keys` keys all valued `value(0)`.
    static func client(keys: Int) -> (LiveStrings, FakeTransport) {
        let (strings, transport) = makeClient(environment: ["LANG": "de"])
        var tables = Fixtures.bundle
        tables["de/Localizable"] = Dictionary(uniqueKeysWithValues: (0..<keys).map { ("key.\($0)", value(0)) })
        transport.connect(tables)
        return (strings, transport)
    }

    /// Delivers reload `round` (at seq `round + 1`), changing `changed` keys (all when nil) to `value(round)`.
    static func reload(_ transport: FakeTransport, round: Int, keys: Int, changed: Int? = nil) {
        let entries = (0..<(changed ?? keys)).map { ("key.\(($0 + round) % keys)", value(round)) }
        transport.emit(.reload(changes: [
            Fixtures.update("de/Localizable", changed: Dictionary(uniqueKeysWithValues: entries)),
        ]), seq: UInt64(round + 1))
    }

    @Test func manyThreadsReadingDuringManyReloadsSeeWholeVersionsAndNeverGoBack() throws {
        let keys = 64
        let (strings, transport) = Self.client(keys: keys)
        let broken = Atomic<Int>(0)
        let wentBack = Atomic<Int>(0)
        let reads = try RaceTests.race(readers: 4, read: {
            // Each thread reads the keys in order: a later read never shows an older round than an earlier one.
            var newest = 0
            for index in stride(from: 0, to: keys, by: 7) {
                guard let round = Self.round(of: strings.localizedString("key.\(index)")) else {
                    broken.add(1, ordering: .relaxed)
                    continue
                }
                if round < newest { wentBack.add(1, ordering: .relaxed) }
                newest = max(newest, round)
            }
        }, write: {
            for round in 1...500 { Self.reload(transport, round: round, keys: keys) }
        })
        #expect(reads > 0)
        #expect(broken.load(ordering: .relaxed) == 0)
        #expect(wentBack.load(ordering: .relaxed) == 0)
        #expect(strings.localizedString("key.3") == Self.value(500))
    }

    @Test func aThreadReadsTheNewValueOnceTheReloadHookRan() {
        let (strings, transport) = Self.client(keys: 16)
        let hookRan = DispatchSemaphore(value: 0)
        let checked = DispatchSemaphore(value: 0)
        let stale = Atomic<Int>(0)
        let token = strings.onReload { _ in hookRan.signal() }
        let rounds = 200
        Thread {
            for round in 1...rounds {
                // This thread holds the mirror it read last; after the hook, it must not answer from it.
                guard hookRan.wait(timeout: .now() + .seconds(10)) == .success else { break }
                if strings.localizedString("key.0") != Self.value(round) { stale.add(1, ordering: .relaxed) }
                checked.signal()
            }
        }.start()
        for round in 1...rounds {
            Self.reload(transport, round: round, keys: 16)
            #expect(checked.wait(timeout: .now() + .seconds(10)) == .success)
        }
        token.cancel()
        #expect(stale.load(ordering: .relaxed) == 0)
    }

    /// (The benchmark shows the same over 1,000 reloads of a 20,000-key table, with the process's memory.)
    @Test func replacedMirrorsAreFreedOverManyReloads() throws {
        // Small enough to take well under a second in a debug build: the test holds one of the few threads
        // of Swift's concurrency pool meanwhile, which other suites' asynchronous tests need.
        let keys = 200
        let (strings, transport) = Self.client(keys: keys)
        let replaced = Mutex<[Weak]>([])
        _ = try RaceTests.race(readers: 3, read: {
            _ = strings.localizedString("key.17")
        }, write: {
            for round in 1...300 {
                let current = strings.core.snapshot
                replaced.withLock { $0.append(Weak(current)) }
                Self.reload(transport, round: round, keys: keys, changed: 20)
            }
        })
        // The readers exited, and a thread's cache (with the mirror it held) is released by its exit destructor,
        // which may run just after `race` returned.
        let isFreed = waitUntil(.seconds(10)) { replaced.withLock { $0.allSatisfy { $0.object == nil } } }
        #expect(isFreed, "\(replaced.withLock { $0.filter { $0.object != nil }.count }) replaced mirrors alive")
        #expect(strings.localizedString("key.110") == Self.value(300))
    }
}
