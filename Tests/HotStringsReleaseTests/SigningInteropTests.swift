import Foundation
import HotStringsRelease
import HotStringsTestSupport
import LinuxSystem
import Testing

/// `hotstrings keygen` and `publish --sign` against the real `minisign` (Debian's package, installed by .ci/run):
/// our keys and signatures are checked by minisign, and minisign's keys and signatures are used and checked by us.
@Suite struct SigningInteropTests {
    private func read(_ path: String) throws -> String {
        String(decoding: try FileSystem.readFile(atPath: path, maximumSize: 1 << 20), as: UTF8.self)
    }

    @Test func keygenWritesAnOwnerOnlySecretAndNeverOverwrites() throws {
        let fixture = try ReleaseFixture()
        let (publicPath, secretPath) = (fixture.sandbox.root + "/k.pub", fixture.sandbox.root + "/k.key")
        let made = try HotstringsProcess.run(["keygen", publicPath, secretPath])
        #expect(made.code == 0, "\(made.stderr)")
        #expect(try FileSystem.status(atPath: secretPath).permissions & 0o077 == 0)
        let publicKey = try MinisignPublicKey(fileText: try read(publicPath))
        var secretKey = try MinisignSecretKey(fileText: try read(secretPath))
        #expect(secretKey.publicKey == publicKey)
        secretKey.wipe()
        #expect(made.stdout.contains(publicKey.keyIDText))
        let before = try read(secretPath)
        let again = try HotstringsProcess.run(["keygen", fixture.sandbox.root + "/other.pub", secretPath])
        #expect(again.code == 1)
        #expect(again.stderr.contains("exists"))
        #expect(try read(secretPath) == before)
        #expect(!FileManager.default.fileExists(atPath: fixture.sandbox.root + "/other.pub"))
        let help = try HotstringsProcess.run(["keygen", "--help"])
        #expect(help.code == 0 && help.stdout.contains("keygen <public-file> <secret-file>"))
    }

    /// A missing, unreadable or malformed key file is a usage error, and nothing is published.
    @Test func aBadSigningKeyIsAUsageError() throws {
        let fixture = try ReleaseFixture()
        let garbage = fixture.sandbox.root + "/garbage.key"
        try FileSystem.writeFile(Array("untrusted comment: x\nnot base64\n".utf8), toPath: garbage, mode: 0o600)
        for key in [garbage, fixture.sandbox.root + "/missing.key"] {
            let run = try HotstringsProcess.run(["publish", fixture.source, fixture.output, "--sign", key])
            #expect(run.code == 64, "\(run.stderr)")
            #expect(run.stderr.contains("--sign"))
            let reason = key == garbage ? "is not a minisign secret key" : "cannot read"
            #expect(run.stderr.contains(reason), "\(run.stderr)")
            #expect(!FileManager.default.fileExists(atPath: fixture.output + "/manifest.json"))
        }
    }

    /// A secret key its group or others may read (or write) is refused, as ssh refuses one, naming its mode and the
    /// `chmod 600` that fixes it; nothing is published. Made private, it signs.
    @Test func aSecretKeyOpenToOthersIsRefused() throws {
        let fixture = try ReleaseFixture()
        let key = fixture.sandbox.root + "/open.key"
        #expect(try HotstringsProcess.run(["keygen", fixture.sandbox.root + "/open.pub", key]).code == 0)
        for mode in [0o644, 0o640, 0o604, 0o620] as [mode_t] {
            #expect(chmod(key, mode) == 0)
            let run = try HotstringsProcess.run(["publish", fixture.source, fixture.output, "--sign", key])
            #expect(run.code == 64, "\(run.stderr)")
            #expect(run.stderr.contains("the secret key \(key) has mode 0\(String(mode, radix: 8))"), "\(run.stderr)")
            #expect(run.stderr.contains("chmod 600 \(key)"), "\(run.stderr)")
            #expect(!FileManager.default.fileExists(atPath: fixture.output + "/manifest.json"))
        }
        #expect(chmod(key, 0o600) == 0)
        let signed = try HotstringsProcess.run(["publish", fixture.source, fixture.output, "--sign", key])
        #expect(signed.code == 0, "\(signed.stderr)")
        #expect(FileManager.default.fileExists(atPath: fixture.output + "/manifest.json.minisig"))
    }

    @Test func minisignChecksOurKeysAndSignature() throws {
        let minisign = try ReleaseFixture.minisign()
        let fixture = try ReleaseFixture()
        let (publicPath, secretPath) = (fixture.sandbox.root + "/k.pub", fixture.sandbox.root + "/k.key")
        #expect(try HotstringsProcess.run(["keygen", publicPath, secretPath]).code == 0)
        let published = try HotstringsProcess.run(["publish", fixture.source, fixture.output, "--sign", secretPath])
        #expect(published.code == 0, "\(published.stderr)")
        let manifest = fixture.output + "/manifest.json"
        let checked = try ProcessRun.tool(minisign, ["-Vm", manifest, "-p", publicPath], mergingErrors: true)
        #expect(checked.code == 0, "\(checked.stdout)")
        #expect(checked.stdout.contains("file:manifest.json\thashed"))
        // minisign refuses a manifest changed after signing.
        try FileSystem.writeFile(Array(try read(manifest).utf8) + [0x0A], toPath: manifest)
        let tampered = try ProcessRun.tool(minisign, ["-Vm", manifest, "-p", publicPath], mergingErrors: true)
        #expect(tampered.code != 0)
    }

    /// A key made by `minisign -G -W` signs with `publish --sign`, and minisign checks the result.
    @Test func publishSignsWithAKeyMadeByMinisign() throws {
        let minisign = try ReleaseFixture.minisign()
        let fixture = try ReleaseFixture()
        let (publicPath, secretPath) = try fixture.minisignKeyPair(minisign)
        let published = try HotstringsProcess.run(["publish", fixture.source, fixture.output, "--sign", secretPath])
        #expect(published.code == 0, "\(published.stderr)")
        let manifest = fixture.output + "/manifest.json"
        let checked = try ProcessRun.tool(minisign, ["-Vm", manifest, "-p", publicPath], mergingErrors: true)
        #expect(checked.code == 0, "\(checked.stdout)")
        let signature = try MinisignSignature(fileText: try read(manifest + ".minisig"))
        #expect(signature.isPrehashed)
        let publicKey = try MinisignPublicKey(fileText: try read(publicPath))
        #expect(throws: Never.self) {
            try signature.verify(try FileSystem.readFile(atPath: manifest, maximumSize: 1 << 20), keys: [publicKey])
        }
    }

    /// Signatures made by `minisign -Sm` (prehashed `ED`) and `minisign -S -l` (legacy `Ed`) verify with ours; a
    /// changed file or trusted comment does not.
    @Test func minisignsSignaturesVerifyWithOurs() throws {
        let minisign = try ReleaseFixture.minisign()
        let fixture = try ReleaseFixture()
        let (publicPath, secretPath) = try fixture.minisignKeyPair(minisign)
        _ = try Publisher().publish(bundle: fixture.source, to: fixture.output)
        let manifest = fixture.output + "/manifest.json"
        let bytes = try FileSystem.readFile(atPath: manifest, maximumSize: 1 << 20)
        let publicKey = try MinisignPublicKey(fileText: try read(publicPath))
        for (flags, prehashed) in [([String](), true), (["-l"], false)] {
            let signaturePath = fixture.sandbox.root + "/sig\(prehashed)"
            let signed = try ProcessRun.tool(
                minisign, ["-S"] + flags + ["-s", secretPath, "-m", manifest, "-x", signaturePath, "-t", "release 1"],
                mergingErrors: true
            )
            try #require(signed.code == 0, "\(signed.stdout)")
            let signature = try MinisignSignature(fileText: try read(signaturePath))
            #expect(signature.isPrehashed == prehashed)
            #expect(signature.trustedComment == "release 1")
            #expect(throws: Never.self) { try signature.verify(bytes, keys: [publicKey]) }
            let changedFile = #expect(throws: MinisignError.self) {
                try signature.verify(bytes.dropLast() + [0x20], keys: [publicKey])
            }
            #expect(changedFile?.kind == .badSignature)
            var changedComment = signature
            changedComment.trustedComment = "release 2"
            let refused = #expect(throws: MinisignError.self) { try changedComment.verify(bytes, keys: [publicKey]) }
            #expect(refused?.kind == .badSignature)
        }
    }
}
