import Foundation
import HotStringsRelease
import HotStringsTestSupport
import LinuxSystem
import Testing

/// Three daemons, each with its own bundle, socket and state folder as three hosts would have, pull from one
/// nginx origin every second; after a publish every subscriber of every daemon sees exactly one reload, and all
/// three serve the new release within the pull interval plus one second of the publish.
@Suite struct ManyMachinesTests {
    static let interval = 1.0

    @Test func everySubscriberOfEveryDaemonSeesOneReloadWithinTheIntervalPlusOneSecond() throws {
        let fixture = try ReleaseFixture()
        let nginx = try fixture.nginxOrigin()
        let first = try fixture.publish()
        let daemons = try (1...3).map { host in
            // The bundle itself is missing: serve --pull creates it.
            try FileSystem.makeDirectory(atPath: fixture.sandbox.root + "/host\(host)")
            return try PullingDaemon(bundle: fixture.sandbox.root + "/host\(host)/bundle", url: nginx.url,
                              interval: String(Self.interval), name: "host\(host)")
        }
        for daemon in daemons { try daemon.waitForRelease(first) }
        let subscribers = try daemons.map { daemon in try [daemon.subscribe(), daemon.subscribe()] }

        let second = try fixture.publishChange("fleet")
        let published = ContinuousClock.now
        // When each daemon's subscribers have both seen the reload (each subscriber's stdout is polled).
        var served: [Int: Duration] = [:]
        try waitUntil("every subscriber's reload", timeout: .seconds(15)) {
            for (host, pair) in subscribers.enumerated() where served[host] == nil {
                if pair.allSatisfy({ $0.reloads >= 1 }) { served[host] = ContinuousClock.now - published }
            }
            return served.count == daemons.count
        }
        let slowest = served.values.max() ?? .zero
        let report = served.sorted { $0.key < $1.key }.map { "host\($0.key + 1): \($0.value)" }.joined(separator: ", ")
        #expect(slowest <= .seconds(Self.interval + 1), "publish to every subscriber: \(report)")
        for daemon in daemons {
            try daemon.waitForRelease(second, timeout: .seconds(5))
            #expect(try daemon.germanGreeting().contains("Hallo fleet"))
        }
        // Every daemon pulls again and finds nothing new: still one reload per subscriber.
        let after = Date()
        for daemon in daemons { try daemon.waitForUnchangedPull(after: after) }
        for subscriber in subscribers.joined() {
            #expect(subscriber.reloads == 1, "\(subscriber.stdout.text)")
            #expect(subscriber.errorEvents.isEmpty, "\(subscriber.stdout.text)")
        }
        print("ManyMachinesTests: publish to all subscribers: \(report)")
        for subscriber in subscribers.joined() { _ = subscriber.terminate() }
        for daemon in daemons { #expect(try daemon.terminate() == 0) }
    }
}
