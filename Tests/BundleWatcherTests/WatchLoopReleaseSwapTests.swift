import BundleChanges
import LinuxSystem
import Testing
@testable import BundleWatcher

/// Release swaps driven step by step through the watch loop with a fake clock, so that each race with the watcher
/// (the ones that made a second reload in the daemon) is the same on every run.
@Suite struct WatchLoopReleaseSwapTests {
    enum UnlinkMoment: CaseIterable {
        case beforeTheEventsAreRead, whileTheBatchIsRead, afterTheBatch
    }

    /// A watch loop on `bundle`, not started, with a batch window of 1 ms and a settle time of 1 s; and its inotify
    /// instance, which the test reads itself.
    static func loop(on bundle: TestBundle) throws -> (WatchLoop, Inotify) {
        let inotify = try Inotify()
        let timing = SettleTiming(batchWindow: .milliseconds(1), settleTime: .seconds(1), maximumDelay: .seconds(1))
        let reader = TableReader(root: bundle.root, maximumFileSize: 1 << 20, parallelThreshold: 1_000,
                                 followsExternalSymlinks: false)
        return (WatchLoop(root: bundle.root, inotify: inotify, reader: reader, settler: Settler(configuration: timing)),
                inotify)
    }

    /// The over-the-air install's order for a release that drops a language: `..data` swapped to a release without
    /// `de`, and the `de.lproj` link removed before the loop reads the swap's events, while it reads the swap's
    /// batch, or after the batch.
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
        // A settle time far beyond the batch window: a removal left to settle would be a batch of its own.
        let (loop, inotify) = try Self.loop(on: bundle)
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
        // The loop asks for queued events before it takes the batch and again once it has read it.
        var asked = 0
        let batch = loop.takeSettled(at: start + .milliseconds(2)) { () throws(SystemError) in
            asked += 1
            return moment == .whileTheBatchIsRead && asked == 2 ? try unlinkGerman() : try inotify.readEvents()
        }
        #expect(asked == 2)
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

    /// A step of the install that the loop has not handled yet when the swap's batch is due: the loop saw the swap
    /// (a slow re-resolution stats the folders after the install went on), and the event of a link made meanwhile
    /// (here after the swap, as the first release's links are) is still queued. It joins the swap's batch.
    @Test func eventsQueuedWhenTheBatchIsDueJoinIt() throws {
        let bundle = try TestBundle([
            "rel1/en.lproj/Localizable.strings": stringsText(["greeting": "Hello"]),
            "rel2/en.lproj/Localizable.strings": stringsText(["greeting": "Hi"]),
            "rel2/it.lproj/Localizable.strings": stringsText(["greeting": "Ciao"]),
        ])
        try FileSystem.makeSymbolicLink(atPath: bundle.path("..data"), pointingTo: "rel1")
        try FileSystem.makeSymbolicLink(atPath: bundle.path("en.lproj"), pointingTo: "..data/en.lproj")
        let (loop, inotify) = try Self.loop(on: bundle)
        #expect(loop.start().seen.count == 1)

        let start = ContinuousClock.now
        try FileSystem.makeSymbolicLink(atPath: bundle.path("..data_tmp"), pointingTo: "rel2")
        try FileSystem.rename(bundle.path("..data_tmp"), to: bundle.path("..data"))
        loop.handle(try inotify.readEvents(), at: start)
        try FileSystem.makeSymbolicLink(atPath: bundle.path("it.lproj"), pointingTo: "..data/it.lproj")
        // The swap's batch is due; the loop finds the link's event queued and takes the batch once it is quiet.
        var batches: [ChangeBatch] = []
        for step in 2...6 {
            let batch = loop.takeSettled(at: start + .milliseconds(step)) { () throws(SystemError) in
                try inotify.readEvents()
            }
            if let batch { batches.append(batch) }
        }
        let expected: [String: Seen] = [
            "en.lproj/Localizable.strings": .parsed(["greeting": "Hi"]),
            "it.lproj/Localizable.strings": .parsed(["greeting": "Ciao"]),
        ]
        #expect(batches.map(\.seen) == [expected], "one batch for the release")
    }
}
