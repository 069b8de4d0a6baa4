import HotStringsProtocol
import StringsFormat

/// The keys every client reported missing or found only through a fallback, merged: one entry per kind, table,
/// key, requested language and serving language, with the summed count and the earliest and latest lookup.
///
/// Bounded: at most `capacity` distinct entries are kept, whoever sends them; a report's entries beyond that
/// are counted in `dropped` (with the lookups clients could not record themselves, `droppedByClients`), and
/// entries already kept go on being counted. Clients are many and any of them may be hostile, so one cannot
/// make the daemon grow without bound.
struct MissingKeys {
    /// Distinct entries kept at most.
    static let defaultCapacity = 10_000

    let capacity: Int
    private var entries: [MissingEntry.Identity: MissingEntry] = [:]
    /// Entries of reports that found the daemon's cap reached.
    private(set) var dropped: Int64 = 0
    /// Lookups clients reported they could not record (their own caps).
    private(set) var droppedByClients: Int64 = 0

    init(capacity: Int = Self.defaultCapacity) {
        self.capacity = capacity
    }

    /// Merges one client's report (already checked whole by the decoder).
    mutating func merge(_ report: MissingReport) {
        droppedByClients = droppedByClients.addingReportingOverflow(report.dropped).overflow
            ? .max : droppedByClients + report.dropped
        for entry in report.entries {
            if var kept = entries[entry.identity] {
                let (sum, overflow) = kept.count.addingReportingOverflow(entry.count)
                kept.count = overflow ? .max : sum
                kept.firstSeen = min(kept.firstSeen, entry.firstSeen)
                kept.lastSeen = max(kept.lastSeen, entry.lastSeen)
                entries[entry.identity] = kept
            } else if entries.count < capacity {
                entries[entry.identity] = entry
            } else {
                dropped += 1
            }
        }
    }

    /// The entries of `language` (canonical comparison) and `table`, when given: most looked-up first, then by
    /// table, key and language.
    func list(language: String?, table: String?) -> [MissingEntry] {
        let wanted = language.map { LanguageTag($0)?.identifier ?? $0 }
        return entries.values.filter { entry in
            (wanted == nil || entry.identity.language == wanted) && (table == nil || entry.identity.table == table)
        }.sorted { left, right in
            if left.count != right.count { return left.count > right.count }
            let (a, b) = (left.identity, right.identity)
            return (a.table, a.key, a.language, a.kind.rawValue, a.servedBy ?? "")
                < (b.table, b.key, b.language, b.kind.rawValue, b.servedBy ?? "")
        }
    }

    /// `status`'s `missing` member: how many entries of each kind, and the drops.
    var counts: StatusAnswer.MissingCounts {
        let fallbacks = entries.keys.reduce(0) { $0 + ($1.kind == .fallback ? 1 : 0) }
        return StatusAnswer.MissingCounts(missing: entries.count - fallbacks, fallback: fallbacks, dropped: dropped,
                                          droppedByClients: droppedByClients)
    }

    /// The answer to `missing`.
    func answer(language: String?, table: String?) -> MissingAnswer {
        MissingAnswer(entries: list(language: language, table: table), dropped: dropped,
                      droppedByClients: droppedByClients)
    }
}
