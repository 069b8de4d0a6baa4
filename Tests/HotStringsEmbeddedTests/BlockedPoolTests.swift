import Dispatch
import Foundation
import HotStringsRelease
import HotStringsClient
import HotStringsEmbedded
import HotStringsProtocol
import HotStringsTestSupport
import Synchronization
import Testing

/// Tasks that hold every thread of Swift's cooperative pool in a blocking wait, as a program (or a test
/// runner with synchronous waits) may; released by `release()` or after ten seconds at the latest.
private final class PoolBlockers: Sendable {
    private let gate = DispatchSemaphore(value: 0)
    private let running = Atomic<Int>(0)
    private let count: Int

    /// Starts one blocking task per processor (the pool's width) and waits up to a second until they hold
    /// the pool. Those that do not start within it wait behind other tests' blocking work, which holds the
    /// pool just as well.
    init() {
        count = ProcessInfo.processInfo.activeProcessorCount
        for _ in 0..<count {
            Task.detached { [self] in
                running.add(1, ordering: .relaxed)
                _ = gate.wait(timeout: .now() + 10)
            }
        }
        // When the caller itself runs on a pool thread, one of the blockers waits behind it, and the caller's
        // thread is the last pool thread: it blocks below.
        _ = waitUntil(.seconds(1)) { running.load(ordering: .relaxed) == count }
    }

    /// Lets every blocker return.
    func release() {
        for _ in 0..<count { gate.signal() }
    }
}

/// The embedded service does its work on a thread of its own, so it keeps serving while the cooperative
/// pool's threads are all blocked (the cause of the embedded cases' "timed out waiting for the connection"
/// in full test runs: on two cores the pool has two threads, and synchronous waits in other tests held them).
struct BlockedPoolTests {
    @Test func theEmbeddedTransportConnectsWhileEveryPoolThreadIsBlocked() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("hs-pool-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.copyItem(atPath: sampleBundlePath, toPath: root + "/bundle")
        let transport = try EmbeddedTransport(bundle: root + "/bundle", options: LiveStrings.EmbeddedOptions())
        defer { transport.stop() }

        let blockers = PoolBlockers()
        let connected = DispatchSemaphore(value: 0)
        // The handler runs on the transport's delivery thread, which is no pool thread either.
        transport.start { event in if case .connected = event { connected.signal() } }
        let result = connected.wait(timeout: .now() + 5)
        blockers.release()
        #expect(result == .success, "no connection while the pool was blocked")
    }

    @Test func anEmbeddedPullInstallsAndReloadsWhileEveryPoolThreadIsBlocked() throws {
        let sandbox = try Sandbox(prefix: "hs-pool-pull-")
        try FileManager.default.createDirectory(atPath: sandbox.root + "/published", withIntermediateDirectories: true)
        let origin = try FaultOrigin(root: sandbox.root + "/published")
        _ = try Publisher().publish(bundle: sandbox.bundle, to: sandbox.root + "/published")
        let transport = try EmbeddedTransport(bundle: sandbox.root + "/pulled", options: LiveStrings.EmbeddedOptions(),
                                              pull: LiveStrings.PullSource(url: origin.url))
        defer { transport.stop() }

        let blockers = PoolBlockers()
        let reloaded = DispatchSemaphore(value: 0)
        // The bundle starts empty: the release arrives through URLSession, the puller's thread, the watcher and
        // the core, none of them a pool thread; it is in the subscription's snapshot or in a reload after it.
        transport.start { [transport] event in
            switch event {
            case .connected: transport.send(.subscribe(Subscription()))
            case .event(_, _, .snapshot(let tables)) where !tables.isEmpty: reloaded.signal()
            case .event(_, _, .reload(let changes)) where !changes.isEmpty: reloaded.signal()
            default: break
            }
        }
        let result = reloaded.wait(timeout: .now() + 8)
        blockers.release()
        #expect(result == .success, "no pulled release while the pool was blocked")
    }
}
