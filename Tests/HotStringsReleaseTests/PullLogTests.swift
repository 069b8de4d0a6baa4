import Foundation
import HotStringsTestSupport
import Testing

/// The daemon's log of failed pulls, as an operator reads it (docs/DEPLOY.md): each failure is one line that names
/// it before the time of the next pull, and the recovery counts the failures in words that agree.
@Suite struct PullLogTests {
    @Test func aFailedPullIsOneLineInOrderAndItsRecoveryCountsInWords() throws {
        // A failure's retry comes after 3 to 6 s: time enough to mend the origin after the first one.
        let (fixture, origin, daemon, _) = try ServePullFaultTests.pullingFromFaultOrigin(interval: "3")
        defer { withExtendedLifetime(fixture) {} }
        try origin.setFault(.status503, for: "/manifest.json")
        try waitUntil("the failed pull's line") { daemon.daemon.log.contains("pull: release not installed: ") }
        try origin.setFault(nil, for: "/manifest.json")
        try waitUntil("the recovery's line") { daemon.daemon.log.contains("pull: the origin works again after ") }
        let lines = daemon.daemon.log.split(separator: "\n").map(String.init)
        let failure = try #require(lines.first { $0.contains("pull: release not installed: ") })
        #expect(failure.hasPrefix("hotstrings: warning: pull: release not installed: "), "\(failure)")
        // The failure, then what stays and when the next pull is: one line, in that order.
        let reason = try #require(failure.range(of: "/manifest.json: HTTP status 503"), "\(failure)")
        let next = try #require(failure.range(of: "; the installed release stays; next pull in "), "\(failure)")
        #expect(reason.upperBound <= next.lowerBound)
        // Said once: the `error` event of the same failure is not logged again, before or after it.
        #expect(lines.filter { $0.contains("HTTP status 503") }.count == 1, "\(lines)")
        let recovery = try #require(lines.first { $0.contains("pull: the origin works again after ") })
        #expect(recovery.hasSuffix(" after 1 failed pull")
            || recovery.wholeMatch(of: /.* after ([2-9]|[1-9][0-9]+) failed pulls/) != nil, "\(recovery)")
        #expect(try daemon.terminate() == 0)
    }
}
