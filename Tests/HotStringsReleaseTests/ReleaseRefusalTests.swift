import Foundation
import HotStringsRelease
import HotStringsTestSupport
import LinuxSystem
import Testing

/// What publish and pull refuse: links out of the bundle, files that are not tables, names the installer cannot
/// write; and what a hostile origin's release id does to a real pull.
@Suite struct PublishRefusalTests {
    /// A folder outside the bundle with a file in it, as the publisher's secrets would be.
    private func outsideFile(_ fixture: ReleaseFixture) throws -> String {
        let folder = fixture.sandbox.root + "/outside"
        try FileSystem.makeDirectory(atPath: folder)
        try FileSystem.writeFile(Array("\"secret\" = \"id_rsa\";\n".utf8), toPath: folder + "/Secret.strings")
        return folder
    }

    @Test(arguments: [
        ("en.lproj/Notes.strings", "/Secret.strings"),
        ("en.lproj/notes.txt", "/Secret.strings"),
        ("leak.lproj", ""),
        ("Leak.xcstrings", "/Secret.strings"),
    ])
    func aLinkLeavingTheBundleIsRefusedUnlessAllowed(link: String, target: String) throws {
        let fixture = try ReleaseFixture()
        let outside = try outsideFile(fixture)
        try FileSystem.makeSymbolicLink(atPath: fixture.source + "/" + link, pointingTo: outside + target)
        #expect {
            try Publisher().publish(bundle: fixture.source, to: fixture.output)
        } throws: { error in
            let text = "\(error)"
            return text.contains(link) && text.contains("leads outside the bundle")
                && text.contains("--follow-external-symlinks")
        }
        #expect(!FileManager.default.fileExists(atPath: fixture.output + "/manifest.json"))
        guard !link.hasSuffix(".xcstrings") else { return }  // not a catalog: allowed, it is one more table
        var publisher = Publisher()
        publisher.followsExternalSymlinks = true
        let outcome = try publisher.publish(bundle: fixture.source, to: fixture.output)
        let expected = link.hasSuffix(".txt") ? nil : link.hasSuffix(".lproj") ? "leak.lproj/Secret.strings" : link
        if let expected { #expect(outcome.manifest.files.contains { $0.path == expected }) }
    }

    @Test func aLinkInsideTheBundleIsPublished() throws {
        let fixture = try ReleaseFixture()
        try FileSystem.makeSymbolicLink(atPath: fixture.source + "/es.lproj", pointingTo: "fr.lproj")
        let manifest = try Publisher().publish(bundle: fixture.source, to: fixture.output).manifest
        #expect(manifest.folders.contains("es.lproj"))
    }

    @Test func onlyTablesArePublishedAndEachSkippedFileIsOneWarning() throws {
        let fixture = try ReleaseFixture()
        try fixture.sandbox.write("notes\n", to: "en.lproj/notes.txt")
        try fixture.sandbox.write("PNG\n", to: "de.lproj/flag.png")
        let outcome = try Publisher().publish(bundle: fixture.source, to: fixture.output)
        #expect(!outcome.manifest.files.contains { !$0.path.hasSuffix("strings") && !$0.path.hasSuffix("stringsdict") })
        #expect(outcome.manifest.files.count == 16)
        #expect(outcome.skippedFiles.map(\.path) == ["de.lproj/flag.png", "en.lproj/notes.txt"])
        let run = try HotstringsProcess.run(["publish", fixture.source, fixture.sandbox.root + "/again"])
        #expect(run.code == 0, "\(run.stderr)")
        let warnings = run.stderr.split(separator: "\n").filter { $0.contains("warning") && $0.contains("not a table") }
        #expect(warnings.count == 2, "\(run.stderr)")
        #expect(warnings.contains { $0.contains("en.lproj/notes.txt") })
    }

    @Test func theCommandTakesFollowExternalSymlinks() throws {
        let fixture = try ReleaseFixture()
        let outside = try outsideFile(fixture)
        try FileSystem.makeSymbolicLink(atPath: fixture.source + "/it.lproj", pointingTo: outside)
        let refused = try HotstringsProcess.run(["publish", fixture.source, fixture.output])
        #expect(refused.code == 1)
        #expect(refused.stderr.contains("leads outside the bundle"), "\(refused.stderr)")
        let allowed = try HotstringsProcess.run(["publish", "--follow-external-symlinks", fixture.source,
                                                 fixture.output])
        #expect(allowed.code == 0, "\(allowed.stderr)")
    }

    @Test func aNameTheInstallerCannotWriteIsRefused() throws {
        let fixture = try ReleaseFixture()
        let name = String(repeating: "n", count: 232) + ".strings"
        try fixture.sandbox.write("\"a\" = \"b\";\n", to: "de.lproj/" + name)
        #expect {
            try Publisher().publish(bundle: fixture.source, to: fixture.output)
        } throws: { error in
            "\(error)".contains("de.lproj/" + name) && "\(error)".contains("\(FileSystem.longestAtomicallyWrittenName)")
        }
        #expect(!FileManager.default.fileExists(atPath: fixture.output + "/manifest.json"))
    }
}

@Suite struct ManifestNameLengthTests {
    private func manifest(path: String) -> [UInt8] {
        let digest = String(repeating: "ab", count: 32)
        return Array((#"{"format": 1, "release": "r1", "created": "now", "files": [{"path": "\#(path)", "#
            + #""size": 1, "sha256": "\#(digest)"}]}"#).utf8)
    }

    @Test func aNameLongerThanTheInstallerWritesIsRefusedWithTheLimit() {
        let name = String(repeating: "n", count: 240 - 8) + ".strings"
        #expect {
            try ReleaseManifest.decode(manifest(path: "de.lproj/" + name))
        } throws: { error in
            "\(error)".contains("240 bytes") && "\(error)".contains("\(FileSystem.longestAtomicallyWrittenName)")
        }
        #expect { try ReleaseManifest.decode(manifest(path: name.dropLast(8) + ".xcstrings")) } throws: { _ in true }
    }

    @Test func theLongestNameInstalls() throws {
        let fixture = try StoreFixture()
        let name = String(repeating: "n", count: FileSystem.longestAtomicallyWrittenName - 8) + ".strings"
        let path = "de.lproj/" + name
        let bytes = Array("\"a\" = \"b\";\n".utf8)
        let json = #"{"format": 1, "release": "long", "created": "now", "files": [{"path": "\#(path)", "#
            + #""size": \#(bytes.count), "sha256": "\#(SHA256.hexDigest(bytes))"}]}"#
        let manifest = try ReleaseManifest.decode(Array(json.utf8))
        try fixture.store.prepare()
        try fixture.store.install(InstalledRelease(manifest: manifest, installedAt: 1), contents: [path: bytes])
        #expect(try FileSystem.readFile(atPath: fixture.bundle + "/" + path, maximumSize: 1 << 10) == bytes)
    }
}

/// Failures say what happened, the same way each time: a lock's holder and a read-only file system as they are,
/// and no random temporary name (owners report a run of identical failures once).
@Suite struct ReleaseFailureMessageTests {
    @Test func aFailedWriteSaysTheSameEachTime() throws {
        let fixture = try StoreFixture()
        // A name the installer cannot write (ENAMETOOLONG), given to install directly, past the manifest's check.
        let bytes = Array("\"a\" = \"b\";\n".utf8)
        let path = "de.lproj/" + String(repeating: "n", count: 240) + ".strings"
        let manifest = ReleaseManifest(release: "r1", created: "now",
                                       files: [.init(path: path, size: bytes.count, sha256: SHA256.hexDigest(bytes))])
        try fixture.store.prepare()
        var messages: [String] = []
        for _ in 0..<2 {
            #expect {
                try fixture.store.install(InstalledRelease(manifest: manifest, installedAt: 1), contents: [path: bytes])
            } throws: { error in
                messages.append("\(error)")
                return true
            }
        }
        #expect(messages.count == 2 && messages[0] == messages[1], "\(messages)")
        #expect(!messages[0].contains(".strings.tmp-"), "\(messages[0])")
    }

    @Test func aHeldLockNamesItsHolderPlainly() throws {
        let fixture = try StoreFixture()
        try FileSystem.makeDirectory(atPath: fixture.bundle)
        let held = try FileLock(path: fixture.bundle + "/..pull.lock", ownerID: ProcessStatistics.userID)
        var message = ""
        #expect {
            try fixture.store.locked { () throws(ReleaseError) in }
        } throws: { error in
            message = "\(error)"
            return true
        }
        #expect(message.contains("another pull or rollback"), "\(message)")
        #expect(message.contains("process \(ProcessStatistics.processID)"), "\(message)")
        #expect(!message.contains("Optional"), "\(message)")
        withExtendedLifetime(held) {}
    }

    @Test func aReadOnlyFileSystemIsNotTakenForAnotherPull() {
        let failure = FileLock.Failure.system(SystemError(operation: "open", path: "/b/..pull.lock",
                                                          errno: .readOnlyFileSystem))
        let message = "\(ReleaseStore.lockError(failure, path: "/b/..pull.lock"))"
        #expect(message.contains("read-only file system"), "\(message)")
        #expect(!message.contains("another pull"), "\(message)")
    }
}

/// A hostile origin names its release after one of the store's own names.
@Suite struct HostileReleaseIDPullTests {
    @Test(arguments: ["data", "tmp-x", "pull.lock"])
    func aReleaseNamedLikeTheStoresOwnNamesIsPulledOnceAndThenReplaced(id: String) throws {
        let fixture = try ReleaseFixture()
        try FileSystem.makeDirectory(atPath: fixture.output)
        let origin = try FaultOrigin(root: fixture.output)
        try fixture.publish()
        var manifest = try ReleaseManifest.decode(
            try FileSystem.readFile(atPath: fixture.output + "/manifest.json", maximumSize: 1 << 20))
        manifest.release = id
        try FileSystem.writeFile(manifest.json, toPath: fixture.output + "/manifest.json.tmp")
        try FileSystem.rename(fixture.output + "/manifest.json.tmp", to: fixture.output + "/manifest.json")
        let puller = Puller(bundle: fixture.target, options: try fixture.options(origin.url))
        #expect(try puller.pull().kind == .installed(previous: nil))
        #expect(fixture.currentRelease == id)
        let again = try puller.pull()
        #expect(again.kind == .notModified || again.kind == .unchanged, "the current release is kept")
        #expect(again.requests == 1, "nothing fetched again")
        let fixed = try fixture.publishChange("repariert")
        #expect(try puller.pull().kind == .installed(previous: id))
        #expect(try fixture.servesExactly(fixed))
    }
}
