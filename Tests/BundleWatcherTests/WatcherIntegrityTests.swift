import Foundation
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
            #expect(Set(entries.keys) == Set(keys), "a version with keys missing was published")
            #expect(Set(entries.values).count == 1, "a version mixing two writes was published")
        }
        #expect(published >= 1)
    }
}
