import HotStringsClient

/// What one version per request costs (issue 25): lookups through a `LiveStrings.Snapshot` against lookups
/// through `LiveStrings`, taking a snapshot against one lookup, and snapshots on 2 threads against 1.
enum SnapshotLookups {
    /// Prints the figures and their bars; true when all pass.
    static func report(strings: LiveStrings, keys: [LookupKey], lookups: Int) -> Bool {
        print("lookups through a snapshot vs through LiveStrings, lookups per second (median of 5)")
        let header = ["threads", "LiveStrings", "snapshot", "ratio", "scaling"]
        print("  " + header.map { Format.cell($0, 14, right: true) }.joined())
        var passes = true
        var single = 0.0
        for threads in [1, 2] {
            var live: [Double] = []
            var frozen: [Double] = []
            for _ in 0..<5 {
                let snapshot = strings.snapshot()
                frozen.append(LookupRate.measure(threads: threads, lookups: lookups, keys: keys) {
                    snapshot.localizedString($0.key, table: $0.table)
                })
                live.append(LookupRate.measure(threads: threads, lookups: lookups, keys: keys) {
                    strings.localizedString($0.key, table: $0.table)
                })
            }
            let (liveRate, frozenRate) = (Measure.median(live), Measure.median(frozen))
            if threads == 1 { single = frozenRate }
            print("  " + [String(threads), String(format: "%.0f", liveRate), String(format: "%.0f", frozenRate),
                          Format.ratio(frozenRate / liveRate), Format.ratio(frozenRate / single)]
                .map { Format.cell($0, 14, right: true) }.joined())
            passes = passes && frozenRate >= 0.9 * liveRate
            if threads == 2 { passes = passes && frozenRate >= 1.8 * single }
        }
        print("  bar snapshot lookups >= 0.9x LiveStrings' and 2 threads >= 1.8x one: \(passes ? "PASS" : "FAIL")")

        // Taking a snapshot against one lookup, one thread, interleaved.
        let rounds = max(lookups / 4, 10_000)
        var lookupTimes: [Double] = []
        var takeTimes: [Double] = []
        var acceptTimes: [Double] = []
        let key = keys[keys.count / 2]
        for _ in 0..<5 {
            lookupTimes.append(Measure.seconds(iterations: 1) {
                var sum = 0
                for _ in 0..<rounds { sum &+= strings.localizedString(key.key, table: key.table).utf8.count }
                precondition(sum > 0)
            }[0])
            takeTimes.append(Measure.seconds(iterations: 1) {
                var sum: UInt64 = 0
                for _ in 0..<rounds { sum &+= strings.snapshot().generation &+ 1 }
                precondition(sum > 0)
            }[0])
            acceptTimes.append(Measure.seconds(iterations: 1) {
                var sum: UInt64 = 0
                for _ in 0..<rounds {
                    sum &+= ((try? strings.snapshot(acceptLanguage: "de-CH, fr;q=0.8"))?.generation ?? 0) &+ 1
                }
                precondition(sum > 0)
            }[0])
        }
        let lookup = Measure.median(lookupTimes)
        let (take, accept) = (Measure.median(takeTimes), Measure.median(acceptTimes))
        print(String(format: "taking a snapshot vs one lookup (%d each, median of 5): snapshot() %.0f ns, "
                     + "snapshot(acceptLanguage:) cached %.0f ns, lookup %.0f ns: %@ and %@",
                     rounds, take / Double(rounds) * 1e9, accept / Double(rounds) * 1e9,
                     lookup / Double(rounds) * 1e9, Format.ratio(take / lookup), Format.ratio(accept / lookup)))
        return passes
    }
}
