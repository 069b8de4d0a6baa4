import Foundation
import HotStringsRelease
import HotStringsTestSupport
import LinuxSystem
import Testing

/// `pull --trusted-key` with signatures made by the real `minisign`, killed mid-install, and in a daemon that keeps
/// pulling (`serve --pull --trusted-key`), whose `status` names the release's sequence, signer and expiry.
@Suite struct TrustedPullInteropTests {
    /// A manifest signed by `minisign -Sm` (prehashed) or `minisign -S -l` (legacy) with its own key installs.
    @Test(arguments: [[String](), ["-l"]])
    func aManifestSignedByMinisignInstalls(flags: [String]) throws {
        let minisign = try ReleaseFixture.minisign()
        let fixture = try ReleaseFixture()
        let nginx = try fixture.nginxOrigin()
        let (publicPath, secretPath) = try fixture.minisignKeyPair(minisign)
        let published = try HotstringsProcess.run(["publish", fixture.source, fixture.output, "--sign", secretPath])
        #expect(published.code == 0, "\(published.stderr)")
        let manifest = fixture.output + "/manifest.json"
        let signed = try ProcessRun.tool(
            minisign, ["-S"] + flags + ["-s", secretPath, "-m", manifest, "-x", manifest + ".minisig", "-t", "by hand"],
            mergingErrors: true)
        try #require(signed.code == 0, "\(signed.stdout)")
        let run = try HotstringsProcess.run(["pull", nginx.url, fixture.target, "--trusted-key", publicPath])
        #expect(run.code == 0, "\(run.stderr)")
        let release = try fixture.servedManifest.release
        #expect(fixture.currentRelease == release)
        let key = try MinisignPublicKey(fileText: String(decoding: try FileSystem.readFile(atPath: publicPath,
                                                                                          maximumSize: 4096),
                                                         as: UTF8.self))
        #expect(ReleaseStore(bundle: fixture.target).current()?.signer == key.keyIDText)
    }

    /// A signed pull killed with SIGKILL at each step of the install leaves one whole release, and the next signed
    /// pull installs the new one.
    @Test(arguments: [InstallStep.firstFileWritten, .filesWritten, .linkMade, .swapped, .pruned])
    func aSignedPullKilledLeavesOneWholeRelease(step: InstallStep) throws {
        let fixture = try ReleaseFixture()
        let nginx = try fixture.nginxOrigin()
        let key = try fixture.makeKey()
        let first = try fixture.publishSigned(with: key)
        let arguments = ["pull", nginx.url, fixture.target, "--trusted-key", fixture.trustedKeyFile]
        #expect(try HotstringsProcess.run(arguments).code == 0)
        let second = try fixture.publishSignedChange(with: key)
        let killed = try HotstringsProcess.run(arguments,
                                               environment: [InstallStep.environmentVariable: String(step.rawValue)])
        #expect(killed.code == 9, "step \(step): \(killed.stderr)")
        let expected = step.rawValue >= InstallStep.swapped.rawValue ? second : first
        #expect(fixture.currentRelease == expected.release)
        #expect(try fixture.servesExactly(expected.release), "step \(step)")
        let next = try HotstringsProcess.run(arguments)
        #expect(next.code == 0, "\(next.stderr)")
        #expect(try fixture.servesExactly(second.release))
        #expect(ReleaseStore(bundle: fixture.target).highestSequence()?.sequence == second.sequence)
    }

    /// `serve --pull --trusted-key`: a refused manifest is a failed pull (retried, no reload, the release kept);
    /// the origin fixed, it installs; `status` shows the sequence, signer and expiry, and warns of an expiry
    /// within a day on standard error.
    @Test func aPullingDaemonRefusesAndRecovers() throws {
        let fixture = try ReleaseFixture()
        let nginx = try fixture.nginxOrigin()
        let key = try fixture.makeKey()
        let first = try fixture.publishSigned(with: key)
        let daemon = try PullingDaemon(bundle: fixture.target, url: nginx.url,
                                       arguments: ["--trusted-key", fixture.trustedKeyFile])
        try daemon.waitForRelease(first.release)
        let subscriber = try daemon.subscribe()
        let status = try HotstringsProcess.run(["status", "--socket", daemon.socket])
        #expect(status.stdout.contains("sequence") && status.stdout.contains("key \(key.publicKey.keyIDText)"),
                "\(status.stdout)")
        #expect(status.stdout.contains(try #require(first.expires)), "\(status.stdout)")
        #expect(!status.stderr.contains("expires"), "\(status.stderr)")
        let info = try #require(try daemon.status()["releaseInfo"] as? [String: Any])
        #expect(info["sequence"] as? Int == 1)
        #expect(info["signer"] as? String == key.publicKey.keyIDText)

        // Signed by another key: refused, reported, nothing reloads.
        let second = try fixture.publishSignedChange(with: MinisignSecretKey.generate())
        try waitUntil("the refused pull", timeout: .seconds(20)) {
            let pull = try daemon.pullStatus()
            return pull["result"] as? String == "failed"
                && "\(pull["error"] ?? "")".contains("not a trusted key")
        }
        #expect(try daemon.release() == first.release)
        #expect(subscriber.reloads == 0, "\(subscriber.stdout.text)")
        // Mid-upload: the next manifest is up, the trusted key's signature still the one of the manifest before;
        // a passing failure, no reload.
        let secondBytes = try FileSystem.readFile(atPath: fixture.output + "/manifest.json", maximumSize: 1 << 20)
        var soon = try fixture.servedManifest
        soon.expires = ReleaseTime.string(Date().addingTimeInterval(3600))
        try fixture.serveManifest(soon.json)
        let stale = key.signature(of: secondBytes, trustedComment: "timestamp:0\tfile:manifest.json\thashed")
        try FileSystem.writeFile(Array(stale.fileText.utf8), toPath: fixture.output + "/manifest.json.minisig")
        try waitUntil("the pull of a manifest and signature mid-upload", timeout: .seconds(20)) {
            "\(try daemon.pullStatus()["error"] ?? "")".contains("does not match the file")
        }
        #expect(try daemon.release() == first.release)
        #expect(subscriber.reloads == 0, "\(subscriber.stdout.text)")
        // The upload done (signed by the trusted key, expiring within a day): installed, one reload, a warning.
        _ = second
        try ReleaseSigning.signManifest(at: fixture.output + "/manifest.json", with: key)
        try daemon.waitForRelease(soon.release)
        try waitUntil("the release's reload", timeout: .seconds(10)) { subscriber.reloads == 1 }
        let warned = try HotstringsProcess.run(["status", "--socket", daemon.socket])
        #expect(warned.stderr.contains("expires at \(try #require(soon.expires))"), "\(warned.stderr)")
        // The daemon's own log warns too, once per manifest fetched; the first release, a month out, did not.
        #expect(!daemon.daemon.log.contains("\(first.release) expires"), "\(daemon.daemon.log)")
        try waitUntil("the daemon's warning", timeout: .seconds(10)) {
            daemon.daemon.log.contains("warning: pull: \(soon.release) expires at \(try #require(soon.expires))")
        }
        _ = subscriber.terminate()
        try daemon.terminate()
    }
}
