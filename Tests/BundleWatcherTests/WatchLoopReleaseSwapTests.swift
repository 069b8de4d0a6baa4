import BundleChanges
import LinuxSystem
import Testing
@testable import BundleWatcher

/// The over-the-air install's order for a release that drops a language, driven step by step through the watch
/// loop with a fake clock, so that the race with the watcher is the same on every run: `..data` swapped to a
/// release without `de`, and the `de.lproj` link removed before the loop reads the swap's events, while it reads
/// the swap's batch (the order that made a second reload in the daemon), or after the batch.
@Suite struct WatchLoopReleaseSwapTests {
    enum UnlinkMoment: CaseIterable {
        case beforeTheEventsAreRead, whileTheBatchIsRead, afterTheBatch
    }

    @Test(arguments: UnlinkMoment.allCases)
    func aDroppedLanguageIsInTheSwapsBatchAndNothingFollows(_ moment: UnlinkMoment) throws {
        let bundle = try TestBundle([
            "rel1/en.lproj/Localizable.strings": stringsText(["greeting": "Hello"]),
            "rel1/de.lproj/Localizable.strings": stringsText(["greeting": "Hallo"]),
            "rel2/en.lproj/Localizable.strings": stringsText(["greeting": "Hi"]),
        ])
        try FileSystem.makeSymbolicLink(atPath: bundle.path("..data"), pointingTo: "rel1")
        for language in ["en", "de"] {
            try FileSystem.makeSymbolicLink(atPath: bundle.path("\(language).lproj"),
                                            pointingTo: "..data/\(language).lproj")
        }
        let inotify = try Inotify()
        // A settle time far beyond the batch window: a removal left to settle would be a batch of its own.
        let timing = SettleTiming(batchWindow: .milliseconds(1), settleTime: .seconds(1), maximumDelay: .seconds(1))
        let loop = WatchLoop(
            root: bundle.root, inotify: inotify,
            reader: TableReader(root: bundle.root, maximumFileSize: 1 << 20, parallelThreshold: 1_000,
                                followsExternalSymlinks: false),
            settler: Settler(configuration: timing)
        )
        #expect(loop.start().seen.count == 2)
        func unlinkGerman() throws(SystemError) -> [InotifyEvent] {
            try FileSystem.removeFile(atPath: bundle.path("de.lproj"))
            return try inotify.readEvents()
        }

        let start = ContinuousClock.now
        try FileSystem.makeSymbolicLink(atPath: bundle.path("..data_tmp"), pointingTo: "rel2")
        try FileSystem.rename(bundle.path("..data_tmp"), to: bundle.path("..data"))
        if moment == .beforeTheEventsAreRead { try FileSystem.removeFile(atPath: bundle.path("de.lproj")) }
        loop.handle(try inotify.readEvents(), at: start)
        let batch = loop.takeSettled(at: start + .milliseconds(2)) { () throws(SystemError) in
            moment == .whileTheBatchIsRead ? try unlinkGerman() : try inotify.readEvents()
        }
        let expected: [String: Seen] = [
            "de.lproj/Localizable.strings": .removed,
            "en.lproj/Localizable.strings": .parsed(["greeting": "Hi"]),
        ]
        #expect(batch?.seen == expected, "the whole release in the swap's batch")

        if moment == .afterTheBatch { loop.handle(try unlinkGerman(), at: start + .milliseconds(3)) }
        // Past every settle time: nothing is left to report.
        let later = loop.takeSettled(at: start + .seconds(5)) { () throws(SystemError) in try inotify.readEvents() }
        #expect(later.map { "\($0.seen) \($0.problems)" } == nil, "no second batch")
    }
}
