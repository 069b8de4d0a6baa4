import Foundation
import HotStringsRelease
import HotStringsTestSupport
import LinuxSystem
import Testing

/// A store in a temporary folder, fed releases directly (no origin): what the store does with ids, folders and
/// the swap, whatever the transfer.
final class StoreFixture {
    let sandbox: Sandbox
    var bundle: String { sandbox.root + "/store" }
    var store: ReleaseStore { ReleaseStore(bundle: bundle) }
    private var clock = 1_000_000

    init() throws {
        sandbox = try Sandbox(prefix: "hs-store-")
    }

    /// A release `id` whose tables hold `greeting = <value>` (in `de.lproj/Localizable.strings`, plus `extra`
    /// more tables `de.lproj/T<n>.strings` saying the same), installed later than any before.
    func release(_ id: String, _ value: String, extra: Int = 0)
        -> (release: InstalledRelease, contents: [String: [UInt8]]) {
        let bytes = Array("\"greeting\" = \"\(value)\";\n".utf8)
        let paths = ["de.lproj/Localizable.strings"] + (0..<extra).map { "de.lproj/T\($0).strings" }
        let files = paths.map { ReleaseManifest.File(path: $0, size: bytes.count, sha256: SHA256.hexDigest(bytes)) }
        clock += 1
        let manifest = ReleaseManifest(release: id, created: "2026-12-04T00:00:00Z", files: files)
        return (InstalledRelease(manifest: manifest, installedAt: clock),
                Dictionary(uniqueKeysWithValues: paths.map { ($0, bytes) }))
    }

    /// Prepares the bundle and installs release `id` saying `value`, as a pull does (under the lock).
    func install(_ id: String, _ value: String, extra: Int = 0) throws {
        let (release, contents) = self.release(id, value, extra: extra)
        try store.locked { () throws(ReleaseError) in
            try store.prepare()
            try store.install(release, contents: contents)
        }
    }

    /// What the bundle serves as `greeting` in German, through its links.
    var served: String? {
        guard let bytes = try? FileSystem.readFile(atPath: bundle + "/de.lproj/Localizable.strings",
                                                   maximumSize: 1 << 20) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
            .replacingOccurrences(of: "\"greeting\" = \"", with: "").replacingOccurrences(of: "\";\n", with: "")
    }

    var entries: [String] { ((try? FileSystem.listDirectory(atPath: bundle)) ?? []).map(\.name).sorted() }
}

/// Release ids are any `[A-Za-z0-9._-]` name: none of them reaches the names the store uses itself.
@Suite struct ReleaseIDNamespaceTests {
    @Test(arguments: ["data", "pull.lock", "tmp-x", "data_tmp", "tmp-old-x", "r-x", "empty"])
    func anIDThatIsOneOfTheStoresNamesInstallsAndWorks(id: String) throws {
        let fixture = try StoreFixture()
        try fixture.install("first", "Erste")
        try fixture.install(id, "Feindlich")
        #expect(fixture.store.current()?.id == id, "\(fixture.entries)")
        #expect(fixture.store.currentID() == id)
        #expect(fixture.served == "Feindlich")
        // The clean-up of every later pull never takes the current release for a leftover.
        try fixture.store.locked { () throws(ReleaseError) in try fixture.store.prepare() }
        #expect(fixture.store.current()?.id == id, "\(fixture.entries)")
        #expect(fixture.served == "Feindlich")
        // Later releases install, and the hostile one stays an ordinary kept release.
        try fixture.install("after", "Danach")
        #expect(fixture.store.current()?.id == "after", "\(fixture.entries)")
        #expect(fixture.served == "Danach")
        let (from, to) = try fixture.store.locked { () throws(ReleaseError) in try fixture.store.rollback() }
        #expect(from.id == "after" && to.id == id)
        #expect(fixture.served == "Feindlich")
        #expect(fixture.store.installed().map(\.id) == ["first", id, "after"])
    }

    /// A release is re-served under the id that is current, with other files: `..data` leads to a whole release
    /// at every moment, so the watcher never sees the release's tables vanish. Shown from the kernel's own record
    /// of the bundle's root: the folder `..data` leads to is never renamed away or removed before `..data` is
    /// swapped to another.
    @Test func theCurrentIDServedAgainWithOtherFilesIsSwappedWhole() throws {
        let fixture = try StoreFixture()
        try fixture.install("same", "Eins", extra: 40)
        let before = try FileSystem.linkTarget(atPath: fixture.bundle + "/..data")
        let inotify = try Inotify()
        _ = try inotify.addWatch(fixture.bundle, mask: [.movedFrom, .movedTo, .create, .delete])
        try fixture.install("same", "Zwei", extra: 40)
        let events = try inotify.readEvents()
        let swap = try #require(events.firstIndex { $0.name == "..data" && $0.mask.contains(.movedTo) },
                                "\(events.map { "\($0.mask) \($0.name)" })")
        let goneEarly = events[..<swap].filter { $0.name == before && !$0.mask.isDisjoint(with: [.movedFrom, .delete]) }
        #expect(goneEarly.isEmpty, "\(before) left before the swap: \(events.map { "\($0.mask) \($0.name)" })")
        #expect(fixture.served == "Zwei")
        for index in 0..<40 {
            let bytes = try FileSystem.readFile(atPath: fixture.bundle + "/de.lproj/T\(index).strings",
                                                maximumSize: 1 << 20)
            #expect(String(decoding: bytes, as: UTF8.self).contains("Zwei"))
        }
        #expect(fixture.store.installed().map(\.id) == ["same"], "one folder per id: \(fixture.entries)")
        // And once more (the fresh folder's name alternates).
        try fixture.install("same", "Drei", extra: 40)
        #expect(fixture.served == "Drei")
        #expect(fixture.store.installed().map(\.id) == ["same"], "\(fixture.entries)")
    }
}

/// A bundle installed by an earlier hotstrings, whose release folders are `..<id>`, keeps working and is moved
/// to the new layout.
@Suite struct OldReleaseLayoutTests {
    /// Writes release `id` in the old layout: `..<id>` with its files, manifest copy and install record.
    private func writeOldRelease(_ fixture: StoreFixture, _ id: String, _ value: String, at time: Int) throws {
        if (try? FileSystem.status(atPath: fixture.bundle)) == nil {
            try FileSystem.makeDirectory(atPath: fixture.bundle)
        }
        let (release, contents) = fixture.release(id, value)
        let folder = fixture.bundle + "/.." + id
        try FileSystem.makeDirectory(atPath: folder)
        try FileSystem.makeDirectory(atPath: folder + "/de.lproj")
        for (path, bytes) in contents { try FileSystem.writeFile(bytes, toPath: folder + "/" + path) }
        try FileSystem.writeFile(release.manifest.json, toPath: folder + "/.manifest.json")
        try FileSystem.writeFile(Array(#"{"installedAt":\#(time),"release":"\#(id)"}"#.utf8) + [0x0A],
                                 toPath: folder + "/.installed.json")
    }

    @Test func anOldBundleIsServedRolledBackAndMovedToTheNewLayout() throws {
        let fixture = try StoreFixture()
        try writeOldRelease(fixture, "old1", "Alt eins", at: 1)
        try writeOldRelease(fixture, "old2", "Alt zwei", at: 2)
        try FileSystem.makeSymbolicLink(atPath: fixture.bundle + "/..data", pointingTo: "..old2")
        try FileSystem.makeSymbolicLink(atPath: fixture.bundle + "/de.lproj", pointingTo: "..data/de.lproj")
        let store = fixture.store
        #expect(store.current()?.id == "old2")
        #expect(store.currentID() == "old2")
        #expect(store.installed().map(\.id) == ["old1", "old2"])
        // prepare() keeps the current folder where `..data` leads and moves the others.
        try store.prepare()
        #expect(fixture.served == "Alt zwei")
        #expect(fixture.entries.contains("..r-old1") && !fixture.entries.contains("..old1"), "\(fixture.entries)")
        #expect(store.installed().map(\.id) == ["old1", "old2"])
        let (_, to) = try store.rollback()
        #expect(to.id == "old1")
        #expect(fixture.served == "Alt eins")
        // The next install moves the last one.
        try fixture.install("new", "Neu")
        #expect(fixture.served == "Neu")
        #expect(!fixture.entries.contains { $0.hasPrefix("..old") }, "\(fixture.entries)")
        #expect(store.installed().map(\.id) == ["old1", "old2", "new"])
        let (_, back) = try store.rollback()
        #expect(back.id == "old2")
        #expect(fixture.served == "Alt zwei")
    }

    /// An earlier hotstrings installed a release named `data` as the folder `..data` (and the language links led
    /// into it): every pull failed since. The clean-up removes that folder and the next release installs.
    @Test func aBundleBrokenByAReleaseNamedDataIsRepaired() throws {
        let fixture = try StoreFixture()
        try writeOldRelease(fixture, "old1", "Alt eins", at: 1)
        try writeOldRelease(fixture, "data", "Feindlich", at: 2)
        try FileSystem.makeSymbolicLink(atPath: fixture.bundle + "/de.lproj", pointingTo: "..data/de.lproj")
        try fixture.install("fixed", "Repariert")
        #expect(fixture.store.current()?.id == "fixed")
        #expect(fixture.served == "Repariert")
        #expect(try FileSystem.linkTarget(atPath: fixture.bundle + "/..data") == "..r-fixed")
    }

    /// An earlier hotstrings installed a release named `pull.lock` as the folder `..pull.lock`, current: every pull
    /// failed to take the lock since. The lock moves the folder to its new name, and pulls work again.
    @Test func aBundleBrokenByAReleaseNamedPullLockIsRepaired() throws {
        let fixture = try StoreFixture()
        try writeOldRelease(fixture, "pull.lock", "Feindlich", at: 2)
        try FileSystem.makeSymbolicLink(atPath: fixture.bundle + "/..data", pointingTo: "..pull.lock")
        try FileSystem.makeSymbolicLink(atPath: fixture.bundle + "/de.lproj", pointingTo: "..data/de.lproj")
        try fixture.store.locked { () throws(ReleaseError) in try fixture.store.prepare() }
        #expect(fixture.store.current()?.id == "pull.lock")
        #expect(fixture.served == "Feindlich")
        try fixture.install("fixed", "Repariert")
        #expect(fixture.served == "Repariert")
        #expect(fixture.store.installed().map(\.id) == ["pull.lock", "fixed"])
    }
}

/// Which bundles are laid out by releases, so that `set` refuses to edit their files: the store's own layout, and
/// not a Kubernetes volume, whose `..data` link leads to a `..<timestamp>` folder no pull made.
@Suite struct ReleaseLayoutRecognitionTests {
    @Test func aPulledBundleHoldsReleasesAndAKubernetesVolumeDoesNot() throws {
        let fixture = try StoreFixture()
        #expect(!fixture.store.holdsReleases)
        try fixture.install("first", "Erste")
        #expect(fixture.store.holdsReleases)

        let volume = fixture.sandbox.root + "/volume"
        let timestamped = "..2026_12_07_22_00_00.123456789"
        try FileSystem.makeDirectory(atPath: volume)
        try FileSystem.makeDirectory(atPath: volume + "/" + timestamped)
        try FileSystem.makeDirectory(atPath: volume + "/" + timestamped + "/de.lproj")
        try FileSystem.writeFile(Array("\"greeting\" = \"Hallo\";\n".utf8),
                                 toPath: volume + "/" + timestamped + "/de.lproj/Localizable.strings")
        try FileSystem.makeSymbolicLink(atPath: volume + "/..data", pointingTo: timestamped)
        try FileSystem.makeSymbolicLink(atPath: volume + "/de.lproj", pointingTo: "..data/de.lproj")
        #expect(ReleaseStore(bundle: volume).currentID() == String(timestamped.dropFirst(2)))
        #expect(!ReleaseStore(bundle: volume).holdsReleases)
    }
}
