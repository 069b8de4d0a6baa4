import Foundation
import HotStringsTestSupport
import LinuxSystem
import Testing
@testable import BundleWatcher

/// Symlink swaps, lost events, a vanished root and oversized files, on real inotify.
@Suite struct WatcherRecoveryTests {
    /// A Kubernetes ConfigMap volume mounted as a language folder: the tables are symlinks through `..data`,
    /// which points at a timestamped folder. The kubelet updates it by writing a new timestamped folder,
    /// pointing `..data_tmp` at it, renaming `..data_tmp` over `..data`, and deleting the old folder.
    @Test func configMapSymlinkSwapReportsTheNewContent() throws {
        let first = "..2026_03_01_12_00_00.000000001"
        var files = TestBundle.standardFiles
        files["en.lproj/Localizable.strings"] = nil
        files["en.lproj/InfoPlist.strings"] = nil
        files["en.lproj/\(first)/Localizable.strings"] = stringsText(["greeting": "Hello"])
        files["en.lproj/\(first)/InfoPlist.strings"] = stringsText(["CFBundleName": "App"])
        let bundle = try TestBundle(files)
        let folder = bundle.path("en.lproj")
        try FileSystem.makeSymbolicLink(atPath: folder + "/..data", pointingTo: first)
        for table in ["Localizable", "InfoPlist"] {
            try FileSystem.makeSymbolicLink(
                atPath: folder + "/\(table).strings", pointingTo: "..data/\(table).strings"
            )
        }
        let session = try WatchSession(bundle)
        #expect(session.initial.seen["en.lproj/Localizable.strings"] == .parsed(["greeting": "Hello"]))
        #expect(session.initial.seen.keys.filter { $0.hasPrefix("en.lproj/") }.count == 2, "only the two tables")

        func update(from old: String, to new: String, greeting: String) throws {
            let start = session.log.count
            try FileSystem.makeDirectory(atPath: folder + "/" + new)
            try writeText(stringsText(["greeting": greeting]), toPath: "\(folder)/\(new)/Localizable.strings")
            try writeText(stringsText(["CFBundleName": "App"]), toPath: "\(folder)/\(new)/InfoPlist.strings")
            try FileSystem.makeSymbolicLink(atPath: folder + "/..data_tmp", pointingTo: new)
            try FileSystem.rename(folder + "/..data_tmp", to: folder + "/..data")
            try FileSystem.removeRecursively(atPath: folder + "/" + old)
            try session.waitFor("en.lproj/Localizable.strings", .parsed(["greeting": greeting]), from: start)
        }
        let second = "..2026_03_01_12_05_00.000000002"
        try update(from: first, to: second, greeting: "Hi")
        try update(from: second, to: "..2026_03_01_12_10_00.000000003", greeting: "Hey")
        try session.flush(in: "de.lproj")
        let tables = session.log.tables
        #expect(tables["en.lproj/Localizable.strings"] == .parsed(["greeting": "Hey"]))
        #expect(tables["en.lproj/InfoPlist.strings"] == .parsed(["CFBundleName": "App"]))
        #expect(tables.keys.filter { $0.hasPrefix("en.lproj/") }.count == 2, "no table appeared or vanished")
        let englishChanges = session.log.effectiveChanges(in: 1..<session.log.count).filter { $0.path.hasPrefix("en.") }
        #expect(englishChanges.map(\.seen) == [.parsed(["greeting": "Hi"]), .parsed(["greeting": "Hey"])])
    }

    /// Provoked for real: with reading paused, many more events than the kernel's queue holds.
    @Test func queueOverflowRescansTheWholeBundle() throws {
        let session = try WatchSession()
        let bundle = session.bundle
        let limitText = try String(contentsOfFile: "/proc/sys/fs/inotify/max_queued_events", encoding: .utf8)
        let limit = try #require(Int(limitText.trimmingCharacters(in: .whitespacesAndNewlines)))
        let start = session.log.count
        session.watcher.pauseReading()
        // Each file costs CREATE, CLOSE_WRITE and DELETE.
        let junk = bundle.path("de.lproj/Junk.strings")
        for _ in 0..<(limit / 2 + 100) {
            try FileSystem.writeFile([], toPath: junk)
            try FileSystem.removeFile(atPath: junk)
        }
        var expected = session.initial.seen
        for index in 0..<50 {
            let entries = ["index": String(index)]
            try bundle.create("de.lproj/Kept\(index).strings", stringsText(entries))
            expected["de.lproj/Kept\(index).strings"] = .parsed(entries)
        }
        try bundle.save("en.lproj/Localizable.strings", stringsText(["greeting": "Overflowed"]))
        expected["en.lproj/Localizable.strings"] = .parsed(["greeting": "Overflowed"])
        try bundle.remove("en.lproj/InfoPlist.strings")
        expected["en.lproj/InfoPlist.strings"] = nil
        try session.watcher.resumeReading()

        let index = try session.log.waitForBatch(from: start, "the overflow's rescan") { $0.resync == .overflow }
        let batch = session.log.all[index]
        #expect(batch.isFullScan)
        #expect(batch.seen == expected)
        #expect(session.log.effectiveChanges(in: start..<index).isEmpty, "nothing reported before the rescan")
        // Watching goes on.
        let later = session.log.count
        try bundle.save("de.lproj/Kept0.strings", stringsText(["index": "again"]))
        try session.waitFor("de.lproj/Kept0.strings", .parsed(["index": "again"]), from: later)
    }

    enum Restore: String, CaseIterable {
        /// A complete bundle renamed into place: the restored scan sees it all.
        case rename
        /// `mkdir` of the root, then folders and files written into it.
        case mkdirAndFill
    }

    @Test(arguments: Restore.allCases)
    func rootRemovedKeepsTablesAndRestoredRootIsRescanned(how: Restore) throws {
        // Deletions inside the root must not settle before the root's own deletion is seen: a long settle time
        // costs nothing here, since no step waits for it.
        let session = try WatchSession(settleTime: .seconds(1))
        let bundle = session.bundle
        let start = session.log.count
        try ProcessRun.checkedTool("/bin/rm", ["-rf", bundle.root])
        let removed = try session.log.waitForBatch(from: start, "root-removed") { $0.resync == .rootRemoved }
        #expect(session.log.all[removed].updates.isEmpty)
        #expect(!session.log.all[removed].isFullScan)
        #expect(session.log.effectiveChanges(in: start..<(removed + 1)).isEmpty, "the last good tables stay")
        try waitUntil("the root reported absent", timeout: waitLimit) { !session.watcher.status.isRootPresent }

        let files = [
            "en.lproj/Localizable.strings": stringsText(["greeting": "Welcome back"]),
            "fr.lproj/Localizable.strings": stringsText(["greeting": "Rebonjour"]),
        ]
        let expected: [String: Seen] = [
            "en.lproj/Localizable.strings": .parsed(["greeting": "Welcome back"]),
            "fr.lproj/Localizable.strings": .parsed(["greeting": "Rebonjour"]),
        ]
        switch how {
        case .rename:
            let staging = try TestBundle(files)
            try FileSystem.rename(staging.root, to: bundle.root)
        case .mkdirAndFill:
            try FileSystem.makeDirectory(atPath: bundle.root)
            for (path, text) in files { try bundle.create(path, text) }
        }
        let restored = try session.log.waitForBatch(from: removed, "root-restored") { $0.resync == .rootRestored }
        #expect(session.log.all[restored].isFullScan)
        if how == .rename { #expect(session.log.all[restored].seen == expected) }
        try session.log.waitForTables("the restored tables") { $0 == expected }
        try waitUntil("watches on the root and its two folders", timeout: waitLimit) {
            session.watcher.status.isRootPresent && session.watcher.status.watchedDirectories == 3
        }
        let later = session.log.count
        try bundle.save("fr.lproj/Localizable.strings", stringsText(["greeting": "Salut"]))
        try session.waitFor("fr.lproj/Localizable.strings", .parsed(["greeting": "Salut"]), from: later)
    }

    /// The watcher learns of the root's return only after the root has gone again: its rescan cannot watch the
    /// root. It must say the root is still gone (no empty full scan) and keep waiting for it.
    @Test func rootBackAndGoneAgainBeforeItsRescanIsStillAwaited() throws {
        let session = try WatchSession(settleTime: .seconds(1))
        let bundle = session.bundle
        try FileSystem.removeRecursively(atPath: bundle.root)
        let removed = try session.log.waitForBatch(from: 0, "root-removed") { $0.resync == .rootRemoved }
        session.watcher.pauseReading()
        try FileSystem.makeDirectory(atPath: bundle.root)
        try FileSystem.removeDirectory(atPath: bundle.root)
        try session.watcher.resumeReading()
        let again = try session.log.waitForBatch(from: removed + 1, "root-removed again") { $0.resync != nil }
        #expect(session.log.all[again].resync == .rootRemoved)
        #expect(!session.log.all[again].isFullScan && session.log.all[again].updates.isEmpty)

        try FileSystem.makeDirectory(atPath: bundle.root)
        try bundle.create("en.lproj/Localizable.strings", stringsText(["greeting": "Third time"]))
        try session.log.waitForBatch(from: again + 1, "root-restored") { $0.resync == .rootRestored }
        try session.log.waitForTables("the restored table") {
            $0 == ["en.lproj/Localizable.strings": .parsed(["greeting": "Third time"])]
        }
    }

    @Test func fileOverTheSizeCapIsAFailureNamingTheCap() throws {
        let session = try WatchSession(TestBundle()) { $0.maximumFileSize = 200 }
        let target = "de.lproj/Localizable.strings"
        let start = session.log.count
        let large = Dictionary(uniqueKeysWithValues: (0..<20).map { ("key\($0)", "value \($0)") })
        try session.bundle.save(target, stringsText(large))
        let problem = try session.log.wait(for: "the size cap failure") { batches in
            batches[start...].lazy.compactMap { $0.seen[target]?.problem }.first
        }
        #expect(problem.file == target)
        #expect(problem.message.contains("200 bytes"), "\(problem)")
        let later = session.log.count
        try session.bundle.save(target, stringsText(["greeting": "Klein"]))
        try session.waitFor(target, .parsed(["greeting": "Klein"]), from: later)
    }
}
