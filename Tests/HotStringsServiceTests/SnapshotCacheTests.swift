import HotStringsProtocol
import HotStringsService
import Testing

/// Finding 5: each distinct `subscribe` filter kept a snapshot until the data next changed, so 400 filters
/// grew the daemon by 400 snapshots. The cache is now capped and drops what no subscriber needs.
struct SnapshotCacheTests {
    @Test func manyDistinctFiltersKeepNoMoreThanTheCap() async throws {
        let fixture = ServiceFixture(cacheLimits: SnapshotCacheLimits(entries: 8, bytes: 1 << 20))
        try await fixture.scan()
        for client: ClientID in 1...400 {
            // Distinct filters: each names a table that does not exist, plus the real ones.
            let tables = ["Localizable", "InfoPlist", "Missing\(client)"]
            #expect(await fixture.send(.subscribe(Subscription(tables: tables)), from: client).count == 2)
        }
        #expect(fixture.service.snapshotCacheUsage.entries == 8)
        for client: ClientID in 1...400 { _ = await fixture.service.handle(.closed(client)) }
        #expect(fixture.service.snapshotCacheUsage.entries == 0)
        #expect(fixture.service.snapshotCacheUsage.bytes == 0)
    }

    @Test func theByteCapHoldsAndASnapshotLargerThanItIsNotKept() async throws {
        let fixture = ServiceFixture(cacheLimits: SnapshotCacheLimits(entries: 100, bytes: 40))
        try await fixture.scan()
        // German holds 8 + 6 = 14 bytes of keys and values: kept.
        _ = await fixture.send(.subscribe(Subscription(languages: ["de"])), from: 1)
        #expect(fixture.service.snapshotCacheUsage == (entries: 1, bytes: 14))
        // English holds 8 + 6 + 8 + 3 + 12 + 4 = 41, more than the cap: answered, never kept.
        #expect(await fixture.send(.subscribe(Subscription(languages: ["en"])), from: 2).count == 2)
        #expect(fixture.service.snapshotCacheUsage == (entries: 1, bytes: 14))
        // Every Localizable (25 + 14 = 39) fits, but not beside German's 14: the least recently used goes.
        _ = await fixture.send(.subscribe(Subscription(tables: ["Localizable"])), from: 3)
        #expect(fixture.service.snapshotCacheUsage == (entries: 1, bytes: 39))
    }

    @Test func subscribersWithOneFilterShareOneSnapshotUntilTheDataChanges() async throws {
        let fixture = ServiceFixture()
        try await fixture.scan()
        _ = await fixture.send(.subscribe(Subscription(languages: ["de"])), from: 1)
        _ = await fixture.send(.subscribe(Subscription(languages: ["de"])), from: 2)
        #expect(fixture.service.snapshotCacheUsage.entries == 1)
        _ = await fixture.service.handle(.closed(1))
        #expect(fixture.service.snapshotCacheUsage.entries == 1)  // client 2 still has the filter
        _ = await fixture.service.handle(.batch(try ServiceFixture.batch(["de/Localizable": #""a" = "b";"#])))
        _ = await fixture.send(.subscribe(Subscription(languages: ["en"])), from: 3)
        #expect(fixture.service.snapshotCacheUsage.entries == 1)  // the German one was of older data
    }
}
