import Foundation
import HotStringsRelease
import HotStringsTestSupport
import LinuxSystem
import Testing

/// `pull --trusted-key` against a real nginx, with a daemon subscribed to the bundle: every refusal (no
/// signature, a bad one, an unknown key, a rollback, an expired manifest, other content under the installed
/// sequence) exits 1 naming the reason, leaves the bundle tree as it was and sends no reload; the origin fixed,
/// the next pull installs.
@Suite struct TrustedPullTests {
    @Test func eachRefusalChangesNothingAndAFixedOriginInstalls() throws {
        let fixture = try ReleaseFixture()
        let nginx = try fixture.nginxOrigin()
        let key = try fixture.makeKey()
        let first = try fixture.publishSigned(with: key)
        let firstSignature = try FileSystem.readFile(atPath: fixture.output + "/manifest.json.minisig",
                                                     maximumSize: 1 << 16)
        func pull() throws -> ProcessRun {
            try HotstringsProcess.run(["pull", nginx.url, fixture.target, "--trusted-key", fixture.trustedKeyFile])
        }
        let installed = try pull()
        #expect(installed.code == 0, "\(installed.stderr)")
        #expect(fixture.currentRelease == first.release)
        let socket = fixture.sandbox.root + "/pulled.sock"
        let daemon = try DaemonProcess(bundle: fixture.target, socket: socket,
                                stateDirectory: fixture.sandbox.root + "/pulled-state")
        try daemon.waitUntilServing()
        let subscriber = try HotstringsProcess.subscriber(socket: socket)

        let second = try fixture.publishSignedChange("zwei", with: key)
        #expect(try pull().code == 0)
        try waitUntil("the second release's reload", timeout: .seconds(10)) { subscriber.reloads >= 1 }
        let third = try fixture.publishSignedChange("drei", with: key)
        #expect(third.sequence == 3)
        let other = MinisignSecretKey.generate()
        let refusals: [(String, () throws -> Void)] = [
            ("no signature (HTTP status 404)", {
                try FileSystem.removeFile(atPath: fixture.output + "/manifest.json.minisig")
            }),
            ("does not match the file", {
                try fixture.serveSigned(third, with: key)
                var changed = third
                changed.created = "2000-01-01T00:00:00Z"
                try fixture.serveManifest(changed.json)
            }),
            ("not a trusted key", { try fixture.serveSigned(third, with: other) }),
            ("lower than 2, the highest installed", {
                // Release 1 again, as it was signed: a replay.
                try fixture.serveManifest(first.json)
                try FileSystem.writeFile(firstSignature, toPath: fixture.output + "/manifest.json.minisig")
            }),
            ("expired at", {
                var stale = third
                stale.expires = ReleaseTime.string(Date().addingTimeInterval(-Puller.clockSkew - 60))
                try fixture.serveSigned(stale, with: key)
            }),
            ("the same sequence with other content", {
                var clash = first
                clash.sequence = second.sequence
                try fixture.serveSigned(clash, with: key)
            }),
        ]
        for (reason, breakOrigin) in refusals {
            try breakOrigin()
            let before = fixture.targetPicture
            let reloads = subscriber.reloads
            let refused = try pull()
            #expect(refused.code == 1, "\(reason): \(refused.stdout) \(refused.stderr)")
            #expect(refused.stderr.contains("nothing installed"), "\(refused.stderr)")
            #expect(refused.stderr.contains(reason), "\(reason): \(refused.stderr)")
            #expect(fixture.targetPicture == before, "\(reason)")
            #expect(fixture.currentRelease == second.release)
            #expect(subscriber.reloads == reloads, "\(reason): \(subscriber.stdout.text)")
        }
        // Fixed: the third release, well signed, installs, one reload.
        let reloads = subscriber.reloads
        try fixture.serveSigned(third, with: key)
        let fixed = try pull()
        #expect(fixed.code == 0, "\(fixed.stderr)")
        #expect(fixture.currentRelease == third.release)
        #expect(try fixture.servesExactly(third.release))
        try waitUntil("the fixed release's reload", timeout: .seconds(10)) { subscriber.reloads > reloads }
        _ = subscriber.terminate()
        _ = try daemon.terminate()
    }

    /// The same sequence and content again changes nothing; a higher sequence of the same content (an expiry
    /// extended) is recorded without an install; a local rollback does not lower the highest sequence.
    @Test func anExtendedExpiryIsRecordedAndARollbackKeepsTheHighest() throws {
        let fixture = try ReleaseFixture()
        let nginx = try fixture.nginxOrigin()
        let key = try fixture.makeKey()
        let options = try fixture.options(nginx.url, trusting: key)
        let puller = Puller(bundle: fixture.target, options: options)
        let first = try fixture.publishSigned(with: key)
        _ = try puller.pull()
        let store = ReleaseStore(bundle: fixture.target)
        #expect(store.current()?.signer == key.publicKey.keyIDText)
        #expect(store.highestSequence()?.sequence == 1)
        let before = fixture.targetPicture
        #expect(try puller.pull().kind == .notModified)
        #expect(fixture.targetPicture == before)

        let extended = try fixture.publishSigned(with: key, expiresIn: .seconds(86_400 * 60))
        #expect(extended.release == first.release && extended.sequence == 2)
        let folder = try #require(store.current()?.folderName)
        #expect(try puller.pull().kind == .unchanged)
        #expect(store.current()?.folderName == folder)
        #expect(store.current()?.manifest.sequence == 2)
        #expect(store.current()?.manifest.expires == extended.expires)
        #expect(store.highestSequence()?.sequence == 2)

        let second = try fixture.publishSignedChange(with: key)
        #expect(try puller.pull().kind == .installed(previous: first.release))
        _ = try store.locked { () throws(ReleaseError) in try store.rollback() }
        #expect(fixture.currentRelease == first.release)
        #expect(store.highestSequence()?.sequence == 3)
        // The origin replaying release 1's manifest (sequence 2) is refused even though 1 is current locally.
        try fixture.serveSigned(extended, with: key)
        #expect {
            try puller.pull()
        } throws: { error in
            "\(error)".contains("lower than 3")
        }
        try fixture.serveSigned(second, with: key)
        #expect(try puller.pull().kind == .installed(previous: first.release))
    }

    /// `publish --from-release` rolls every machine back: the old content with a new sequence, made current
    /// again from the kept release without a download.
    @Test func publishFromReleaseRollsPullersBack() throws {
        let fixture = try ReleaseFixture()
        let nginx = try fixture.nginxOrigin()
        let key = try fixture.makeKey()
        let secret = fixture.sandbox.root + "/trusted.key"
        try FileSystem.writeFile(Array(key.fileText.utf8), toPath: secret, mode: 0o600)
        let first = try fixture.publishSigned(with: key)
        func pull() throws -> ProcessRun {
            try HotstringsProcess.run(["pull", nginx.url, fixture.target, "--trusted-key", fixture.trustedKeyFile])
        }
        #expect(try pull().code == 0)
        try fixture.publishSignedChange(with: key)
        #expect(try pull().code == 0)
        let back = try HotstringsProcess.run(["publish", "--from-release", first.release, fixture.output,
                                              "--sign", secret])
        #expect(back.code == 0, "\(back.stderr)")
        #expect(back.stdout.contains("sequence 3"), "\(back.stdout)")
        #expect(try fixture.servedManifest.release == first.release)
        #expect(try fixture.servedManifest.files == first.files)
        let pulled = try pull()
        #expect(pulled.code == 0, "\(pulled.stderr)")
        #expect(pulled.stdout.contains("installed \(first.release)"), "\(pulled.stdout)")
        #expect(try fixture.servesExactly(first.release))
        #expect(ReleaseStore(bundle: fixture.target).highestSequence()?.sequence == 3)
        let unknown = try HotstringsProcess.run(["publish", "--from-release", "nope", fixture.output])
        #expect(unknown.code == 1 && unknown.stderr.contains("releases/nope.json"), "\(unknown.stderr)")
    }

    /// A file that does not match the signed manifest, and a signature missing behind a fault origin, install
    /// nothing; the origin fixed, the pull installs.
    @Test(arguments: [
        (FaultOrigin.Fault.wrongBytes, "/files/", "SHA-256 mismatch"),
        (.missing, "/manifest.json.minisig", "no signature"),
        (.status503, "/manifest.json.minisig", "HTTP status 503"),
    ])
    func aFaultOriginInstallsNothing(fault: FaultOrigin.Fault, prefix: String, reason: String) throws {
        let fixture = try ReleaseFixture()
        try FileSystem.makeDirectory(atPath: fixture.output)
        let origin = try FaultOrigin(root: fixture.output)
        let key = try fixture.makeKey()
        let options = try fixture.options(origin.url, trusting: key)
        let puller = Puller(bundle: fixture.target, options: options)
        let first = try fixture.publishSigned(with: key)
        _ = try puller.pull()
        let second = try fixture.publishSignedChange(with: key)
        try origin.setFault(fault, for: prefix)
        let before = fixture.targetPicture
        #expect {
            try puller.pull()
        } throws: { error in
            "\(error)".contains(reason)
        }
        #expect(fixture.targetPicture == before)
        #expect(fixture.currentRelease == first.release)
        try origin.setFault(nil, for: prefix)
        #expect(try puller.pull().kind == .installed(previous: first.release))
        #expect(try fixture.servesExactly(second.release))
    }

    /// Without --trusted-key a pull ignores signatures, sequences and expiry, as before.
    @Test func withoutTrustedKeysNothingIsChecked() throws {
        let fixture = try ReleaseFixture()
        let nginx = try fixture.nginxOrigin()
        let key = try fixture.makeKey()
        var stale = try fixture.publishSigned(with: key)
        stale.expires = "2001-01-01T00:00:00Z"
        try fixture.serveSigned(stale, with: MinisignSecretKey.generate())
        let run = try HotstringsProcess.run(["pull", nginx.url, fixture.target])
        #expect(run.code == 0, "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: fixture.target + "/..sequence.json"))
    }

    /// An unreadable or malformed key file is a usage error, for pull and serve --pull alike.
    @Test func aBadTrustedKeyIsAUsageError() throws {
        let fixture = try ReleaseFixture()
        let garbage = fixture.sandbox.root + "/garbage.pub"
        try FileSystem.writeFile(Array("untrusted comment: x\nnot base64\n".utf8), toPath: garbage)
        for file in [garbage, fixture.sandbox.root + "/missing.pub"] {
            let run = try HotstringsProcess.run(["pull", "http://127.0.0.1:9/", fixture.target, "--trusted-key", file])
            #expect(run.code == 64, "\(run.stderr)")
            #expect(run.stderr.contains("--trusted-key") && run.stderr.contains(file.hasSuffix("garbage.pub")
                ? "garbage.pub" : "missing.pub"), "\(run.stderr)")
        }
        let serve = try HotstringsProcess.run(["serve", fixture.target, "--trusted-key", garbage])
        #expect(serve.code == 64 && serve.stderr.contains("needs --pull"), "\(serve.stderr)")
        #expect(!FileManager.default.fileExists(atPath: fixture.target))
    }

    /// A manifest is expired only past its `expires` plus the clock-skew allowance.
    @Test func expiryAllowsFiveMinutesOfSkew() throws {
        let fixture = try ReleaseFixture()
        let nginx = try fixture.nginxOrigin()
        let key = try fixture.makeKey()
        let options = try fixture.options(nginx.url, trusting: key)
        var manifest = try fixture.publishSigned(with: key)
        manifest.expires = ReleaseTime.string(Date().addingTimeInterval(-Puller.clockSkew + 60))
        try fixture.serveSigned(manifest, with: key)
        #expect(try Puller(bundle: fixture.target, options: options).pull().kind == .installed(previous: nil))
    }

    /// `pull` warns on standard error when the release it leaves current expires within a day.
    @Test func aReleaseExpiringWithinADayIsWarnedAbout() throws {
        let fixture = try ReleaseFixture()
        let nginx = try fixture.nginxOrigin()
        let key = try fixture.makeKey()
        let arguments = ["pull", nginx.url, fixture.target, "--trusted-key", fixture.trustedKeyFile]
        try fixture.publishSigned(with: key, expiresIn: .seconds(86_400 * 2))
        let calm = try HotstringsProcess.run(arguments)
        #expect(calm.code == 0 && !calm.stderr.contains("expires"), "\(calm.stderr)")
        let soon = try fixture.publishSigned(with: key, expiresIn: .seconds(3600))
        let warned = try HotstringsProcess.run(arguments)
        #expect(warned.code == 0, "\(warned.stderr)")
        #expect(warned.stderr.contains("expires at \(try #require(soon.expires))"), "\(warned.stderr)")
    }

    /// A release installed before `--trusted-key` was given (unsigned) is never "up to date" under it: the pull asks
    /// without validators, so nginx answers 200, not 304, and the missing signature fails the pull (exit 1, nothing
    /// changed) instead of "not modified" for ever. The same release published signed is then recorded with its
    /// signer, without an install, and only from then on is a 304 enough.
    @Test func anUnverifiedCurrentReleaseIsVerifiedNotAnswered304() throws {
        let fixture = try ReleaseFixture()
        let nginx = try fixture.nginxOrigin()
        let key = try fixture.makeKey()
        let release = try fixture.publish()
        let plain = try HotstringsProcess.run(["pull", nginx.url, fixture.target])
        #expect(plain.code == 0, "\(plain.stderr)")
        let store = ReleaseStore(bundle: fixture.target)
        #expect(store.current()?.id == release && store.current()?.signer == nil)
        func pull() throws -> ProcessRun {
            try HotstringsProcess.run(["pull", nginx.url, fixture.target, "--trusted-key", fixture.trustedKeyFile])
        }
        for _ in 0..<2 {
            let before = fixture.targetPicture
            let refused = try pull()
            #expect(refused.code == 1, "\(refused.stdout) \(refused.stderr)")
            #expect(refused.stderr.contains("no signature (HTTP status 404)"), "\(refused.stderr)")
            #expect(!refused.stdout.contains("not modified"), "\(refused.stdout)")
            #expect(fixture.targetPicture == before)
        }
        try waitUntil("nginx's log of the three manifest requests") {
            nginx.requests.filter { $0.hasPrefix("/manifest.json ") }.count == 3
        }
        #expect(!nginx.requests.contains { $0.hasPrefix("/manifest.json 304") }, "\(nginx.requests)")

        let signed = try fixture.publishSigned(with: key)
        #expect(signed.release == release)
        let recorded = try pull()
        #expect(recorded.code == 0, "\(recorded.stderr)")
        #expect(recorded.stdout.hasPrefix("unchanged: \(release) is current"), "\(recorded.stdout)")
        #expect(store.current()?.signer == key.publicKey.keyIDText)
        let current = try pull()
        #expect(current.code == 0 && current.stdout.hasPrefix("not modified: \(release)"), "\(current.stdout)")
        try waitUntil("nginx's log of the 304") { nginx.requests.contains { $0.hasPrefix("/manifest.json 304") } }
        // A key dropped from the trusted ones: its release is no longer up to date either.
        let other = MinisignSecretKey.generate()
        try FileSystem.writeFile(Array(other.publicKey.fileText.utf8), toPath: fixture.trustedKeyFile)
        let dropped = try pull()
        #expect(dropped.code == 1 && dropped.stderr.contains("not a trusted key"), "\(dropped.stderr)")
    }
}
