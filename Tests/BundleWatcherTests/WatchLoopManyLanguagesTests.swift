import BundleChanges
import LinuxSystem
import Testing
@testable import BundleWatcher

/// A release that adds many languages, installed as the over-the-air store installs one, driven through the watch
/// loop step by step: the work of serving it grows with the number of languages, not with its square.
@Suite struct WatchLoopManyLanguagesTests {
    /// A bundle with a release `rel1` of one language and a release `rel2` of `count` languages (`en` and `l1`… as
    /// language tags), `..data` pointing at `rel1`.
    static func bundle(languages count: Int) throws -> (TestBundle, [String]) {
        let languages = ["en"] + (1..<count).map { "x-l\($0)" }
        var files = ["rel1/en.lproj/Localizable.strings": stringsText(["greeting": "Hello"])]
        for language in languages {
            files["rel2/\(language).lproj/Localizable.strings"] = stringsText(["greeting": language])
        }
        let bundle = try TestBundle(files)
        try FileSystem.makeSymbolicLink(atPath: bundle.path("..data"), pointingTo: "rel1")
        try FileSystem.makeSymbolicLink(atPath: bundle.path("en.lproj"), pointingTo: "..data/en.lproj")
        return (bundle, languages)
    }

    /// Installs `rel2` into a watched bundle as `ReleaseStore.makeCurrent` does (a link for each new language, then
    /// the `..data` swap), with the loop handling the events of each step before the next (a watcher that keeps up),
    /// and returns how many times the loop resolved a folder's path along with the batch of the swap.
    static func install(languages count: Int) throws -> (resolutions: Int, seen: [String: Seen]) {
        let (bundle, languages) = try bundle(languages: count)
        let (loop, inotify) = try WatchLoopReleaseSwapTests.loop(on: bundle)
        #expect(loop.start().seen.count == 1)
        let before = loop.folderResolutions
        let start = ContinuousClock.now
        for language in languages.dropFirst() {
            try FileSystem.makeSymbolicLink(atPath: bundle.path("\(language).lproj"),
                                            pointingTo: "..data/\(language).lproj")
            loop.handle(try inotify.readEvents(), at: start)
        }
        try FileSystem.makeSymbolicLink(atPath: bundle.path("..data_tmp"), pointingTo: "rel2")
        loop.handle(try inotify.readEvents(), at: start)
        try FileSystem.rename(bundle.path("..data_tmp"), to: bundle.path("..data"))
        loop.handle(try inotify.readEvents(), at: start)
        var seen: [String: Seen] = [:]
        for step in 2...6 {
            let batch = loop.takeSettled(at: start + .milliseconds(step)) { () throws(SystemError) in
                try inotify.readEvents()
            }
            for (path, content) in batch?.seen ?? [:] { seen[path] = content }
        }
        return (loop.folderResolutions - before, seen)
    }

    @Test func aReleaseOfManyNewLanguagesResolvesEachFolderAFewTimes() throws {
        let count = 300
        let (resolutions, seen) = try Self.install(languages: count)
        #expect(seen.count == count, "every language of the release served")
        #expect(seen["x-l299.lproj/Localizable.strings"] == .parsed(["greeting": "x-l299"]))
        // A few looks per folder (its link made, the swap); looking at every folder again for each link made is
        // count² / 2 (45,000 here).
        #expect(resolutions <= 4 * count, "\(resolutions) resolutions for \(count) languages")
    }
}
