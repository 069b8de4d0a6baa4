import HotStringsClient

/// What recording missing keys costs lookups: LiveStrings with one lookup in ten missing (each recorded for
/// the daemon's `missing` list) against the same number of lookups that all hit, interleaved in one run.
enum MissingLookups {
    /// The keys with every tenth replaced by a key no table has (distinct, fewer than the client's cap, so that
    /// every miss is counted rather than dropped).
    static func keys(_ keys: [LookupKey]) -> [LookupKey] {
        keys.enumerated().map { index, key in
            index % 10 == 9 ? LookupKey(table: key.table, key: "missing.key.\(index)") : key
        }
    }

    /// Prints lookups/s with 10 % misses and with none, on `threadCounts` threads (median of 5), and their
    /// ratio, beside the same misses not recorded; the bar: the recorded misses cost at most 10 % more per lookup.
    /// `unrecorded` is a client with `reportsMissingKeys` off: what the misses cost without being recorded.
    static func report(strings: LiveStrings, unrecorded: LiveStrings, keys: [LookupKey], lookups: Int,
                       threadCounts: [Int]) -> Bool {
        let mixed = Self.keys(keys)
        let misses = mixed.count / 10
        print("lookups with 10 % misses (\(misses) distinct missing keys, recorded and reported) vs all hits, "
              + "lookups per second (median of 5)")
        print("  " + ["threads", "all hits", "10 % misses", "cost ratio", "not recorded", "cost ratio"]
            .map { Format.cell($0, 14, right: true) }.joined())
        var passes = true
        for threads in threadCounts {
            var hits: [Double] = []
            var missing: [Double] = []
            var plain: [Double] = []
            for _ in 0..<5 {
                plain.append(LookupRate.measure(threads: threads, lookups: lookups, keys: mixed) {
                    unrecorded.localizedString($0.key, table: $0.table)
                })
                hits.append(LookupRate.measure(threads: threads, lookups: lookups, keys: keys) {
                    strings.localizedString($0.key, table: $0.table)
                })
                missing.append(LookupRate.measure(threads: threads, lookups: lookups, keys: mixed) {
                    strings.localizedString($0.key, table: $0.table)
                })
            }
            let (hitRate, missRate, plainRate) = (Measure.median(hits), Measure.median(missing), Measure.median(plain))
            // Time per lookup with misses over time per lookup without: above 1 is what the misses cost.
            let ratio = hitRate / missRate
            print("  " + [String(threads), String(format: "%.0f", hitRate), String(format: "%.0f", missRate),
                          Format.ratio(ratio), String(format: "%.0f", plainRate), Format.ratio(hitRate / plainRate)].map { Format.cell($0, 14, right: true) }.joined())
            passes = passes && ratio <= 1.10
        }
        print("  bar 10 % misses cost <= 1.10x all hits: \(passes ? "PASS" : "FAIL")")
        return passes
    }
}
