import Foundation
import HotStringsRelease
import HotStringsTestSupport
import LinuxSystem
import Testing

/// Pulls from a real nginx over a real publish folder.
@Suite struct NginxPullTests {
    @Test func pullInstallsThenAnUnchangedOriginAnswers304() throws {
        let fixture = try ReleaseFixture()
        let nginx = try fixture.nginxOrigin()
        let first = try fixture.publish()
        let puller = Puller(bundle: fixture.target, options: try fixture.options(nginx.url))
        let installed = try puller.pull()
        #expect(installed.kind == .installed(previous: nil))
        #expect(installed.release == first)
        #expect(installed.requests == 17, "the manifest and 16 files, Settings.xcstrings one of them")
        #expect(try fixture.servesExactly(first))
        let again = try puller.pull()
        #expect(again.kind == .notModified)
        #expect(again.requests == 1)
        #expect(again.bytesFetched == 0)
        // nginx writes a request's log line after it has sent the answer: the client can be done first.
        #expect(waitUntil(.seconds(20)) { nginx.requests.last == "/manifest.json 304 0" },
                "\(nginx.requests.suffix(3))")
    }

    @Test func aNewReleaseFetchesOnlyTheChangedFileAndSwapsWhole() throws {
        let fixture = try ReleaseFixture()
        let nginx = try fixture.nginxOrigin()
        let first = try fixture.publish()
        let puller = Puller(bundle: fixture.target, options: try fixture.options(nginx.url))
        _ = try puller.pull()
        let second = try fixture.publishChange()
        let outcome = try puller.pull()
        #expect(outcome.kind == .installed(previous: first))
        #expect(outcome.requests == 2)
        #expect(try fixture.servesExactly(second))
        let changed = try FileSystem.readFile(atPath: fixture.source + "/de.lproj/Localizable.strings",
                                              maximumSize: 1 << 20)
        #expect(outcome.bytesFetched < changed.count + 4096)
        #expect(waitUntil(.seconds(20)) { nginx.requests.count == 19 }, "\(nginx.requests)")
        #expect(nginx.requests.suffix(2).allSatisfy { $0.contains(" 200 ") }, "\(nginx.requests)")
    }

    @Test func releasesAreKeptUpToTheCountAndRollbackSwapsBack() throws {
        let fixture = try ReleaseFixture()
        let nginx = try fixture.nginxOrigin()
        var options = try fixture.options(nginx.url)
        options.keptReleases = 2
        let puller = Puller(bundle: fixture.target, options: options)
        var releases: [String] = []
        for index in 0..<4 {
            releases.append(try fixture.publishChange("v\(index)"))
            _ = try puller.pull()
        }
        let kept = ReleaseStore(bundle: fixture.target).installed().map(\.id)
        #expect(kept == Array(releases.suffix(3)))
        let store = ReleaseStore(bundle: fixture.target)
        let (from, to) = try store.rollback()
        #expect(from.id == releases[3])
        #expect(to.id == releases[2])
        #expect(try fixture.servesExactly(releases[2]))
        let run = try HotstringsProcess.run(["rollback", fixture.target])
        #expect(run.code == 0, "\(run.stderr)")
        #expect(try fixture.servesExactly(releases[1]))
        let none = try HotstringsProcess.run(["rollback", fixture.target])
        #expect(none.code == 1)
        #expect(none.stderr.contains("no release older than \(releases[1])"))
        // The origin is the truth: the next pull installs its release again, from the kept folder.
        let outcome = try puller.pull()
        #expect(outcome.release == releases[3])
        #expect(outcome.requests == 1)
    }

    @Test func aLanguageAddedAndOneDroppedChangeTheLinks() throws {
        let fixture = try ReleaseFixture()
        let nginx = try fixture.nginxOrigin()
        try fixture.publish()
        let puller = Puller(bundle: fixture.target, options: try fixture.options(nginx.url))
        _ = try puller.pull()
        #expect(try FileSystem.linkTarget(atPath: fixture.target + "/Settings.xcstrings")
            == "..data/Settings.xcstrings")
        try FileSystem.removeRecursively(atPath: fixture.source + "/zh-Hans.lproj")
        try fixture.sandbox.write("\"greeting\" = \"Ciao\";\n", to: "it.lproj/Localizable.strings")
        // The root catalog is renamed: one catalog dropped, one added.
        try FileSystem.rename(fixture.source + "/Settings.xcstrings", to: fixture.source + "/Preferences.xcstrings")
        let second = try fixture.publish()
        _ = try puller.pull()
        #expect(try fixture.servesExactly(second))
        #expect(!fixture.targetEntries.contains("zh-Hans.lproj"))
        #expect(!fixture.targetEntries.contains("Settings.xcstrings"))
        #expect(try FileSystem.linkTarget(atPath: fixture.target + "/it.lproj") == "..data/it.lproj")
        #expect(try FileSystem.linkTarget(atPath: fixture.target + "/Preferences.xcstrings")
            == "..data/Preferences.xcstrings")
    }

    @Test func aBundleWithFoldersOfItsOwnIsRefused() throws {
        let fixture = try ReleaseFixture()
        let nginx = try fixture.nginxOrigin()
        try fixture.publish()
        let puller = Puller(bundle: fixture.source, options: try fixture.options(nginx.url))
        #expect { try puller.pull() } throws: { "\($0)".contains("holds Base.lproj of its own") }
    }

    @Test func aBundleWithARootCatalogOfItsOwnIsRefused() throws {
        let fixture = try ReleaseFixture()
        let nginx = try fixture.nginxOrigin()
        try fixture.publish()
        try FileSystem.makeDirectory(atPath: fixture.target)
        try FileSystem.writeFile(Array(try fixture.sandbox.read("Settings.xcstrings").utf8),
                                 toPath: fixture.target + "/Settings.xcstrings")
        let puller = Puller(bundle: fixture.target, options: try fixture.options(nginx.url))
        #expect { try puller.pull() } throws: { "\($0)".contains("holds Settings.xcstrings of its own") }
        #expect(fixture.currentRelease == nil)
    }
}
