import Foundation
import HotStringsRelease
import HotStringsTestSupport
import LinuxSystem
import Testing

/// `serve --pull` against an origin that fails: each failure is an `error` event and the status's result, the
/// last good release stays served, and the daemon recovers when the origin is fixed.
@Suite struct ServePullFaultTests {
    /// A fault, where it applies, and what the event and the status say about it (file, message).
    static let cases: [(FaultOrigin.Fault, String, String, String)] = [
        (.wrongBytes, "/files/", "de.lproj/Localizable.strings", "SHA-256 mismatch: expected "),
        (.status503, "/manifest.json", "/manifest.json", "HTTP status 503"),
        (.truncated, "/files/", "/files/", "release not installed: "),
        (.invalidJSON, "/manifest.json", "manifest.json", "invalid manifest: not JSON"),
    ]

    /// A fixture whose publish output the fault origin serves, its first release published, and a daemon pulling
    /// it every `interval` seconds that has installed it.
    static func pullingFromFaultOrigin(interval: String = "0.2") throws
        -> (ReleaseFixture, FaultOrigin, PullingDaemon, String) {
        let fixture = try ReleaseFixture()
        try FileSystem.makeDirectory(atPath: fixture.output)
        let origin = try FaultOrigin(root: fixture.output)
        let first = try fixture.publish()
        let daemon = try PullingDaemon(bundle: fixture.target, url: origin.url, interval: interval)
        try daemon.waitForRelease(first)
        return (fixture, origin, daemon, first)
    }

    @Test(arguments: cases)
    func aFailedPullIsReportedAndTheLastGoodReleaseStays(fault: FaultOrigin.Fault, prefix: String, file: String,
                                                         message: String) throws {
        let (fixture, origin, daemon, first) = try Self.pullingFromFaultOrigin()
        let subscriber = try daemon.subscribe()

        try origin.setFault(fault, for: prefix)
        let second = try fixture.publishChange("kaputt")
        try waitUntil("the error event", timeout: .seconds(15)) { !subscriber.errorEvents.isEmpty }
        let event = try #require(subscriber.errorEvents.first)
        #expect(event.contains(file) && event.contains("release not installed: ") && event.contains(message),
                "\(event)")
        let pull = try daemon.pullStatus()
        #expect(pull["result"] as? String == "failed", "\(pull)")
        let error = try #require(pull["error"] as? [String: Any], "\(pull)")
        #expect((error["file"] as? String)?.contains(file) == true && (error["message"] as? String)?
            .contains(message) == true, "\(error)")
        #expect((pull["failures"] as? Int ?? 0) >= 1)
        #expect(try daemon.release() == first)
        #expect(try fixture.servesExactly(first))
        #expect(!(try daemon.germanGreeting().contains("kaputt")))
        #expect(subscriber.reloads == 0, "\(subscriber.stdout.text)")
        let text = try HotstringsProcess.run(["status", "--socket", daemon.socket]).stdout
        #expect(text.contains("failed (") && text.contains(message), "\(text)")
        // The log is read from the daemon's pipe on a thread of the test's own: it may lag the status.
        let log = { daemon.daemon.log }
        #expect(waitUntil(.seconds(20)) { log().contains("warning: ") && log().contains(message) }, "\(log())")

        try origin.setFault(nil, for: prefix)
        try waitUntil("the recovery's reload", timeout: .seconds(20)) { subscriber.reloads >= 1 }
        try daemon.waitForRelease(second)
        #expect(try daemon.germanGreeting().contains("kaputt"))
        try waitUntil("failures back to 0") { try daemon.pullStatus()["failures"] as? Int == 0 }
        #expect(waitUntil(.seconds(20)) { daemon.daemon.log.contains("pull: the origin works again after ") },
                "\(daemon.daemon.log)")
        // A run of identical failures is one event (the first one), however many retries it took.
        #expect(subscriber.errorEvents.count == 1, "\(subscriber.errorEvents)")
        _ = subscriber.terminate()
        #expect(try daemon.terminate() == 0)
    }

    @Test func aTableThatDoesNotParseIsAnErrorEventWithLineAndColumn() throws {
        let (fixture, origin, daemon, first) = try Self.pullingFromFaultOrigin()
        defer { withExtendedLifetime(origin) {} }
        let subscriber = try daemon.subscribe()
        try fixture.publishBrokenFrenchTable()
        try waitUntil("the error event", timeout: .seconds(15)) { !subscriber.errorEvents.isEmpty }
        let event = try #require(subscriber.errorEvents.first)
        #expect(event.contains(#""file":"fr.lproj/Localizable.strings","line":2,"column":7"#), "\(event)")
        #expect(event.contains(#""message":"release not installed: "#), "\(event)")
        let error = try #require(try daemon.pullStatus()["error"] as? [String: Any])
        #expect(error["line"] as? Int == 2 && error["column"] as? Int == 7, "\(error)")
        #expect(try daemon.release() == first)
        #expect(try fixture.servesExactly(first))
        _ = subscriber.terminate()
        #expect(try daemon.terminate() == 0)
    }

    @Test func theFirstReleaseIntoAnEmptyBundleIsOneReloadWithoutDanglingLinkErrors() throws {
        let fixture = try ReleaseFixture()
        try FileSystem.makeDirectory(atPath: fixture.output)
        let origin = try FaultOrigin(root: fixture.output)
        let first = try fixture.publish()
        try origin.setFault(.status503, for: "/manifest.json")
        let daemon = try PullingDaemon(bundle: fixture.target, url: origin.url, interval: "0.2")
        // The failure came before the subscription (a run of identical failures is one event): status has it.
        try waitUntil("a failed pull", timeout: .seconds(10)) {
            try daemon.pullStatus()["result"] as? String == "failed"
        }
        let subscriber = try daemon.subscribe()
        #expect(try daemon.release() == nil)

        try origin.setFault(nil, for: "/manifest.json")
        try daemon.waitForRelease(first)
        try waitUntil("the first release's reload", timeout: .seconds(10)) { subscriber.reloads >= 1 }
        // Pulls after the install find it current (interval 0.2 s): no link error, and one reload.
        let installed = Date()
        try waitUntil("a pull after the install", timeout: .seconds(10)) {
            (statusDate(try daemon.pullStatus()["lastPull"]) ?? .distantPast) > installed.addingTimeInterval(0.3)
        }
        // The first release's links are made before its swap, `..data` pointing at an empty folder meanwhile: the
        // whole release is the swap's one batch, as for every later release.
        #expect(subscriber.reloads == 1, "\(subscriber.stdout.text)")
        #expect(subscriber.errorEvents.isEmpty, "\(subscriber.errorEvents)")
        #expect(try daemon.germanGreeting().contains("Hallo!"))
        _ = subscriber.terminate()
        #expect(try daemon.terminate() == 0)
    }

    @Test func sigtermDuringAPullInstallsNothingAndStopsAtOnce() throws {
        let (fixture, origin, daemon, first) = try Self.pullingFromFaultOrigin()
        // The next release's files stall mid-body: the pull hangs in its download (the idle timeout is 10 s).
        try origin.setFault(.stall, for: "/files/")
        let second = try fixture.publishChange()
        // A pull takes milliseconds here and the interval is 0.2 s: one still running a second after the last
        // ended is inside the stalled request.
        try waitUntil("a pull stuck in the stalled download", timeout: .seconds(10)) {
            let pull = try daemon.pullStatus()
            guard pull["state"] as? String == "pulling", let last = statusDate(pull["lastPull"]) else { return false }
            return Date().timeIntervalSince(last) > 1
        }
        let stopping = ContinuousClock.now
        let code = try daemon.daemon.terminate(timeout: .seconds(8))
        #expect(code == 0, "\(daemon.daemon.log)")
        #expect(ContinuousClock.now - stopping < .seconds(5), "the stalled request held the shutdown")
        #expect(fixture.currentRelease == first)
        #expect(try fixture.servesExactly(first))
        #expect(!fixture.targetEntries.contains { $0.hasPrefix("..tmp-") || $0 == "..r-\(second)" },
                "\(fixture.targetEntries)")
    }
}
