import Foundation
import HotStringsRelease
import HotStringsTestSupport
import LinuxSystem
import Synchronization

/// The fleet figure of `hotstrings-bench ota`: publish-to-subscriber time with three `serve --pull` daemons, minus
/// the pull interval, next to the save-to-subscriber time of three daemons without `--pull` for a local edit.
enum OTAFleet {
    /// Daemons on each side, subscribers per daemon.
    static let daemons = 3
    static let subscribersPerDaemon = 2

    /// Runs `rounds` publishes and `rounds` local saves with a pull interval of `interval` seconds and prints the
    /// figures; false when a subscriber missed a reload.
    static func run(rounds: Int, interval: Double, in workspace: String) throws -> Bool {
        guard NginxOrigin.executable != nil else {
            print("\nFleet: skipped, nginx is not installed")
            return true
        }
        let pulled = try publishToSubscriber(rounds: rounds, interval: interval, in: workspace + "/fleet")
        let saved = try saveToSubscriber(rounds: rounds, in: workspace + "/local")
        let samples = rounds * daemons * subscribersPerDaemon
        let milliseconds = { (value: Double) in String(format: "%.1f ms", value * 1e3) }
        let pulledMedian = Measure.median(pulled)
        let pulledMax = pulled.max() ?? 0
        let savedMedian = Measure.median(saved)
        let savedMax = saved.max() ?? 0
        print("\nFleet: \(daemons) daemons x \(subscribersPerDaemon) subscribers, \(rounds) rounds "
            + "(\(samples) samples a side), pull interval I = \(interval) s:")
        print("  publish -> subscriber's reload (serve --pull, one nginx): p50 \(milliseconds(pulledMedian)), "
            + "max \(milliseconds(pulledMax))")
        print("  max - I: \(milliseconds(pulledMax - interval)); p50 - I: \(milliseconds(pulledMedian - interval))")
        print("  local save -> subscriber's reload (serve without --pull, own bundles): p50 "
            + "\(milliseconds(savedMedian)), max \(milliseconds(savedMax))")
        print("  ratio (max - I) / max local save: \(Format.ratio((pulledMax - interval) / savedMax))")
        print("  ratio (max - I) / p50 local save: \(Format.ratio((pulledMax - interval) / savedMedian))")
        print("""
              What the subtraction means: publish -> reload = (wait for the daemon's next pull) + (pull, install,
              reload). A daemon pulls at a random 90-100 % of I after its last successful pull, and that pull came
              before the publish, so the wait is under I and every sample minus I is under the pull-install-reload
              cost: max - I is a lower bound of that cost. It is close to it: rounds run back to back, so each
              publish follows the last-reloading daemon's pull by only the reload and publish time, and that
              daemon waits 0.9-1.0 I. The p50 mixes in the other daemons' shorter waits; the local save waits for
              nothing.
            """)
        let expected = rounds * daemons * subscribersPerDaemon
        guard pulled.count == expected, saved.count == expected else {
            print("  MISSED RELOADS: \(pulled.count) and \(saved.count) of \(expected)")
            return false
        }
        return true
    }

    // MARK: - Publish to subscriber

    /// Seconds from each publish (its manifest renamed into place) until each subscriber of each pulling daemon
    /// has read the reload.
    private static func publishToSubscriber(rounds: Int, interval: Double, in root: String) throws -> [Double] {
        let source = root + "/source"
        let output = root + "/published"
        try write(table(round: 0), to: source + "/de.lproj/Localizable.strings")
        try write(table(round: 0), to: source + "/en.lproj/Localizable.strings")
        try FileSystem.makeDirectory(atPath: output)
        let nginx = try NginxOrigin(root: output)
        let first = try Publisher().publish(bundle: source, to: output).manifest.release
        let fleet = try (1...daemons).map { host in
            try FileSystem.makeDirectory(atPath: root + "/host\(host)")
            return try PullingDaemon(bundle: root + "/host\(host)/bundle", url: nginx.url, interval: String(interval),
                                     name: "host\(host)")
        }
        defer { for daemon in fleet { _ = try? daemon.terminate() } }
        for daemon in fleet { try daemon.waitForRelease(first) }
        let subscribers = try fleet.flatMap { daemon in
            try (0..<subscribersPerDaemon).map { _ in try daemon.subscribe() }
        }
        defer { for subscriber in subscribers { _ = subscriber.terminate() } }
        var samples: [Double] = []
        for round in 1...rounds {
            try write(table(round: round), to: source + "/de.lproj/Localizable.strings")
            samples += try reloadTimes(of: subscribers, count: round) {
                _ = try Publisher().publish(bundle: source, to: output)
            }
        }
        return samples
    }

    // MARK: - Local save to subscriber

    /// Seconds from each atomic save of a table into a plain daemon's bundle until each of that daemon's
    /// subscribers has read the reload; the daemons are saved to one after another.
    private static func saveToSubscriber(rounds: Int, in root: String) throws -> [Double] {
        let bundles = try (1...daemons).map { _ in
            try TemporaryBundle(tables: [
                "de.lproj/Localizable.strings": table(round: 0), "en.lproj/Localizable.strings": table(round: 0),
            ])
        }
        defer { for bundle in bundles { bundle.remove() } }
        try FileSystem.makeDirectory(atPath: root)
        // Launched as the pulling daemons are (default log level, socket and state outside the bundle), less --pull.
        let launched = try bundles.enumerated().map { index, bundle in
            let daemon = try DaemonProcess(
                bundle: bundle.root, socket: root + "/local\(index).sock",
                stateDirectory: root + "/local\(index)-state", logName: "local\(index)")
            try daemon.waitUntilServing()
            return daemon
        }
        defer { for daemon in launched { _ = try? daemon.terminate() } }
        let subscribers = try launched.map { daemon in
            try (0..<subscribersPerDaemon).map { _ in try HotstringsProcess.subscriber(socket: daemon.socket) }
        }
        defer { for subscriber in subscribers.joined() { _ = subscriber.terminate() } }
        var samples: [Double] = []
        for round in 1...rounds {
            for (bundle, pair) in zip(bundles, subscribers) {
                samples += try reloadTimes(of: pair, count: round) {
                    try bundle.atomicallyReplace("de.lproj/Localizable.strings", with: table(round: round))
                }
            }
        }
        return samples
    }

    // MARK: - Shared

    /// Runs `change`, then waits, on a thread per subscriber, until each has printed `count` reload events; the
    /// seconds from the end of `change` to each subscriber's wake-up.
    private static func reloadTimes(of subscribers: [HotstringsProcess], count: Int,
                                    after change: () throws -> Void) throws -> [Double] {
        let times = Arrivals(count: subscribers.count)
        let done = DispatchSemaphore(value: 0)
        try change()
        let start = ContinuousClock.now
        for (index, subscriber) in subscribers.enumerated() {
            let stdout = subscriber.stdout
            Thread {
                // A subscriber that misses the reload records nothing; the caller counts the samples.
                if (try? stdout.wait(for: "reload \(count)", timeout: .seconds(30), {
                    $0.components(separatedBy: #""event":"reload""#).count - 1 >= count
                })) != nil {
                    times.record(index, ContinuousClock.now - start)
                }
                done.signal()
            }.start()
        }
        for _ in subscribers { done.wait() }
        return times.seconds
    }

    /// The `de` table of round `round`: 100 keys, of which only `key.0` changes from round to round.
    private static func table(round: Int) -> String {
        "\"key.0\" = \"Value in round \(round)\";\n"
            + (1..<100).map { "\"key.\($0)\" = \"Value \($0)\";" }.joined(separator: "\n") + "\n"
    }

    private static func write(_ text: String, to path: String) throws {
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try FileSystem.writeFileAtomically(Array(text.utf8), toPath: path)
    }
}

/// When each subscriber saw a reload, written from the waiting threads.
private final class Arrivals: Sendable {
    private let times: Mutex<[Duration?]>

    init(count: Int) { times = Mutex(Array(repeating: nil, count: count)) }

    func record(_ index: Int, _ time: Duration) { times.withLock { $0[index] = time } }

    var seconds: [Double] { times.withLock { $0.compactMap { $0?.seconds } } }
}
