import Foundation
import HotStringsRelease
import HotStringsTestSupport
import LinuxSystem
import Testing

/// A root String Catalog (sample-bundle's `Settings.xcstrings`) carried over the air to a real `serve --pull`.
@Suite struct CatalogReleaseTests {
    @Test func aPulledRootCatalogIsServedAndItsChangeIsOneReloadOfTheChangedKeys() throws {
        let fixture = try ReleaseFixture()
        let nginx = try fixture.nginxOrigin()
        let first = try fixture.publish()
        let daemon = try PullingDaemon(bundle: fixture.target, url: nginx.url)
        try daemon.waitForRelease(first)
        #expect(try FileSystem.linkTarget(atPath: fixture.target + "/Settings.xcstrings")
            == "..data/Settings.xcstrings")
        func settings(_ language: String) throws -> String {
            try HotstringsProcess.run(["get", "Settings", "--table", "Settings", "--language", language,
                                       "--socket", daemon.socket]).stdout
        }
        // The first pull races the first scan: the catalog link appears only once `..data` leads somewhere.
        try waitUntil("the catalog served", timeout: .seconds(10)) { try settings("de").contains("Einstellungen") }
        let subscriber = try daemon.subscribe()

        let catalog = try fixture.sandbox.read("Settings.xcstrings")
        try fixture.sandbox.save(catalog.replacingOccurrences(of: "\"Einstellungen\"", with: "\"Optionen\""),
                                 to: "Settings.xcstrings")
        let second = try fixture.publish()
        try waitUntil("the new release's reload", timeout: .seconds(10)) { subscriber.reloads >= 1 }
        try daemon.waitForRelease(second)
        #expect(try settings("de").contains("Optionen"))
        #expect(try settings("fr").contains("Réglages"))
        // Pulls after the install find it current: still exactly one reload, naming only the changed key.
        try daemon.waitForUnchangedPull(after: Date().addingTimeInterval(0.5))
        #expect(subscriber.reloads == 1, "\(subscriber.stdout.text)")
        let reload = try #require(subscriber.stdout.text.split(separator: "\n").first {
            $0.contains(#""event":"reload""#)
        })
        #expect(reload.components(separatedBy: #""table":"#).count == 2, "one table changed: \(reload)")
        #expect(reload.contains(#""language":"de","table":"Settings","file":"Settings.xcstrings""#), "\(reload)")
        #expect(reload.contains(#""added":{},"changed":{"Settings":"Optionen"},"removed":[]"#), "\(reload)")
        #expect(subscriber.errorEvents.isEmpty, "\(subscriber.stdout.text)")
        _ = subscriber.terminate()
        #expect(try daemon.terminate() == 0)
    }

    /// A catalog the watcher serves from another folder cannot be carried by a release yet: publish refuses the
    /// bundle, naming it, rather than publish a release that drops its tables on every machine.
    @Test func aCatalogInAnotherFolderIsRefusedByPublish() throws {
        let fixture = try ReleaseFixture()
        try FileSystem.makeDirectory(atPath: fixture.source + "/Resources")
        try FileSystem.makeDirectory(atPath: fixture.source + "/Resources/Help")
        try FileSystem.writeFile(Array(try fixture.sandbox.read("Settings.xcstrings").utf8),
                                 toPath: fixture.source + "/Resources/Help/Help.xcstrings")
        #expect {
            try fixture.publish()
        } throws: { error in
            guard case .invalidTable(let problem) = error as? ReleaseError else { return false }
            return problem.file == "Resources/Help/Help.xcstrings" && problem.message.contains("move it into the root")
        }
        #expect(!FileManager.default.fileExists(atPath: fixture.output + "/manifest.json"), "nothing published")
        let run = try HotstringsProcess.run(["publish", fixture.source, fixture.output])
        #expect(run.code != 0 && run.stderr.contains("Resources/Help/Help.xcstrings"), "\(run.stderr)")

        // Hidden folders and links to folders are not searched, as the watcher does not search them.
        try FileSystem.rename(fixture.source + "/Resources", to: fixture.source + "/.Resources")
        try FileSystem.makeSymbolicLink(atPath: fixture.source + "/Linked", pointingTo: ".Resources")
        #expect(try !fixture.publish().isEmpty)
    }
}
