import BundleChanges
import Foundation
import Glibc
import HotStringsTestSupport
import LinuxSystem
import Testing
@testable import BundleWatcher

/// Reads that must never be published: a file read while a newer write had already truncated it.
@Suite struct WatcherIntegrityTests {
    /// A writer rewriting a table in place (open with truncate, write, close) as fast as it can: every published
    /// version is a whole one, and the last one arrives.
    @Test func inPlaceRewritesNeverPublishAHalfWrittenTable() throws {
        let session = try WatchSession()
        let path = "en.lproj/Localizable.strings"
        let keys = (0..<50).map { "key\($0)" }
        func version(_ round: Int) -> [String: String] {
            Dictionary(uniqueKeysWithValues: keys.map { ($0, "round \(round)") })
        }
        let start = session.log.count
        let rounds = 2_000
        for round in 1...rounds {
            try FileSystem.writeFile(Array(stringsText(version(round)).utf8), toPath: session.bundle.path(path))
        }
        try session.waitFor(path, .parsed(version(rounds)), from: start)
        var published = 0
        for batch in session.log.all[start...] {
            guard let seen = batch.seen[path] else { continue }
            published += 1
            guard case .parsed(let entries) = seen else {
                Issue.record("a read that was no whole version was published: \(seen)")
                continue
            }
            #expect(Set(entries.keys) == Set(keys), "a version with \(entries.count) of the \(keys.count) keys was published")
            #expect(Set(entries.values).count == 1, "a version mixing two writes was published")
        }
        #expect(published >= 1)
    }

    /// A writer stopped between its truncate and its write for longer than any quiet time (a loaded machine, a
    /// stopped process): the empty file is never published, which would empty the table for every client; what
    /// the writer writes next is. Driven through the watch loop with a fake clock.
    @Test func anEmptyFileThatAWriterHoldsOpenIsNeverPublished() throws {
        let bundle = try TestBundle()
        let path = bundle.path("en.lproj/Localizable.strings")
        guard try FileSystem.snapshot(atPath: path, maximumSize: 1 << 20).hadWriter != nil else {
            try Test.cancel("skipped: this file system cannot tell whether a file is open for writing (no leases)")
        }
        let (loop, inotify) = try WatchLoopReleaseSwapTests.loop(on: bundle)
        #expect(loop.start().seen["en.lproj/Localizable.strings"] == .parsed(["greeting": "Hello", "farewell": "Goodbye"]))
        let writer = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC)
        try #require(writer >= 0)
        var isOpen = true
        defer { if isOpen { close(writer) } }
        let start = ContinuousClock.now
        loop.handle(try inotify.readEvents(), at: start)
        #expect(loop.statistics.pendingPaths == 1, "the truncate is noted")

        var batches: [ChangeBatch] = []
        for step in 1...6 {
            let now = start + loop.heldQuietTime * step
            if let batch = loop.takeSettled(at: now, queuedEvents: { () throws(SystemError) in try inotify.readEvents() }) {
                batches.append(batch)
            }
        }
        #expect(batches.map { "\($0.seen) \($0.problems)" } == [], "nothing published while the file is empty")
        #expect(loop.statistics.pendingPaths == 1, "still to be read again")

        let text = Array(stringsText(["greeting": "Hi"]).utf8)
        #expect(text.withUnsafeBytes { write(writer, $0.baseAddress, $0.count) } == text.count)
        close(writer)
        isOpen = false
        let later = start + loop.heldQuietTime * 7
        loop.handle(try inotify.readEvents(), at: later)
        // A process spawned by a test running in parallel may still hold the writer's descriptor (until its exec): the
        // read then finds a writer and is retried, and a file held but quiet for `heldQuietTime` is published anyway.
        // So the clock is stepped through those retries, pausing on the real one, until the version is published.
        var now = later + .seconds(2)
        var batch: ChangeBatch?
        for _ in 0..<12 where batch == nil {
            batch = loop.takeSettled(at: now) { () throws(SystemError) in try inotify.readEvents() }
            if batch == nil {
                usleep(20_000)
                now = now + loop.heldQuietTime
                loop.handle(try inotify.readEvents(), at: now)
            }
        }
        #expect(batch?.seen == ["en.lproj/Localizable.strings": .parsed(["greeting": "Hi"])])
    }
}

/// Links that lead outside the bundle are not followed unless asked for (issue 10, finding 5): whoever can write
/// the bundle must not make the watcher read other files with its privileges.
@Suite struct WatcherTrustTests {
    /// A bundle with a folder link and a table link that both lead to a secret outside the root.
    static func bundleWithLinksOutside() throws -> TestBundle {
        let bundle = try TestBundle()
        let outside = bundle.folder + "/secrets"
        try FileSystem.makeDirectory(atPath: outside)
        try writeText("root:$6$saltsaltsalt$hash\n", toPath: outside + "/Localizable.strings")
        try FileSystem.makeSymbolicLink(atPath: bundle.path("leak.lproj"), pointingTo: outside)
        try FileSystem.makeSymbolicLink(atPath: bundle.path("en.lproj/Secret.strings"),
                                        pointingTo: outside + "/Localizable.strings")
        return bundle
    }

    @Test func linksLeadingOutsideTheBundleAreNotReadAndSayNothingOfTheContent() throws {
        let session = try WatchSession(try Self.bundleWithLinksOutside())
        let seen = session.initial.seen
        #expect(seen["leak.lproj/Localizable.strings"] == nil, "the folder outside is not listed")
        #expect(session.initial.problems.contains { $0.file == "leak.lproj" && $0.message.contains("outside") })
        let secret = try #require(seen["en.lproj/Secret.strings"]?.problem)
        #expect(secret.message.contains("leads outside the bundle"))
        let everything = "\(session.initial.problems) \(secret)"
        #expect(!everything.contains("saltsalt"), "no part of the file reaches a problem text")
        // Links inside the bundle are still followed (the `..data` layout): the standard tables are served.
        #expect(seen["en.lproj/Localizable.strings"] == .parsed(["greeting": "Hello", "farewell": "Goodbye"]))
    }

    @Test func followingExternalLinksIsAnOptIn() throws {
        let session = try WatchSession(try Self.bundleWithLinksOutside(), settleTime: .milliseconds(30)) {
            $0.followsExternalSymlinks = true
        }
        #expect(session.initial.seen["leak.lproj/Localizable.strings"]?.problem != nil, "read (and not a table)")
        #expect(session.initial.seen["en.lproj/Secret.strings"]?.problem?.message.contains("outside") == false)
    }

    /// A parse error quotes at most a short, escaped excerpt of the file.
    @Test func parseErrorsQuoteAShortEscapedExcerpt() throws {
        let key = "line one\nhotstrings: info: FORGED " + String(repeating: "x", count: 100)
        let text = "\"\(key.replacingOccurrences(of: "\n", with: "\\n"))\" \"value\";"
        let session = try WatchSession(files: ["en.lproj/Localizable.strings": text])
        let problem = try #require(session.initial.seen["en.lproj/Localizable.strings"]?.problem)
        #expect(!problem.description.contains("\n"), "\(problem)")
        #expect(problem.message.count < 120, "\(problem.message)")
    }
}

/// Names that are not UTF-8 are never silently skipped (issue 10, finding 6).
@Suite struct WatcherFileNameTests {
    /// Creates a file (and, for a folder name, a folder with one table) whose name holds the byte 0xFF.
    static func createRaw(_ parent: String, _ prefix: String, _ suffix: String, folder: Bool = false) throws {
        let path = Array((parent + "/" + prefix).utf8) + [0xFF] + Array(suffix.utf8) + [0]
        let result = path.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { name in
                folder ? mkdir(name.baseAddress!, 0o755) : open(name.baseAddress!, O_CREAT | O_WRONLY, 0o644)
            }
        }
        #expect(result >= 0, "could not create the file with a raw name")
        if !folder, result >= 0 { close(result) }
    }

    @Test func tablesAndFoldersWithNamesThatAreNotUTF8AreReported() throws {
        let bundle = try TestBundle()
        try Self.createRaw(bundle.path("en.lproj"), "Bad", ".strings")
        try Self.createRaw(bundle.root, "d", "e.lproj", folder: true)
        let session = try WatchSession(bundle)
        let files = session.initial.problems.map(\.file)
        #expect(files.contains("en.lproj/Bad\\xFF.strings"), "\(files)")
        #expect(files.contains("d\\xFFe.lproj"), "\(files)")
        #expect(session.initial.seen["en.lproj/Localizable.strings"] != nil, "the other tables are served")

        // Made while watching: reported too.
        let start = session.log.count
        try Self.createRaw(bundle.path("de.lproj"), "Later", ".strings")
        try session.log.waitForBatch(from: start, "a problem naming the new file") { batch in
            batch.problems.contains { $0.file == "de.lproj/Later\\xFF.strings" }
        }
    }

    @Test func namesAreDecodedWithTheirOtherBytesShown() {
        #expect(FileName.decode(Array("plain".utf8)) == ("plain", true))
        #expect(FileName.decode([0x61, 0xFF, 0x62]) == ("a\\xFFb", false))
        #expect(FileName.decode(Array("é".utf8) + [0xC3]) == ("é\\xC3", false), "a truncated sequence")
    }
}
