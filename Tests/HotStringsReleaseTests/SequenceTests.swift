import Foundation
import HotStringsRelease
import HotStringsTestSupport
import LinuxSystem
import Testing

/// A manifest's `sequence` and `expires`: each publish numbers its manifest one above the highest of OUTDIR,
/// signing adds an expiry, and manifests of earlier hotstrings (with neither) still read.
@Suite struct SequenceTests {
    private func manifest(_ fixture: ReleaseFixture) throws -> ReleaseManifest {
        try ReleaseManifest.decode(try FileSystem.readFile(atPath: fixture.output + "/manifest.json",
                                                           maximumSize: 1 << 20))
    }

    @Test func eachPublishTakesTheNextSequenceAndNoExpiryUnsigned() throws {
        let fixture = try ReleaseFixture()
        try fixture.publish()
        #expect(try manifest(fixture).sequence == 1)
        #expect(try manifest(fixture).expires == nil)
        #expect(try Publisher().publish(bundle: fixture.source, to: fixture.output).isUnchanged)
        #expect(try manifest(fixture).sequence == 1)
        try fixture.publishChange()
        #expect(try manifest(fixture).sequence == 2)
    }

    /// A manifest copied back by hand (the old way to roll an origin back) does not lower the next sequence.
    @Test func aManifestCopiedBackDoesNotLowerTheSequence() throws {
        let fixture = try ReleaseFixture()
        let first = try fixture.publish()
        try fixture.publishChange()
        try fixture.publishChange()
        try FileSystem.writeFile(try FileSystem.readFile(atPath: fixture.output + "/releases/\(first).json",
                                                         maximumSize: 1 << 20),
                                 toPath: fixture.output + "/manifest.json")
        try fixture.publishChange()
        #expect(try manifest(fixture).sequence == 4)
    }

    /// After a manifest of an earlier hotstrings (no sequence), publishing starts at 1.
    @Test func anOldManifestReadsAndTheNextPublishIsOne() throws {
        let fixture = try ReleaseFixture()
        try fixture.publish()
        var old = try manifest(fixture)
        old.sequence = nil
        try FileSystem.writeFile(old.json, toPath: fixture.output + "/manifest.json")
        try FileSystem.removeRecursively(atPath: fixture.output + "/releases")
        #expect(!String(decoding: old.json, as: UTF8.self).contains("sequence"))
        #expect(try ReleaseManifest.decode(old.json) == old)
        try fixture.publishChange()
        #expect(try manifest(fixture).sequence == 1)
    }

    @Test func badSequenceOrExpiryIsRefused() throws {
        for (member, reason) in [("\"sequence\": -1", "\"sequence\""), ("\"sequence\": \"7\"", "\"sequence\""),
                                 ("\"expires\": \"tomorrow\"", "\"expires\""), ("\"expires\": 5", "\"expires\"")] {
            let bytes = Array(#"{"format": 1, "release": "r1", "created": "now", \#(member), "files": []}"#.utf8)
            #expect {
                try ReleaseManifest.decode(bytes)
            } throws: { error in
                "\(error)".contains(reason)
            }
        }
        let good = Array(#"{"format": 1, "release": "r1", "created": "now", "sequence": 7, "expires": "2030-01-02T03:04:05Z", "files": []}"#.utf8)
        let manifest = try ReleaseManifest.decode(good)
        #expect(manifest.sequence == 7)
        #expect(manifest.expiryDate == Date(timeIntervalSince1970: 1_893_553_445))
    }

    /// `--sign` writes an expiry (30 days by default, or --expires-in), and publishing unchanged content signed
    /// again is a new sequence of the same release: how an expiry is extended.
    @Test func signingWritesAnExpiryAndExtendsIt() throws {
        let fixture = try ReleaseFixture()
        let key = fixture.sandbox.root + "/k"
        #expect(try HotstringsProcess.run(["keygen", key + ".pub", key + ".key"]).code == 0)
        let signed = try HotstringsProcess.run(["publish", fixture.source, fixture.output, "--sign", key + ".key"])
        #expect(signed.code == 0, "\(signed.stderr)")
        let first = try manifest(fixture)
        let expiry = try #require(first.expiryDate)
        #expect(abs(expiry.timeIntervalSinceNow - 30 * 86_400) < 120)
        let again = try HotstringsProcess.run(["publish", fixture.source, fixture.output, "--sign", key + ".key",
                                               "--expires-in", "12h"])
        #expect(again.code == 0, "\(again.stderr)")
        let extended = try manifest(fixture)
        #expect(extended.release == first.release)
        #expect(extended.sequence == 2)
        #expect(abs(try #require(extended.expiryDate).timeIntervalSinceNow - 12 * 3600) < 120)
        #expect(again.stdout.contains("sequence 2"))
        // Unsigned, the signature of a replaced manifest is removed rather than left to mismatch.
        try fixture.publishChange()
        #expect(try manifest(fixture).sequence == 3)
        #expect(try manifest(fixture).expires == nil)
        #expect(!FileManager.default.fileExists(atPath: fixture.output + "/manifest.json.minisig"))
    }

    @Test(arguments: [
        (["--expires-in", "12h"], "--expires-in needs --sign"),
        (["--sign", "KEY", "--expires-in", "soon"], "--expires-in takes a duration such as 30d"),
        (["--sign", "KEY", "--expires-in", "0s"], "--expires-in takes a duration"),
        (["--sign", "KEY", "--expires-in", "3 days"], "--expires-in takes a duration"),
    ])
    func expiresInIsAUsageErrorWithoutSignOrMalformed(extra: [String], message: String) throws {
        let fixture = try ReleaseFixture()
        let key = fixture.sandbox.root + "/k"
        #expect(try HotstringsProcess.run(["keygen", key + ".pub", key + ".key"]).code == 0)
        let arguments = extra.map { $0 == "KEY" ? key + ".key" : $0 }
        let run = try HotstringsProcess.run(["publish", fixture.source, fixture.output] + arguments)
        #expect(run.code == 64)
        #expect(run.stderr.contains(message), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: fixture.output + "/manifest.json"))
    }
}
