import Foundation
import HotStringsProtocol
import HotStringsTestSupport
import HotStringsTestTraits
import Synchronization
import Testing
@testable import HotStringsClient

/// Lookups on several threads while reloads and language switches land: no crash, no torn value. Run once
/// under the thread sanitizer: `swift test --sanitize=thread --filter RaceTests`.
///
/// Note for such runs: on Linux, the sanitizer reports a race on any `Mutex` whose lock was contended (seen
/// with three threads incrementing one `Mutex<[Int]>`, which counts exactly right). A contended lock is
/// handed over inside the kernel (`FUTEX_LOCK_PI`/`FUTEX_UNLOCK_PI`), with no atomic operation in user space
/// for the sanitizer to see. `PublishedValueTests` contends on purpose and so draws such a report.
struct RaceTests {
    /// A value whose every character is the same digit, so a mix of two values cannot pass for either.
    static func value(_ round: Int) -> String {
        String(repeating: String(round % 10), count: 64)
    }

    static func isWhole(_ value: String, orOneOf originals: Set<String>) -> Bool {
        originals.contains(value) || (value.utf8.count == 64 && Set(value.utf8).count == 1)
    }

    /// Runs `readers` threads calling `read` until `write` returns; the number of reads made.
    static func race(readers: Int, read: @escaping @Sendable () -> Void, write: () throws -> Void) throws -> Int {
        let isDone = Atomic<Bool>(false)
        let reads = Atomic<Int>(0)
        let finished = DispatchGroup()
        for _ in 0..<readers {
            finished.enter()
            Thread {
                var count = 0
                // At least one read even if the writer is already done.
                repeat {
                    read()
                    count += 1
                } while !isDone.load(ordering: .acquiring)
                reads.add(count, ordering: .relaxed)
                finished.leave()
            }.start()
        }
        let result = Result { try write() }
        isDone.store(true, ordering: .releasing)
        finished.wait()
        try result.get()
        return reads.load(ordering: .relaxed)
    }

    @Test func lookupsRaceWithReloadsAndLanguageSwitchesInMemory() throws {
        let (strings, transport) = makeClient(environment: ["LANG": "de"])
        transport.connect()
        let torn = Atomic<Int>(0)
        let originals: Set<String> = ["Hallo", "Bonjour", "Hello"]
        let reads = try Self.race(readers: 4, read: {
            if !Self.isWhole(strings.localizedString("greeting"), orOneOf: originals) {
                torn.add(1, ordering: .relaxed)
            }
            _ = strings.localizedString("only.base")
            _ = strings.currentLanguage
        }, write: {
            for round in 1...400 {
                transport.emit(.reload(changes: [
                    Fixtures.update("de/Localizable", changed: ["greeting": Self.value(round)]),
                ]), seq: UInt64(round + 1))
                if round % 50 == 0 { strings.overrideLanguage(round % 100 == 0 ? nil : "fr") }
            }
        })
        #expect(reads > 0)
        #expect(torn.load(ordering: .relaxed) == 0)
        #expect(strings.localizedString("greeting") == Self.value(400))
    }

    @Test(.needsHotstringsBinary) func lookupsRaceWithReloadsFromTheDaemon() throws {
        let sandbox = try Sandbox(prefix: "hs-lib-")
        let daemon = try DaemonProcess.serving(sandbox)
        let probe = ClientProbe()
        let strings = LiveStrings(configuration: .init(socketPath: daemon.socket, environment: ["LANG": "de"]))
        let token = strings.onReload { probe.record(keys: $0.keys, language: $0.language) }
        try probe.wait("the first snapshot") { strings.localizedString("greeting") == "Hallo!" }
        let path = sandbox.bundle + "/" + DaemonTests.german
        let original = try String(contentsOfFile: path, encoding: .utf8)
        let torn = Atomic<Int>(0)
        let reads = try Self.race(readers: 3, read: {
            if !Self.isWhole(strings.localizedString("greeting"), orOneOf: ["Hallo!"]) {
                torn.add(1, ordering: .relaxed)
            }
        }, write: {
            for round in 1...12 {
                let expected = Self.value(round)
                try sandbox.save(original.replacingOccurrences(of: #""Hallo!""#, with: "\"\(expected)\""),
                                to: DaemonTests.german)
                try probe.wait("round \(round)") { strings.localizedString("greeting") == expected }
            }
        })
        #expect(reads > 0)
        #expect(torn.load(ordering: .relaxed) == 0)
        _ = token
    }
}
