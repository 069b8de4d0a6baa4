import BundleChanges
import HotStringsTestSupport
import LinuxSystem
import StringsFormat
import Testing
@testable import BundleWatcher

/// Language folders appearing, moving and vanishing, on real inotify.
@Suite struct WatcherTreeTests {
    static let french = [
        "fr.lproj/Localizable.strings": stringsText(["greeting": "Bonjour", "farewell": "Au revoir"]),
        "fr.lproj/InfoPlist.strings": stringsText(["CFBundleName": "Appli"]),
    ]
    static let frenchSeen: [String: Seen] = [
        "fr.lproj/Localizable.strings": .parsed(["greeting": "Bonjour", "farewell": "Au revoir"]),
        "fr.lproj/InfoPlist.strings": .parsed(["CFBundleName": "Appli"]),
    ]

    /// A folder's name becomes a language once, where the watcher finds it: `German.lproj` holds tables of `de`,
    /// and a `.lproj` folder whose name is no language tag is reported there, once, and never read.
    @Test func aFolderIsResolvedToItsLanguageWhereItIsFound() throws {
        // No `de.lproj` beside it: two folders of one language are a clash (see `WatcherLanguageClashTests`).
        var files = TestBundle.standardFiles.filter { !$0.key.hasPrefix("de.lproj/") }
        files["Not a tag!.lproj/Localizable.strings"] = stringsText(["x": "y"])
        files["German.lproj/Extra.strings"] = stringsText(["k": "v"])
        let session = try WatchSession(TestBundle(files))
        let problems = session.initial.problems.filter { $0.file == "Not a tag!.lproj" }
        #expect(problems.count == 1, "\(session.initial.problems)")
        #expect(problems.first?.message.contains("is not a language tag") == true)
        #expect(!session.initial.updates.contains { $0.file.hasPrefix("Not a tag!") })
        let extra = try #require(session.initial.updates.first { $0.file == "German.lproj/Extra.strings" })
        #expect(extra.id == TableID(language: try #require(LanguageTag("de")), table: "Extra"))

        let start = session.log.count
        try session.bundle.save("Not a tag!.lproj/Localizable.strings", stringsText(["x": "z"]))
        try session.bundle.save("German.lproj/Extra.strings", stringsText(["k": "w"]))
        try session.waitFor("German.lproj/Extra.strings", .parsed(["k": "w"]), from: start)
        try session.flush()
        let later = session.log.all[start...]
        #expect(!later.contains { batch in
            batch.updates.contains { $0.file.hasPrefix("Not a tag!") }
                || batch.problems.contains { $0.file.hasPrefix("Not a tag!") }
        })
    }

    enum NewFolder: String, CaseIterable {
        /// `mkdir` and files written at once, before the watcher can have added its watch.
        case mkdirAndFill
        /// The real `cp -r` of a folder from outside the bundle.
        case copy
    }

    @Test(arguments: NewFolder.allCases)
    func newFolderFilledAtOnceLosesNoFile(how: NewFolder) throws {
        // Files found in a new folder wait to be quiet: long enough that a busy machine cannot pause a writer
        // between its open and its write for that long.
        let session = try WatchSession(settleTime: .milliseconds(200))
        let bundle = session.bundle
        let start = session.log.count
        switch how {
        case .mkdirAndFill:
            try FileSystem.makeDirectory(atPath: bundle.path("fr.lproj"))
            for (path, text) in Self.french { try bundle.create(path, text) }
        case .copy:
            let outside = bundle.folder + "/fr.lproj"
            try FileSystem.makeDirectory(atPath: outside)
            for (path, text) in Self.french { try writeText(text, toPath: bundle.folder + "/" + path) }
            try ProcessRun.checkedTool("/bin/cp", ["-r", outside, bundle.root])
        }
        try session.log.waitForTables("both French tables") { tables in
            Self.frenchSeen.allSatisfy { tables[$0.key] == $0.value }
        }
        let end = try session.flush()
        // Only the French tables changed, each once.
        let changes = session.log.effectiveChanges(in: start..<end)
        #expect(changes.sorted { $0.path < $1.path } == Self.frenchSeen.sorted { $0.key < $1.key }.map(SeenChange.init))
        // The new folder is watched: a later save in it is seen.
        let later = session.log.count
        try bundle.save("fr.lproj/InfoPlist.strings", stringsText(["CFBundleName": "Appli 2"]))
        try session.waitFor("fr.lproj/InfoPlist.strings", .parsed(["CFBundleName": "Appli 2"]), from: later)
    }

    @Test func folderMovedInAndOutCreatesAndRemovesItsTables() throws {
        let session = try WatchSession()
        let bundle = session.bundle
        let outside = bundle.folder + "/fr.lproj"
        try FileSystem.makeDirectory(atPath: outside)
        for (path, text) in Self.french { try writeText(text, toPath: bundle.folder + "/" + path) }
        let watchedBefore = session.watcher.status.watchedDirectories

        var start = session.log.count
        try FileSystem.rename(outside, to: bundle.path("fr.lproj"))
        try session.log.waitForTables("the French tables") { tables in
            Self.frenchSeen.allSatisfy { tables[$0.key] == $0.value }
        }
        try waitUntil("a watch on fr.lproj", timeout: waitLimit) {
            session.watcher.status.watchedDirectories == watchedBefore + 1
        }

        start = session.log.count
        try FileSystem.rename(bundle.path("fr.lproj"), to: outside)
        try session.log.waitForBatch(from: start, "the French tables removed") { batch in
            Self.frenchSeen.keys.allSatisfy { batch.seen[$0] == .removed }
        }
        try waitUntil("the watch on fr.lproj dropped", timeout: waitLimit) {
            session.watcher.status.watchedDirectories == watchedBefore
        }
        // Outside the bundle now: a change there is not reported.
        try writeText(stringsText(["greeting": "Salut"]), toPath: outside + "/Localizable.strings")
        let end = try session.flush()
        #expect(session.log.effectiveChanges(in: start..<end) == Self.frenchSeen.keys.sorted().map {
            SeenChange($0, .removed)
        })
    }

    @Test func folderRenamedInsideTheBundleRemovesOldTablesAndCreatesNewOnes() throws {
        let session = try WatchSession()
        let bundle = session.bundle
        let watchedBefore = session.watcher.status.watchedDirectories
        let start = session.log.count
        try bundle.rename("de.lproj", to: "German.lproj")
        try session.log.waitForTables("the tables under their new folder") { tables in
            tables["de.lproj/Localizable.strings"] == nil && tables["de.lproj/InfoPlist.strings"] == nil
                && tables["German.lproj/Localizable.strings"] == .parsed(["greeting": "Hallo", "farewell": "Tschüss"])
                && tables["German.lproj/InfoPlist.strings"] == .parsed(["CFBundleName": "App"])
        }
        let removed = session.log.effectiveChanges(in: start..<session.log.count).filter { $0.seen == .removed }
        #expect(Set(removed.map(\.path)) == ["de.lproj/Localizable.strings", "de.lproj/InfoPlist.strings"])
        try waitUntil("one watch per folder", timeout: waitLimit) {
            session.watcher.status.watchedDirectories == watchedBefore
        }
        // Paths come from the current tree: a change in the renamed folder is reported under its new name.
        let later = session.log.count
        try bundle.save("German.lproj/InfoPlist.strings", stringsText(["CFBundleName": "Anwendung"]))
        try session.waitFor("German.lproj/InfoPlist.strings", .parsed(["CFBundleName": "Anwendung"]), from: later)
    }

    @Test func removingAFolderRecursivelyRemovesItsTablesInOneBatch() throws {
        var files = TestBundle.standardFiles
        for index in 0..<20 { files["de.lproj/Extra\(index).strings"] = stringsText(["key": "\(index)"]) }
        // rm -rf unlinks 22 files, then the folder: allow a slow machine some time between the two.
        let session = try WatchSession(TestBundle(files), settleTime: .milliseconds(100))
        let watchedBefore = session.watcher.status.watchedDirectories
        let start = session.log.count
        try ProcessRun.checkedTool("/bin/rm", ["-rf", session.bundle.path("de.lproj")])
        let batch = try session.log.waitForBatch(from: start, "a removal") { $0.seen.values.contains(.removed) }
        let removed = session.log.all[batch].seen.filter { $0.value == .removed }.keys
        #expect(Set(removed) == Set(files.keys.filter { $0.hasPrefix("de.lproj/") }))
        try waitUntil("the folder's watch dropped", timeout: waitLimit) {
            session.watcher.status.watchedDirectories == watchedBefore - 1
        }
        let end = try session.flush()
        // One batch: every removal is in the one above.
        #expect(session.log.effectiveChanges(in: start..<end).count == removed.count)
        #expect(session.watcher.status.files == 2, "the two English tables")
    }

    @Test func directoryWhereAFileWasIsAFailureNamingTheFile() throws {
        let session = try WatchSession()
        let start = session.log.count
        let target = "en.lproj/Localizable.strings"
        try session.bundle.remove(target)
        try FileSystem.makeDirectory(atPath: session.bundle.path(target))
        let problem = try session.log.wait(for: "a failure for \(target)") { batches in
            batches[start...].lazy.compactMap { $0.seen[target]?.problem }.first
        }
        #expect(problem.file == target)
        #expect(problem.message.contains("directory"), "\(problem)")
        // The failure keeps the table known: replacing the folder by a file again reads it.
        try session.bundle.remove(target)
        let later = session.log.count
        try session.bundle.create(target, stringsText(["greeting": "Back"]))
        try session.waitFor(target, .parsed(["greeting": "Back"]), from: later)
    }
}
