import HotStringsProtocol
import Testing
@testable import HotStringsClient

/// The engine's connection state through a connection's life, fed events by hand.
struct ConnectionStateTests {
    static func snapshot(seq: UInt64) -> TransportEvent {
        .event(epoch: Fixtures.epoch, seq: seq, .snapshot(tables: Fixtures.payloads(Fixtures.bundle)))
    }

    @Test func aConnectionGoesFromHandshakeToLiveAndBackOnResyncGapAndDisconnect() {
        var engine = MirrorEngine(languages: nil, tables: nil, environment: ["LANG": "de"])
        #expect(engine.state == .offline)
        _ = engine.handle(.connected)
        #expect(engine.state == .handshaking(isAwaitingSnapshot: false))
        _ = engine.handle(Self.snapshot(seq: 1))
        #expect(engine.state == .handshaking(isAwaitingSnapshot: false))
        _ = engine.handle(.serverInfo(Fixtures.info(Fixtures.bundle)))
        #expect(engine.state == .live)
        #expect(engine.view.isSynchronized)
        _ = engine.handle(.event(epoch: Fixtures.epoch, seq: 2, .resync(reason: "test")))
        #expect(engine.state == .awaitingSnapshot)
        #expect(!engine.view.isSynchronized)
        _ = engine.handle(Self.snapshot(seq: 3))
        #expect(engine.state == .live)
        // seq 5 after 3: a gap, so a snapshot is asked for and awaited.
        let gap = engine.handle(.event(epoch: Fixtures.epoch, seq: 5, .reload(changes: [])))
        #expect(engine.state == .awaitingSnapshot)
        #expect(gap.commands.count == 1)
        _ = engine.handle(.disconnected(reason: "test"))
        #expect(engine.state == .offline)
        #expect(!engine.view.isConnected)
    }

    @Test func aHandshakeWithoutSnapshotEndsAwaitingOne() {
        var engine = MirrorEngine(languages: nil, tables: nil, environment: [:])
        _ = engine.handle(.connected)
        _ = engine.handle(.event(epoch: Fixtures.epoch, seq: 1, .resync(reason: "test")))
        #expect(engine.state == .handshaking(isAwaitingSnapshot: true))
        _ = engine.handle(.serverInfo(Fixtures.info(Fixtures.bundle)))
        #expect(engine.state == .awaitingSnapshot)
        _ = engine.handle(Self.snapshot(seq: 2))
        #expect(engine.state == .live)
    }

    @Test func aDisconnectDuringTheHandshakeLeavesTheMirrorOffline() {
        var engine = MirrorEngine(languages: nil, tables: nil, environment: [:])
        _ = engine.handle(.connected)
        _ = engine.handle(.disconnected(reason: "test"))
        #expect(engine.state == .offline)
        #expect(!engine.view.isSynchronized)
    }
}
