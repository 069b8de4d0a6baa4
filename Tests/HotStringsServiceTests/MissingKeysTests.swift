import HotStringsProtocol
@testable import HotStringsService
import Testing

/// The daemon's merged list of missing keys: counts summed, times widened, and bounded whatever clients send.
struct MissingKeysMergeTests {
    static func entry(_ key: String, kind: MissingEntry.Kind = .missing, language: String = "de", count: Int64 = 1,
                      at time: Int64 = 1_000) -> MissingEntry {
        MissingEntry(.init(kind: kind, table: "Localizable", key: key, language: language,
                           servedBy: kind == .fallback ? "en" : nil),
                     count: count, firstSeen: time, lastSeen: time)
    }

    @Test func reportsOfOneKeyAreSummedAndTheirTimesWidened() {
        var keys = MissingKeys()
        keys.merge(MissingReport(entries: [Self.entry("a", count: 2, at: 5_000)], dropped: 0))
        keys.merge(MissingReport(entries: [Self.entry("a", count: 3, at: 2_000), Self.entry("a", kind: .fallback)],
                                 dropped: 4))
        let list = keys.list(language: nil, table: nil)
        #expect(list.map(\.count) == [5, 1])
        #expect(list[0].firstSeen == 2_000 && list[0].lastSeen == 5_000)
        #expect(keys.droppedByClients == 4)
        #expect(keys.list(language: "de-CH", table: nil).isEmpty)
        #expect(keys.list(language: "DE", table: "Localizable").count == 2)
    }

    @Test func entriesBeyondTheCapAreCountedNotKeptWhileKeptOnesGoOnCounting() {
        var keys = MissingKeys(capacity: 2)
        for round in 0..<100 {
            keys.merge(MissingReport(entries: (0..<10).map { Self.entry("key-\(round)-\($0)") }, dropped: 0))
        }
        keys.merge(MissingReport(entries: [Self.entry("key-0-0", count: 7)], dropped: 0))
        #expect(keys.list(language: nil, table: nil).count == 2)
        #expect(keys.dropped == 998)
        #expect(keys.list(language: nil, table: nil).first?.count == 8)
        #expect(keys.counts.missing == 2 && keys.counts.dropped == 998)
    }

    @Test func rfc3339TimesRoundTripToTheMillisecond() {
        for milliseconds: Int64 in [0, 1_733_350_265_123, 951_782_400_000, -1, 4_102_444_799_999] {
            let text = RFC3339.string(milliseconds: milliseconds)
            #expect(RFC3339.milliseconds(text) == milliseconds, "\(text)")
        }
        #expect(RFC3339.string(milliseconds: 951_782_400_000) == "2000-02-29T00:00:00.000Z")
        #expect(RFC3339.milliseconds("2026-12-04T22:00:00.5Z") == RFC3339.milliseconds("2026-12-04T22:00:00.500Z"))
        for bad in ["2026-12-04", "2026-13-04T22:00:00Z", "2026-12-04T22:00:00+02:00", "2026-12-04T22:00:00.Z"] {
            #expect(RFC3339.milliseconds(bad) == nil, "\(bad)")
        }
    }
}
