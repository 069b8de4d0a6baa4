import Foundation
import HotStringsTestSupport
import LinuxSystem
import Testing
@testable import BundleWatcher

/// Releases swapped by a link in the bundle's root, as deployment tools and the over-the-air install do it:
/// `en.lproj -> ..data/en.lproj`, `..data -> rel1`, and a swap renames a new link over `..data`. The old release
/// may stay on disk (git-sync, rollback), so no watched directory changes: the watcher must notice the link.
@Suite struct WatcherLinkSwapTests {
    /// A bundle whose `en` and `de` folders are links through `..data` into release folders, plus a real `fr`
    /// folder (for `flush`, which must not go through the links under test).
    final class ReleaseBundle {
        let bundle: TestBundle
        let session: WatchSession

        init(releases: [String: [String: [String: String]]], current: String,
             settleTime: Duration = .milliseconds(30)) throws {
            var files: [String: String] = ["fr.lproj/Localizable.strings": stringsText(["greeting": "Bonjour"])]
            for (release, tables) in releases {
                for (path, entries) in tables { files["\(release)/\(path)"] = stringsText(entries) }
            }
            bundle = try TestBundle(files)
            try FileSystem.makeSymbolicLink(atPath: bundle.path("..data"), pointingTo: current)
            for language in ["en", "de"] {
                try FileSystem.makeSymbolicLink(
                    atPath: bundle.path("\(language).lproj"), pointingTo: "..data/\(language).lproj"
                )
            }
            session = try WatchSession(bundle, settleTime: settleTime)
        }

        /// Points `..data` at `release` atomically: a new link beside it, renamed over it (`mv -T`).
        func swap(to release: String) throws {
            try? FileSystem.removeFile(atPath: bundle.path("..data_tmp"))
            try FileSystem.makeSymbolicLink(atPath: bundle.path("..data_tmp"), pointingTo: release)
            try FileSystem.rename(bundle.path("..data_tmp"), to: bundle.path("..data"))
        }

        /// The changes that made a difference since batch `start`, leaving out `flush`'s sentinels.
        func changes(since start: Int) throws -> [SeenChange] {
            try session.flush(in: "fr.lproj")
            return session.log.effectiveChanges(in: start..<session.log.count).filter { !$0.path.contains("Sentinel") }
        }
    }

    static let first: [String: [String: String]] = [
        "en.lproj/Localizable.strings": ["greeting": "Hello"],
        "de.lproj/Localizable.strings": ["greeting": "Hallo"],
    ]
    static let second: [String: [String: String]] = [
        "en.lproj/Localizable.strings": ["greeting": "Hi"],
        "de.lproj/Localizable.strings": ["greeting": "Servus"],
    ]

    @Test func swapWithTheOldReleaseKeptIsOneBatchAndSwappingBackIsTheReverse() throws {
        let release = try ReleaseBundle(releases: ["rel1": Self.first, "rel2": Self.second], current: "rel1")
        let log = release.session.log
        #expect(release.session.initial.seen["en.lproj/Localizable.strings"] == .parsed(["greeting": "Hello"]))

        var start = log.count
        try release.swap(to: "rel2")
        let index = try release.session.waitFor("en.lproj/Localizable.strings", .parsed(["greeting": "Hi"]), from: start)
        #expect(log.all[index].seen["de.lproj/Localizable.strings"] == .parsed(["greeting": "Servus"]),
                "both languages of the release in the same batch")
        #expect(try release.changes(since: start) == [
            SeenChange("de.lproj/Localizable.strings", .parsed(["greeting": "Servus"])),
            SeenChange("en.lproj/Localizable.strings", .parsed(["greeting": "Hi"])),
        ])
        #expect(FileManager.default.fileExists(atPath: release.bundle.path("rel1")), "the old release is still there")

        start = log.count
        try release.swap(to: "rel1")
        try release.session.waitFor("en.lproj/Localizable.strings", .parsed(["greeting": "Hello"]), from: start)
        #expect(try release.changes(since: start) == [
            SeenChange("de.lproj/Localizable.strings", .parsed(["greeting": "Hallo"])),
            SeenChange("en.lproj/Localizable.strings", .parsed(["greeting": "Hello"])),
        ])

        // The watch follows the link: a later edit inside the current release is seen.
        start = log.count
        try release.bundle.save("rel1/de.lproj/Localizable.strings", stringsText(["greeting": "Grüß Gott"]))
        try release.session.waitFor("de.lproj/Localizable.strings", .parsed(["greeting": "Grüß Gott"]), from: start)
    }

    /// The Kubernetes order: swap, then delete the old release. Edits after the swap land in the new release and
    /// must be seen (the watch must not stay on the deleted directory).
    @Test func editsInTheNewReleaseAreSeenAfterTheOldOneIsDeleted() throws {
        let release = try ReleaseBundle(releases: ["..2026_12_02_10_00_01": Self.first,
                                                   "..2026_12_02_10_05_00": Self.second],
                                        current: "..2026_12_02_10_00_01")
        var start = release.session.log.count
        try release.swap(to: "..2026_12_02_10_05_00")
        try release.bundle.remove("..2026_12_02_10_00_01")
        try release.session.waitFor("en.lproj/Localizable.strings", .parsed(["greeting": "Hi"]), from: start)
        start = release.session.log.count
        try release.bundle.save("..2026_12_02_10_05_00/en.lproj/Localizable.strings",
                                stringsText(["greeting": "Howdy"]))
        try release.session.waitFor("en.lproj/Localizable.strings", .parsed(["greeting": "Howdy"]), from: start)
    }

    @Test func swapToAByteIdenticalReleaseChangesNothing() throws {
        let release = try ReleaseBundle(releases: ["rel1": Self.first, "rel2": Self.first], current: "rel1")
        let start = release.session.log.count
        try release.swap(to: "rel2")
        // The swap is read (the re-read shows up as a batch), but no table's content differs.
        try release.session.log.waitForBatch(from: start, "the re-read of the swapped release") {
            $0.seen["en.lproj/Localizable.strings"] != nil
        }
        #expect(try release.changes(since: start) == [])
        // And the watch is on the new release now.
        let edit = release.session.log.count
        try release.bundle.save("rel2/en.lproj/Localizable.strings", stringsText(["greeting": "Yo"]))
        try release.session.waitFor("en.lproj/Localizable.strings", .parsed(["greeting": "Yo"]), from: edit)
    }

    @Test func aLanguageTheNewReleaseLacksIsDeleted() throws {
        let onlyEnglish = ["en.lproj/Localizable.strings": ["greeting": "Hi"]]
        let release = try ReleaseBundle(releases: ["rel1": Self.first, "rel2": onlyEnglish], current: "rel1")
        let start = release.session.log.count
        try release.swap(to: "rel2")
        let index = try release.session.waitFor("de.lproj/Localizable.strings", .removed, from: start)
        // The removal comes in the swap's batch, with the new text: the swap is one reload.
        #expect(release.session.log.all[index].seen["en.lproj/Localizable.strings"] == .parsed(["greeting": "Hi"]))
        #expect(try release.changes(since: start).sorted { $0.path < $1.path } == [
            SeenChange("de.lproj/Localizable.strings", .removed),
            SeenChange("en.lproj/Localizable.strings", .parsed(["greeting": "Hi"])),
        ])
        // Swapping back brings the language back.
        let back = release.session.log.count
        try release.swap(to: "rel1")
        try release.session.waitFor("de.lproj/Localizable.strings", .parsed(["greeting": "Hallo"]), from: back)
    }

    /// The over-the-air install's order for a release that adds `it` and drops `de`: the `it.lproj` link made
    /// first (leading nowhere yet), the `..data` swap, then the `de.lproj` link removed. One batch holds all of it,
    /// whatever the settle time: a folder that a swap made lead nowhere is gone for sure, not an editor's
    /// delete-and-recreate to wait out, and the unlink that follows must not put its removal off.
    @Test func anInstallThatAddsAndDropsALanguageIsOneBatch() throws {
        let next = [
            "en.lproj/Localizable.strings": ["greeting": "Hi"],
            "it.lproj/Localizable.strings": ["greeting": "Ciao"],
        ]
        // A settle time far longer than the batch window: a removal left to settle would come in a batch of its own.
        let release = try ReleaseBundle(releases: ["rel1": Self.first, "rel2": next], current: "rel1",
                                        settleTime: .seconds(1))
        let log = release.session.log
        let start = log.count
        try FileSystem.makeSymbolicLink(atPath: release.bundle.path("it.lproj"), pointingTo: "..data/it.lproj")
        try release.swap(to: "rel2")
        try FileSystem.removeFile(atPath: release.bundle.path("de.lproj"))
        let index = try release.session.waitFor("it.lproj/Localizable.strings", .parsed(["greeting": "Ciao"]),
                                                from: start)
        #expect(log.all[index].seen == [
            "de.lproj/Localizable.strings": .removed,
            "en.lproj/Localizable.strings": .parsed(["greeting": "Hi"]),
            "it.lproj/Localizable.strings": .parsed(["greeting": "Ciao"]),
        ], "the whole release in the swap's batch")
        #expect(try release.changes(since: start).sorted { $0.path < $1.path } == [
            SeenChange("de.lproj/Localizable.strings", .removed),
            SeenChange("en.lproj/Localizable.strings", .parsed(["greeting": "Hi"])),
            SeenChange("it.lproj/Localizable.strings", .parsed(["greeting": "Ciao"])),
        ], "and nothing after it")
    }

    @Test func aSwapToATargetNotThereYetKeepsTheTablesAndRecoversWhenItAppears() throws {
        let release = try ReleaseBundle(releases: ["rel1": Self.first], current: "rel1")
        let log = release.session.log
        let start = log.count
        try release.swap(to: "rel2")
        let index = try log.waitForBatch(from: start, "an error naming the link") { batch in
            batch.problems.contains { $0.file == "..data" && $0.message.contains("'rel2'") }
        }
        #expect(log.all[index].problems.count == 1, "one error, for the link, not one per folder")
        let changes = try release.changes(since: start)
        #expect(changes == [], "the last good tables stay")

        // The release appears whole (built beside it, renamed into place).
        let appeared = log.count
        for (path, entries) in Self.second {
            try release.bundle.create("staging/\(path)", stringsText(entries))
        }
        try release.bundle.rename("staging", to: "rel2")
        try release.session.waitFor("en.lproj/Localizable.strings", .parsed(["greeting": "Hi"]), from: appeared)
        try release.session.waitFor("de.lproj/Localizable.strings", .parsed(["greeting": "Servus"]), from: appeared)
    }

    /// A language folder that is itself the link being swapped (`mv -T en.new en.lproj`).
    @Test func aSwappedFolderLinkIsWatchedWhereItNowLeads() throws {
        let release = try ReleaseBundle(releases: ["rel1": Self.first, "rel2": Self.second], current: "rel1")
        let start = release.session.log.count
        try FileSystem.makeSymbolicLink(atPath: release.bundle.path("en.new"), pointingTo: "rel2/en.lproj")
        try FileSystem.rename(release.bundle.path("en.new"), to: release.bundle.path("en.lproj"))
        try release.session.waitFor("en.lproj/Localizable.strings", .parsed(["greeting": "Hi"]), from: start)
        let edit = release.session.log.count
        try release.bundle.save("rel2/en.lproj/Localizable.strings", stringsText(["greeting": "Hey"]))
        try release.session.waitFor("en.lproj/Localizable.strings", .parsed(["greeting": "Hey"]), from: edit)
    }

    /// A release of 300 files (three languages, 100 tables each) is one batch.
    @Test func aReleaseOfThreeHundredFilesIsOneBatch() throws {
        func release(_ greeting: String) -> [String: [String: String]] {
            var tables: [String: [String: String]] = [:]
            for language in ["en", "de", "es"] {
                for table in 0..<100 { tables["\(language).lproj/T\(table).strings"] = ["greeting": "\(greeting) \(table)"] }
            }
            return tables
        }
        let bundle = try ReleaseBundle(releases: ["rel1": release("a"), "rel2": release("b")], current: "rel1")
        try FileSystem.makeSymbolicLink(atPath: bundle.bundle.path("es.lproj"), pointingTo: "..data/es.lproj")
        let log = bundle.session.log
        try log.waitForTables("es.lproj found") { $0["es.lproj/T0.strings"] == .parsed(["greeting": "a 0"]) }
        let start = log.count
        try bundle.swap(to: "rel2")
        let index = try log.waitForBatch(from: start, "the swap") { $0.seen["en.lproj/T0.strings"] != nil }
        let changed = log.all[index].updates.filter { !$0.file.hasPrefix("fr.") }
        #expect(changed.count == 300)
        #expect(try bundle.changes(since: start).count == 300, "no second batch with more of the release")
    }
}
