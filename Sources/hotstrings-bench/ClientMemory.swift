import Dispatch
import Foundation
import HotStringsClient
import Synchronization

/// The client's memory over many reloads of a large table: replaced mirrors must be freed.
enum ReloadMemory {
    /// Resident set size and live mirror snapshots after some reloads.
    struct Sample {
        var reloads: Int
        var residentBytes: Int
        var liveSnapshots: Int
    }

    /// Saves `Large` `reloads` times (every value changed), each waited for until the client's reload hook
    /// ran, while `readers` threads keep looking keys up (so that they hold snapshots and replace them);
    /// samples this process's memory after 10 reloads, at the middle and at the end (readers still running).
    static func measure(strings: LiveStrings, fixture: ClientFixture, readers: Int, reloads: Int,
                        firstRound: Int) throws -> [Sample] {
        let applied = DispatchSemaphore(value: 0)
        let token = strings.onReload { change in
            if change.cause == .reload { applied.signal() }
        }
        defer { token.cancel() }
        let isStopping = Atomic<Bool>(false)
        let finished = DispatchGroup()
        let keys = fixture.lookupKeys + fixture.largeLookupKeys
        for reader in 0..<readers {
            finished.enter()
            Thread {
                var index = reader * keys.count / readers
                var sum = 0
                while !isStopping.load(ordering: .relaxed) {
                    sum &+= strings.localizedString(keys[index].key, table: keys[index].table).utf8.count
                    index = index + 1 == keys.count ? 0 : index + 1
                }
                precondition(sum > 0, "the lookups returned nothing")
                finished.leave()
            }.start()
        }
        defer {
            isStopping.store(true, ordering: .releasing)
            finished.wait()
        }
        var samples: [Sample] = []
        let checkpoints: Set<Int> = [min(10, reloads), max(1, reloads / 2), reloads]
        for round in 1...reloads {
            let text = ClientFixture.large(round: firstRound + round - 1, keys: fixture.largeKeys)
            try fixture.bundle.atomicallyReplace("de.lproj/Large.strings", with: text)
            guard applied.wait(timeout: .now() + .seconds(20)) == .success else {
                throw UsageError("reload \(round) did not reach the client within 20 s")
            }
            if checkpoints.contains(round) {
                // This thread looked keys up before (the earlier figures): one lookup takes the current mirror, so
                // that it holds no replaced one, as the bar below counts only the reader threads'.
                _ = strings.localizedString(keys[0].key, table: keys[0].table)
                samples.append(Sample(reloads: round, residentBytes: try ProcessMemory.current().residentBytes,
                                      liveSnapshots: LiveStrings.liveSnapshotCount))
            }
        }
        return samples
    }

    /// Prints the samples and whether memory stayed flat: the last sample within 10% (plus 4 MB) of the first.
    static func report(_ samples: [Sample], largeKeys: Int, readers: Int) -> Bool {
        print("memory over reloads of Large (\(largeKeys) keys, all changed), \(readers) reader thread(s) looking "
              + "keys up throughout")
        print("  " + ["reloads", "resident", "live snapshots"].map { Format.cell($0, 16, right: true) }.joined())
        for sample in samples {
            let cells = [String(sample.reloads), Format.megabytes(sample.residentBytes), String(sample.liveSnapshots)]
            print("  " + cells.map { Format.cell($0, 16, right: true) }.joined())
        }
        guard let first = samples.first, let last = samples.last else { return true }
        let isFlat = Double(last.residentBytes) <= Double(first.residentBytes) * 1.1 + 4e6
        // One current snapshot, plus at most one replaced one per reader thread (until its next lookup).
        let isBounded = last.liveSnapshots <= 1 + readers
        print("  bar resident memory flat (last <= first + 10% + 4 MB) and live snapshots <= 1 + readers: "
              + (isFlat && isBounded ? "PASS" : "FAIL"))
        return isFlat && isBounded
    }
}
