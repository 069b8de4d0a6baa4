import Foundation
import HotStringsRelease
import HotStringsTestSupport
import LinuxSystem
import Testing

/// `hotstrings serve --pull` against a real nginx: installs, one reload per release, 304s, status fields.
@Suite struct ServePullTests {
    @Test func aPublishedReleaseIsInstalledWithOneReloadAndAnUnchangedOriginIsA304() throws {
        let fixture = try ReleaseFixture()
        let nginx = try fixture.nginxOrigin()
        let first = try fixture.publish()
        // The bundle does not exist yet: serve --pull creates it and installs the first release. No release before
        // the current one is kept.
        let daemon = try PullingDaemon(bundle: fixture.target, url: nginx.url,
                                       arguments: ["--keep-releases", "0", "--pull-timeout", "5"])
        try daemon.waitForRelease(first)
        #expect(try fixture.servesExactly(first))
        // The first pull races the first scan: the language links appear only once `..data` leads somewhere.
        let lastErrors = try #require(try daemon.status()["lastErrors"] as? [Any])
        #expect(lastErrors.isEmpty, "\(lastErrors)")
        let subscriber = try daemon.subscribe()
        // A later pull finds the origin unchanged: one conditional request answered 304, in nginx's log and status.
        try waitUntil("a 304 for the manifest", timeout: .seconds(10)) {
            nginx.requests.contains("/manifest.json 304 0")
        }
        try waitUntil("status saying not-modified") { try daemon.pullStatus()["result"] as? String == "not-modified" }

        let second = try fixture.publishChange("zwei")
        try waitUntil("the new release's reload", timeout: .seconds(10)) { subscriber.reloads >= 1 }
        try daemon.waitForRelease(second)
        #expect(try daemon.germanGreeting().contains("Hallo zwei"))
        #expect(ReleaseStore(bundle: fixture.target).installed().map(\.id) == [second], "--keep-releases 0")
        // Pulls after the install find it current: still exactly one reload, no error.
        try daemon.waitForUnchangedPull(after: Date().addingTimeInterval(0.5))
        #expect(subscriber.reloads == 1, "\(subscriber.stdout.text)")
        #expect(subscriber.errorEvents.isEmpty, "\(subscriber.stdout.text)")

        let pull = try daemon.pullStatus()
        #expect(pull["url"] as? String == nginx.url + "/manifest.json")
        #expect(pull["interval"] as? Double == 1)
        #expect(pull["failures"] as? Int == 0)
        #expect(pull["error"] is NSNull)
        let lastPull = try #require(statusDate(pull["lastPull"]))
        if let next = statusDate(pull["nextPull"]) {
            // 90-100% of the interval after the last pull.
            #expect(next.timeIntervalSince(lastPull) >= 0.89 && next.timeIntervalSince(lastPull) <= 1.01, "\(pull)")
        } else {
            #expect(pull["state"] as? String == "pulling", "\(pull)")
        }
        let text = try HotstringsProcess.run(["status", "--socket", daemon.socket]).stdout
        let rows = text.split(separator: "\n").map(String.init)
        func row(_ label: String) -> String? { rows.first { $0.hasPrefix(label + "  ") } }
        #expect(row("release")?.hasSuffix(" " + second) == true, "\(text)")
        #expect(row("pull")?.hasSuffix(" " + nginx.url + "/manifest.json every 1 s") == true, "\(text)")
        #expect(row("last pull")?.contains(" not modified") == true || row("next pull") == nil, "\(text)")
        #expect(row("next pull") != nil && row("last success") != nil, "\(text)")
        // The puller runs on a thread of its own, named for what it does.
        let threads = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(daemon.daemon.pid)/task")) ?? []
        let names = threads.compactMap { try? String(contentsOfFile: "/proc/\(daemon.daemon.pid)/task/\($0)/comm",
                                                     encoding: .utf8) }
        #expect(names.contains("hotstrings-pull\n"), "\(names)")
        _ = subscriber.terminate()
        #expect(try daemon.terminate() == 0)
        #expect(daemon.daemon.log.contains("pull: installed \(second) (was \(first);"), "\(daemon.daemon.log)")
    }

    @Test func aBundleWithLanguageFoldersOfItsOwnIsRefused() throws {
        let sandbox = try Sandbox(prefix: "hs-pull-own-")
        let run = try HotstringsProcess.run(["serve", sandbox.bundle, "--socket", sandbox.socket, "--state-dir",
                                             sandbox.stateDirectory, "--pull", "http://127.0.0.1:9/"])
        #expect(run.code == 1, "\(run.stderr)")
        #expect(run.stderr.contains("cannot pull into") && run.stderr.contains("of its own"), "\(run.stderr)")
    }

    @Test(arguments: [
        (["--pull", "ftp://example.com/tr"], "--pull: invalid manifest"),
        (["--pull", "not a url"], "--pull: invalid manifest"),
        (["--pull", "http://127.0.0.1:9", "--pull-interval", "0"],
         "--pull-interval takes a duration from 100ms to 24h, not '0'"),
        (["--pull", "http://127.0.0.1:9", "--pull-interval", "soon"],
         "--pull-interval takes a duration such as 50ms, 1.5s or 2m (a plain number is seconds), not 'soon'"),
        (["--pull", "http://127.0.0.1:9", "--pull-interval", "90000"],
         "--pull-interval takes a duration from 100ms to 24h, not '90000'"),
        (["--pull-interval", "5"], "--pull-interval needs --pull"),
        (["--keep-releases", "2"], "--keep-releases needs --pull"),
        (["--pull-timeout", "2"], "--pull-timeout needs --pull"),
        (["--pull", "http://127.0.0.1:9", "--keep-releases", "5000"], "--keep-releases takes a whole number"),
        (["--pull", "http://127.0.0.1:9", "--pull-timeout", "0"],
         "--pull-timeout takes a duration more than 0 and at most 1h, not '0'"),
        (["--pull", "http://127.0.0.1:9", "--max-download-size", "0"], "--max-download-size takes a whole number"),
    ])
    func badPullOptionsAreUsageErrors(arguments: [String], message: String) throws {
        let sandbox = try Sandbox(prefix: "hs-pull-usage-")
        let run = try HotstringsProcess.run(["serve", sandbox.root + "/empty", "--socket", sandbox.socket] + arguments)
        #expect(run.code == 64, "\(arguments): \(run.stderr)")
        #expect(run.stderr.contains(message), "\(arguments): \(run.stderr)")
    }

    @Test func helpDocumentsPulling() throws {
        let run = try HotstringsProcess.run(["serve", "--help"])
        #expect(run.code == 0)
        #expect(run.stdout.contains("--pull <url>") && run.stdout.contains("--pull-interval <duration>"),
                "\(run.stdout)")
        for option in ["--keep-releases <count>", "--pull-timeout <duration>", "--max-download-size <bytes>",
                       "--max-manifest-size <bytes>", "--max-redirects <count>"] {
            #expect(run.stdout.contains(option), "\(option) in \(run.stdout)")
        }
        #expect(run.stdout.contains("5 minutes"), "\(run.stdout)")
    }
}
