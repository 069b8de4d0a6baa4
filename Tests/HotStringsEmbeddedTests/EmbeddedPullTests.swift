import Foundation
import HotStringsClient
import HotStringsEmbedded
import HotStringsProtocol
import HotStringsRelease
import HotStringsTestSupport
import StringsFormat
import Synchronization
import Testing

/// A bundle to publish, a publish folder served by the fault origin, and an embedded client pulling from it into
/// a bundle that does not exist yet.
final class EmbeddedPullFixture {
    let sandbox: Sandbox
    let origin: FaultOrigin
    let transport: EmbeddedTransport
    let strings: LiveStrings
    let probe = ChangeProbe()
    let reports = PullReports()
    private var token: ReloadToken?
    var output: String { sandbox.root + "/published" }
    var target: String { sandbox.root + "/pulled" }

    init(interval: Duration = .milliseconds(200)) throws {
        sandbox = try Sandbox(prefix: "hs-embedded-pull-")
        try FileManager.default.createDirectory(atPath: sandbox.root + "/published", withIntermediateDirectories: true)
        origin = try FaultOrigin(root: sandbox.root + "/published")
        _ = try Publisher().publish(bundle: sandbox.bundle, to: sandbox.root + "/published")
        let source = LiveStrings.PullSource(url: origin.url, interval: interval,
                                            onFailure: { [reports] in reports.failed($0) },
                                            onInstall: { [reports] in reports.installed($0) })
        transport = try EmbeddedTransport(bundle: sandbox.root + "/pulled", options: LiveStrings.EmbeddedOptions(),
                                          pull: source)
        strings = LiveStrings(transport: transport,
                              configuration: LiveStrings.Configuration(environment: ["LANG": "de"]))
        token = strings.onReload { [probe] change in probe.record(change) }
    }

    deinit {
        strings.stop()
    }

    /// Sets the German greeting in the published bundle and publishes it; the release id.
    @discardableResult
    func publishGreeting(_ greeting: String) throws -> String {
        let path = "de.lproj/Localizable.strings"
        try sandbox.save(try sandbox.read(path) + "\n\"greeting\" = \"\(greeting)\";\n", to: path)
        return try Publisher().publish(bundle: sandbox.bundle, to: output).manifest.release
    }

    /// The reload hooks' calls for reloads (not snapshots).
    var reloads: Int { probe.changes.filter { $0.cause == .reload }.count }
}

/// What the pull source's callbacks reported.
final class PullReports: Sendable {
    private let state = Mutex<(failures: [FileProblem], installs: [String])>(([], []))

    var failures: [FileProblem] { state.withLock { $0.failures } }
    var installs: [String] { state.withLock { $0.installs } }

    func failed(_ problem: FileProblem) { state.withLock { $0.failures.append(problem) } }
    func installed(_ release: String) { state.withLock { $0.installs.append(release) } }
}

/// `LiveStrings.embedded(bundle:pull:)`: the daemon's puller inside the app, with the same behaviour.
struct EmbeddedPullTests {
    @Test func aPublishedReleaseIsOneReloadAndAFailedPullKeepsTheLastGoodValues() async throws {
        let fixture = try EmbeddedPullFixture()
        let strings = fixture.strings
        #expect(await strings.waitUntilSynchronized(timeout: .seconds(30)))
        try await pollUntil("the first release") { strings.localizedString("greeting") == "Hallo!" }

        let reloadsBefore = fixture.reloads
        let second = try fixture.publishGreeting("Servus aus dem Netz")
        try await pollUntil("the second release") { strings.localizedString("greeting") == "Servus aus dem Netz" }
        try await pollUntil("the install report") { fixture.reports.installs.last == second }
        try await pollUntil("the second release's reload") { fixture.reloads >= reloadsBefore + 1 }
        #expect(fixture.reloads == reloadsBefore + 1, "\(fixture.probe.changes)")

        // A release whose German table arrives with a wrong byte: nothing installed, reported once, old values.
        try fixture.origin.setFault(.wrongBytes, for: "/files/")
        try fixture.publishGreeting("Kaputt")
        try await pollUntil("the failure report") { !fixture.reports.failures.isEmpty }
        let problem = try #require(fixture.reports.failures.first)
        #expect(problem.file == "de.lproj/Localizable.strings" && problem.message.contains("SHA-256 mismatch"),
                "\(problem)")
        #expect(strings.localizedString("greeting") == "Servus aus dem Netz")
        let status = try await fixture.transport.request(.status)
        #expect(status["release"]?.stringValue == second)
        #expect(status["pull"]?["result"]?.stringValue == "failed", "\(status)")
        #expect(status["pull"]?["error"]?["file"]?.stringValue == "de.lproj/Localizable.strings")
        #expect(fixture.transport.pullStatus?.consecutiveFailures ?? 0 >= 1)

        // The origin is fixed: the release is installed, one more reload.
        try fixture.origin.setFault(nil, for: "/files/")
        try await pollUntil("the recovery") { strings.localizedString("greeting") == "Kaputt" }
        // A lookup sees the new snapshot as soon as it is published, a moment before the reload hook runs: the
        // count is awaited, then checked again once the pull has recorded its success (no second reload came).
        try await pollUntil("the recovery's reload") { fixture.reloads >= reloadsBefore + 2 }
        #expect(fixture.reports.failures.count == 1)
        // The watcher can deliver the swap's reload before the pull loop, still pruning, records its success.
        try await pollUntil("the pull's success recorded") { fixture.transport.pullStatus?.consecutiveFailures == 0 }
        #expect(fixture.reloads == reloadsBefore + 2, "\(fixture.probe.changes)")
    }

    @Test func stopEndsThePuller() async throws {
        let fixture = try EmbeddedPullFixture()
        #expect(await fixture.strings.waitUntilSynchronized(timeout: .seconds(30)))
        try await pollUntil("the first release") { fixture.strings.localizedString("greeting") == "Hallo!" }
        fixture.strings.stop()
        try await pollUntil("every thread to end") { fixture.transport.hasFinished }
    }

    /// The source's size cap reaches the puller: a release naming a larger file is not installed, and says why.
    @Test func aFileOverTheSourcesSizeCapInstallsNothing() async throws {
        let sandbox = try Sandbox(prefix: "hs-embedded-pull-cap-")
        let published = sandbox.root + "/published"
        try FileManager.default.createDirectory(atPath: published, withIntermediateDirectories: true)
        let origin = try FaultOrigin(root: published)
        _ = try Publisher().publish(bundle: sandbox.bundle, to: published)
        let reports = PullReports()
        let source = LiveStrings.PullSource(url: origin.url, interval: .milliseconds(200), maximumFileSize: 16,
                                            timeout: .seconds(5), onFailure: { [reports] in reports.failed($0) })
        let strings = try LiveStrings.embedded(bundle: sandbox.root + "/pulled", pull: source)
        defer { strings.stop() }
        try await pollUntil("a failed pull") { !reports.failures.isEmpty }
        let failure = try #require(reports.failures.first)
        #expect("\(failure)".contains("is over the cap of 16"), "\(failure)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.root + "/pulled/..data"), "nothing installed")
    }

    @Test func aReleaseOverTheSourcesTotalCapInstallsNothing() async throws {
        let sandbox = try Sandbox(prefix: "hs-embedded-pull-total-")
        let published = sandbox.root + "/published"
        try FileManager.default.createDirectory(atPath: published, withIntermediateDirectories: true)
        let origin = try FaultOrigin(root: published)
        _ = try Publisher().publish(bundle: sandbox.bundle, to: published)
        let reports = PullReports()
        let source = LiveStrings.PullSource(url: origin.url, interval: .milliseconds(200), maximumReleaseSize: 64,
                                            timeout: .seconds(5), onFailure: { [reports] in reports.failed($0) })
        let strings = try LiveStrings.embedded(bundle: sandbox.root + "/pulled", pull: source)
        defer { strings.stop() }
        try await pollUntil("a failed pull") { !reports.failures.isEmpty }
        let failure = try #require(reports.failures.first)
        #expect("\(failure)".contains("over the cap of 64 (--max-release-size)"), "\(failure)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.root + "/pulled/..data"), "nothing installed")
    }

    /// `PullSource(trustedKeys:)`: a release signed by the key installs; one signed by another key is reported
    /// and the last good values stay.
    @Test func trustedKeysInstallOnlyWhatTheKeySigned() async throws {
        let sandbox = try Sandbox(prefix: "hs-embedded-pull-trust-")
        let output = sandbox.root + "/published"
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        let origin = try FaultOrigin(root: output)
        let key = MinisignSecretKey.generate()
        func publish(_ greeting: String, signedBy signer: MinisignSecretKey) throws {
            let path = "de.lproj/Localizable.strings"
            try sandbox.save(try sandbox.read(path) + "\n\"greeting\" = \"\(greeting)\";\n", to: path)
            var publisher = Publisher()
            publisher.expiresIn = .seconds(86_400)
            _ = try publisher.publish(bundle: sandbox.bundle, to: output)
            try ReleaseSigning.signManifest(at: output + "/manifest.json", with: signer)
        }
        try publish("Signiert", signedBy: key)
        let reports = PullReports()
        // The key line alone (without the comment line) is a key too.
        let keyLine = String(key.publicKey.fileText.split(separator: "\n")[1])
        let source = LiveStrings.PullSource(url: origin.url, interval: .milliseconds(200), trustedKeys: [keyLine],
                                            onFailure: { reports.failed($0) })
        let strings = try LiveStrings.embedded(bundle: sandbox.root + "/pulled", pull: source,
                                               configuration: LiveStrings.Configuration(environment: ["LANG": "de"]))
        defer { strings.stop() }
        try await pollUntil("the signed release") { strings.localizedString("greeting") == "Signiert" }
        try publish("Gefälscht", signedBy: MinisignSecretKey.generate())
        // A pull between the manifest's write and its signature's sees the old signature: a passing failure.
        let isRefusal = { (problem: FileProblem) in
            problem.message.contains("not a trusted key") && problem.file.hasSuffix("manifest.json.minisig")
        }
        try await pollUntil("the refusal") { reports.failures.contains(where: isRefusal) }
        for problem in reports.failures where !isRefusal(problem) {
            #expect(problem.message.contains("a manifest and signature being uploaded pass"), "\(problem)")
        }
        #expect(strings.localizedString("greeting") == "Signiert")
    }

    @Test func badPullSourcesAreStartErrors() throws {
        let sandbox = try Sandbox(prefix: "hs-embedded-pull-bad-")
        let cases: [(String, LiveStrings.PullSource, String, EmbeddedStartError.Code)] = [
            (sandbox.root + "/new", .init(url: "ftp://example.com/tr"), "not an http:// or https:// URL", .cannotPull),
            (sandbox.root + "/new", .init(url: "http://127.0.0.1:9", interval: .zero),
             "interval takes seconds from 0.1 to 86400", .invalidOption),
            (sandbox.bundle, .init(url: "http://127.0.0.1:9"), "of its own", .cannotPull),
            (sandbox.root + "/new", .init(url: "http://127.0.0.1:9", maximumFileSize: 0), "maximumFileSize",
             .invalidOption),
            (sandbox.root + "/new", .init(url: "http://127.0.0.1:9", maximumReleaseSize: 0), "maximumReleaseSize",
             .invalidOption),
            (sandbox.root + "/new", .init(url: "http://127.0.0.1:9", timeout: .zero),
             "timeout takes seconds, more than 0", .invalidOption),
            (sandbox.root + "/new", .init(url: "http://127.0.0.1:9", trustedKeys: [MinisignSecretKey.generate()
                .publicKey.fileText, "not a key"]), "trustedKeys[1] is not a minisign public key", .invalidOption),
        ]
        for (bundle, source, message, code) in cases {
            #expect {
                _ = try LiveStrings.embedded(bundle: bundle, pull: source)
            } throws: { error in
                "\(error)".contains(message) && (error as? EmbeddedStartError)?.code == code
            }
        }
    }

    /// Embedded mode refuses what `serve --pull` refuses (issue 21): the ranges are checked in one place for both;
    /// `keptReleases` was once only sign-checked here, while `--keep-releases` took 0 to 1000.
    @Test func embeddedModeRefusesWhatServeRefuses() throws {
        let sandbox = try Sandbox(prefix: "hs-embedded-pull-range-")
        let url = "http://127.0.0.1:9"
        // As --keep-releases 5000, --pull-interval 0.05 and 90000, --max-download-size 2 GiB, --pull-timeout 7200.
        let cases: [(LiveStrings.PullSource, String)] = [
            (.init(url: url, keptReleases: 5000), "keptReleases takes a whole number from 0 to 1000"),
            (.init(url: url, interval: .milliseconds(50)), "interval takes seconds from 0.1 to 86400"),
            (.init(url: url, interval: .seconds(90_000)), "interval takes seconds from 0.1 to 86400"),
            (.init(url: url, maximumFileSize: 2 << 30), "maximumFileSize takes a whole number from 1 to"),
            (.init(url: url, timeout: .seconds(7200)), "timeout takes seconds, more than 0 and at most 3600"),
        ]
        for (source, message) in cases {
            #expect {
                _ = try LiveStrings.embedded(bundle: sandbox.root + "/new", pull: source)
            } throws: { error in
                "\(error)".contains(message)
            }
        }
        // As --development-language Base.
        #expect {
            _ = try LiveStrings.embedded(bundle: sandbox.bundle, options: .init(developmentLanguage: "Base"))
        } throws: { error in
            "\(error)".contains("developmentLanguage takes a language tag")
        }
    }

    /// Start errors carry a code to decide by (issue 21: public errors that can grow).
    @Test func startErrorsHaveCodesThatCatchClausesMatch() throws {
        let sandbox = try Sandbox(prefix: "hs-embedded-start-codes-")
        let file = sandbox.root + "/a-file"
        #expect(FileManager.default.createFile(atPath: file, contents: Data("x".utf8)))
        do {
            // A state directory inside a regular file cannot be made.
            _ = try LiveStrings.embedded(bundle: sandbox.bundle, options: .init(stateDirectory: file + "/state"))
            Issue.record("a state directory inside a file was accepted")
        } catch EmbeddedStartError.Code.cannotSaveSelection {
            // The code alone matched.
        } catch {
            Issue.record("not cannotSaveSelection: \(error)")
        }
        let wrong: any Error = EmbeddedStartError(description: "made by an app")
        switch wrong {
        case EmbeddedStartError.Code.other: break
        default: Issue.record("init(description:) is not .other")
        }
        #expect(EmbeddedStartError.Code.invalidOption.description == "invalidOption")
    }
}
