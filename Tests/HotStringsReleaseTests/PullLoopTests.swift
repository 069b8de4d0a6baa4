import Foundation
import HotStringsRelease
import HotStringsTestSupport
import LinuxSystem
import Synchronization
import Testing

/// The schedule's numbers, and a real loop's announced next pulls growing while the origin fails.
@Suite struct PullScheduleTests {
    @Test func afterPullsThatWorkTheWaitIsNinetyToAHundredPercentOfTheInterval() {
        let schedule = PullSchedule(interval: .seconds(30))
        #expect(schedule.delay(afterFailures: 0, random: 0) == .seconds(27))
        #expect(schedule.delay(afterFailures: 0, random: 1) == .seconds(30))
    }

    @Test func failuresDoubleTheCeilingUpToFiveMinutesAndEachRangeStartsWhereTheLastEnds() {
        let schedule = PullSchedule(interval: .seconds(30))
        let ceilings = (1...6).map { schedule.ceiling(afterFailures: $0) }
        #expect(ceilings == [.seconds(60), .seconds(120), .seconds(240), .seconds(300), .seconds(300), .seconds(300)])
        // Below the cap (240 s → 480 s would pass it) each range starts where the one before ends.
        for failures in 1...2 {
            #expect(schedule.floor(afterFailures: failures + 1) == schedule.ceiling(afterFailures: failures))
        }
        #expect(schedule.floor(afterFailures: 4) == .seconds(150))
        #expect(schedule.delay(afterFailures: 2, random: 0) == .seconds(60))
        #expect(schedule.delay(afterFailures: 2, random: 0.5) == .seconds(90))
        #expect(schedule.delay(afterFailures: 1000, random: 1) == .seconds(300))
    }

    @Test func anIntervalLongerThanTheCapIsItsOwnCap() {
        let schedule = PullSchedule(interval: .seconds(3600))
        #expect(schedule.maximumBackoff == .seconds(3600))
        #expect(schedule.ceiling(afterFailures: 3) == .seconds(3600))
        #expect(schedule.floor(afterFailures: 3) == .seconds(1800))
    }
}

@Suite struct PullLoopTests {
    @Test func theAnnouncedNextPullBacksOffWhileTheOriginFailsAndComesBackAfterRecovery() throws {
        let fixture = try ReleaseFixture()
        try FileSystem.makeDirectory(atPath: fixture.output)
        let origin = try FaultOrigin(root: fixture.output)
        let first = try fixture.publish()
        try origin.setFault(.status500, for: "/manifest.json")
        let schedule = PullSchedule(interval: .milliseconds(100))
        let reports = Mutex<[PullReport]>([])
        let loop = PullLoop(puller: Puller(bundle: fixture.target, options: try fixture.options(origin.url)),
                            schedule: schedule) { report in reports.withLock { $0.append(report) } }
        loop.start()
        defer { loop.stop() }
        try waitUntil("four failed pulls", timeout: .seconds(15)) { reports.withLock { $0.count } >= 4 }
        let failed = reports.withLock { Array($0.prefix(4)) }
        var previous = Duration.zero
        for (index, report) in failed.enumerated() {
            let failures = index + 1
            guard case .failure(let error) = report.result else {
                Issue.record("pull \(failures) did not fail: \(report.result)")
                continue
            }
            #expect("\(error)".contains("HTTP status 500"))
            #expect(report.status.consecutiveFailures == failures)
            #expect(report.isRepeatedFailure == (failures > 1))
            let last = try #require(report.status.lastPull)
            let next = try #require(report.status.nextPull)
            let announced = Duration.milliseconds(Int((next.timeIntervalSince(last) * 1000).rounded()))
            #expect(announced >= schedule.floor(afterFailures: failures) - .milliseconds(1), "pull \(failures)")
            #expect(announced <= schedule.ceiling(afterFailures: failures) + .milliseconds(1), "pull \(failures)")
            #expect(announced >= previous, "the wait shrank at pull \(failures): \(announced) < \(previous)")
            previous = announced
        }
        try origin.setFault(nil, for: "/manifest.json")
        try waitUntil("the recovery", timeout: .seconds(20)) {
            reports.withLock { $0.contains { if case .success = $0.result { true } else { false } } }
        }
        let recovered = try #require(reports.withLock { reports in
            reports.first { if case .success = $0.result { true } else { false } }
        })
        #expect(recovered.status.consecutiveFailures == 0)
        #expect(recovered.status.lastResult == .installed(release: first, previous: nil))
        let last = try #require(recovered.status.lastPull)
        let next = try #require(recovered.status.nextPull)
        #expect(next.timeIntervalSince(last) <= 0.101 && next.timeIntervalSince(last) >= 0.089)
        #expect(fixture.currentRelease == first)
    }

    @Test func stopCancelsAStalledPullAndInstallsNothing() throws {
        let fixture = try ReleaseFixture()
        try FileSystem.makeDirectory(atPath: fixture.output)
        let origin = try FaultOrigin(root: fixture.output)
        let first = try fixture.publish()
        var options = try fixture.options(origin.url)
        options.limits.idleTimeout = .seconds(60)
        options.limits.totalTimeout = .seconds(120)
        let reports = Mutex<[PullReport]>([])
        let loop = PullLoop(puller: Puller(bundle: fixture.target, options: options),
                            schedule: PullSchedule(interval: .milliseconds(100))) { report in
            reports.withLock { $0.append(report) }
        }
        loop.start()
        try waitUntil("the first install", timeout: .seconds(10)) { fixture.currentRelease == first }
        try origin.setFault(.stall, for: "/files/")
        let second = try fixture.publishChange()
        // Pulls take milliseconds here and the interval is 0.1 s: one running a second after the last ended is
        // inside the stalled request.
        try waitUntil("a pull stuck in the stalled download", timeout: .seconds(10)) {
            let status = loop.status
            guard status.isPulling, let last = status.lastPull else { return false }
            return Date().timeIntervalSince(last) > 1
        }
        let reported = reports.withLock { $0.count }
        let stopping = ContinuousClock.now
        loop.stop()
        #expect(ContinuousClock.now - stopping < .seconds(5))
        #expect(reports.withLock { $0.count } == reported, "a cancelled pull is not reported")
        #expect(!loop.status.isPulling && loop.status.nextPull == nil)
        #expect(fixture.currentRelease == first)
        #expect(try fixture.servesExactly(first))
        #expect(!fixture.targetEntries.contains { $0.hasPrefix("..tmp-") || $0 == "..r-\(second)" },
                "\(fixture.targetEntries)")
    }
}
