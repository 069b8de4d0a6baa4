import Foundation
import HotStringsTestSupport
import LinuxSystem
import Testing
@testable import BundleWatcher

/// How tools write one file, each on real inotify: the watcher reports the final content once and never
/// mistakes a tool's temporary name or a brief absence for a table or a deletion.
@Suite struct WatcherSaveTests {
    static let target = "en.lproj/Localizable.strings"
    static let newEntries = ["greeting": "Hi", "farewell": "Bye", "added": "New"]

    /// Asserts that from `start` to a flush, one batch changed the target to the new content, and nothing else
    /// changed: no temporary name, no other table, no removal.
    func expectOneChange(_ session: WatchSession, from start: Int) throws {
        let end = try session.flush()
        #expect(session.log.effectiveChanges(in: start..<end) == [SeenChange(Self.target, .parsed(Self.newEntries))])
    }

    @Test(arguments: [".goutputstream-7XQ2LZ", "Localizable.strings___jb_tmp___", ".Localizable.strings.swp"])
    func editorAtomicSaveIsOneBatchAndTheTemporaryNameIsIgnored(temporaryName: String) throws {
        let session = try WatchSession()
        let start = session.log.count
        let temporary = "en.lproj/" + temporaryName
        try session.bundle.create(temporary, stringsText(Self.newEntries))
        try session.bundle.rename(temporary, to: Self.target)
        try session.waitFor(Self.target, .parsed(Self.newEntries), from: start)
        try expectOneChange(session, from: start)
    }

    @Test func sedInPlaceIsOneBatch() throws {
        let session = try WatchSession()
        let start = session.log.count
        // sed writes ./sedXXXXXX next to the file and renames it over the file.
        try ProcessRun.checkedTool("/bin/sed", [
            "-i", "-e", "s/Hello/Hi/", "-e", "s/Goodbye/Bye/", "-e", "$a\\\n\"added\" = \"New\";",
            session.bundle.path(Self.target),
        ])
        try session.waitFor(Self.target, .parsed(Self.newEntries), from: start)
        try expectOneChange(session, from: start)
    }

    enum Rsync: String, CaseIterable {
        /// What rsync does, done here: a hidden `.<name>.XXXXXX` file renamed over the target.
        case simulated
        /// The real rsync, which writes the same hidden names.
        case real = "rsync -a -c"
        /// The real rsync with `--delay-updates`: files wait in a `.~tmp~` folder, then are renamed into place.
        case delayUpdates = "rsync -a -c --delay-updates"
    }

    @Test(arguments: Rsync.allCases)
    func rsyncHiddenTemporaryNamesAreIgnored(mode: Rsync) throws {
        if mode != .simulated && !isInstalled("/usr/bin/rsync") {
            // Reported to the lead: .ci/run should `apt-get install -y rsync`. (Test.cancel in one case of a
            // parameterized test prints nothing and may cancel its siblings: say so and return.)
            print("skipped: /usr/bin/rsync is not installed")
            return
        }
        let session = try WatchSession()
        let start = session.log.count
        switch mode {
        case .simulated:
            let temporary = "en.lproj/.Localizable.strings.Xa9f3Q"
            try session.bundle.create(temporary, stringsText(Self.newEntries))
            try session.bundle.rename(temporary, to: Self.target)
        case .real, .delayUpdates:
            // A copy of the bundle with one table changed; checksums make rsync send only that one.
            let staging = session.bundle.folder + "/staging"
            try ProcessRun.checkedTool("/bin/cp", ["-a", session.bundle.root, staging])
            try writeText(stringsText(Self.newEntries), toPath: staging + "/" + Self.target)
            let options = mode.rawValue.split(separator: " ").dropFirst().map(String.init)
            try ProcessRun.checkedTool("/usr/bin/rsync", options + [staging + "/", session.bundle.root])
        }
        try session.waitFor(Self.target, .parsed(Self.newEntries), from: start)
        try expectOneChange(session, from: start)
    }

    /// vim with `backupcopy=auto` (a file with one link): probe with a file named 4913, rename the original
    /// to the backup name, write a new file, delete the backup. The file is missing for a moment.
    @Test func vimBackupRenameNeverReportsARemoval() throws {
        let session = try WatchSession()
        let start = session.log.count
        let bundle = session.bundle
        try bundle.create("en.lproj/.Localizable.strings.swp", "swap")
        try bundle.create("en.lproj/4913", "")
        try bundle.remove("en.lproj/4913")
        try bundle.rename(Self.target, to: Self.target + "~")
        try bundle.create(Self.target, stringsText(Self.newEntries))
        try FileSystem.setPermissions(0o644, atPath: bundle.path(Self.target))
        try bundle.remove(Self.target + "~")
        try bundle.remove("en.lproj/.Localizable.strings.swp")
        try session.waitFor(Self.target, .parsed(Self.newEntries), from: start)
        // No removal in between, and neither the backup nor the probe is a table.
        try expectOneChange(session, from: start)
    }

    /// A writer that keeps the file open (only MODIFY, no CLOSE_WRITE): the file is read once it has been
    /// quiet for the settle time; a parse failure is reported and the next good write is read.
    @Test func writerKeepingTheFileOpenIsReadOnceQuiet() throws {
        // A generous settle time, so that a busy machine cannot pause the writer long enough to be read mid-way.
        let session = try WatchSession(settleTime: .milliseconds(150))
        let handle = try #require(FileHandle(forWritingAtPath: session.bundle.path(Self.target)))
        defer { try? handle.close() }
        func rewrite(_ text: String) throws {
            try handle.truncate(atOffset: 0)
            // Chunks that split an entry: a read in between would fail to parse.
            let bytes = Data(text.utf8)
            for offset in stride(from: 0, to: bytes.count, by: 7) {
                try handle.write(contentsOf: bytes[offset..<min(offset + 7, bytes.count)])
            }
        }

        var start = session.log.count
        try rewrite(stringsText(Self.newEntries))
        try session.waitFor(Self.target, .parsed(Self.newEntries), from: start)
        var end = try session.flush()
        #expect(session.log.effectiveChanges(in: start..<end) == [SeenChange(Self.target, .parsed(Self.newEntries))])

        start = session.log.count
        try rewrite("\"greeting\" = \"Hi\"\n\"farewell\" = \"Bye\";\n")
        let failed = try session.log.wait(for: "the parse failure") { batches in
            batches[start...].lazy.compactMap { $0.seen[Self.target]?.problem }.first
        }
        #expect(failed.file == Self.target)
        #expect(failed.line == 2 && failed.column == 1, "\(failed)")

        start = session.log.count
        let fixed = ["greeting": "Hi", "farewell": "Bye"]
        try rewrite(stringsText(fixed))
        try session.waitFor(Self.target, .parsed(fixed), from: start)
        end = try session.flush()
        #expect(session.log.effectiveChanges(in: start..<end) == [SeenChange(Self.target, .parsed(fixed))])
    }

    enum Checkout: String, CaseIterable {
        /// What git does to a changed file, done here: unlink, then create it anew and write it.
        case simulated
        /// The real `git checkout` of a branch where the file differs.
        case real
    }

    @Test(arguments: Checkout.allCases)
    func gitCheckoutDeleteAndRecreateIsNoRemoval(mode: Checkout) throws {
        let bundle = try TestBundle()
        if mode == .real {
            guard isInstalled("/usr/bin/git") else {
                print("skipped: /usr/bin/git is not installed")
                return
            }
            let git = ["-c", "user.name=test", "-c", "user.email=test@example.com"]
            try ProcessRun.checkedTool("/usr/bin/git", ["init", "-q", "-b", "main"], in: bundle.root)
            try ProcessRun.checkedTool("/usr/bin/git", git + ["add", "."], in: bundle.root)
            try ProcessRun.checkedTool("/usr/bin/git", git + ["commit", "-q", "-m", "old"], in: bundle.root)
            try ProcessRun.checkedTool("/usr/bin/git", ["checkout", "-q", "-b", "new"], in: bundle.root)
            try bundle.create(Self.target, stringsText(Self.newEntries))
            try ProcessRun.checkedTool("/usr/bin/git", git + ["commit", "-q", "-a", "-m", "new"], in: bundle.root)
            try ProcessRun.checkedTool("/usr/bin/git", ["checkout", "-q", "main"], in: bundle.root)
        }
        let session = try WatchSession(bundle)
        let start = session.log.count
        switch mode {
        case .simulated:
            try bundle.remove(Self.target)
            try bundle.create(Self.target, stringsText(Self.newEntries))
        case .real:
            try ProcessRun.checkedTool("/usr/bin/git", ["checkout", "-q", "new"], in: bundle.root)
        }
        try session.waitFor(Self.target, .parsed(Self.newEntries), from: start)
        try expectOneChange(session, from: start)
    }
}
