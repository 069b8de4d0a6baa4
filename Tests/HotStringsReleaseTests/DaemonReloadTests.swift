import Foundation
import HotStringsRelease
import HotStringsTestSupport
import LinuxSystem
import Testing

/// A real daemon serving a bundle that pulls install into: one `reload` per release, the new values served.
@Suite struct PulledReleaseReloadTests {
    @Test func eachReleaseIsOneReload() throws {
        let fixture = try ReleaseFixture()
        let nginx = try fixture.nginxOrigin()
        try fixture.publish()
        // Pulled by `hotstrings pull`, as a timer would run it: a pull in this process would write the release
        // while other tests spawn children, which hold the files' descriptors until their exec; closing them then
        // makes the watcher read a file once more, possibly in a batch after the swap's.
        func pull() throws {
            let run = try HotstringsProcess.run(["pull", nginx.url, fixture.target])
            #expect(run.code == 0, "\(run.stdout) \(run.stderr)")
        }
        try pull()
        let socket = fixture.sandbox.root + "/pulled.sock"
        let daemon = try DaemonProcess(bundle: fixture.target, socket: socket,
                                stateDirectory: fixture.sandbox.root + "/pulled-state")
        try daemon.waitUntilServing()
        let subscriber = try HotstringsProcess(["subscribe", "--socket", socket])
        try subscriber.stdout.wait(untilContains: #""event":"snapshot""#)
        func reloads() -> Int { subscriber.stdout.text.components(separatedBy: #""event":"reload""#).count - 1 }

        // A release that changes a value: one reload, the new value served.
        try fixture.publishChange("eins")
        try pull()
        try waitUntil("the first release's reload", timeout: .seconds(10)) { reloads() >= 1 }
        let get = try HotstringsProcess.run(["get", "greeting", "--language", "de", "--socket", socket])
        #expect(get.stdout.contains("Hallo eins"), "\(get.stdout) \(get.stderr)")
        #expect(try HotstringsProcess.run(["select-language", "fr", "--socket", socket]).code == 0)
        try subscriber.stdout.wait(untilContains: #""event":"language""#)
        #expect(reloads() == 1, "\(subscriber.stdout.text)")

        // A release that adds a language and drops one.
        try FileSystem.removeRecursively(atPath: fixture.source + "/zh-Hans.lproj")
        try fixture.sandbox.write("\"greeting\" = \"Ciao\";\n", to: "it.lproj/Localizable.strings")
        try fixture.publish()
        try pull()
        try waitUntil("the second release's reload", timeout: .seconds(10)) { reloads() >= 2 }
        let italian = try HotstringsProcess.run(["get", "greeting", "--language", "it", "--socket", socket])
        #expect(italian.stdout.contains("Ciao"), "\(italian.stdout) \(italian.stderr)")
        #expect(try HotstringsProcess.run(["select-language", "de", "--socket", socket]).code == 0)
        try subscriber.stdout.wait(for: "the second language event") {
            $0.components(separatedBy: #""event":"language""#).count == 3
        }
        // One reload for the release, the dropped language's deletion included (not a reload of its own after it).
        #expect(reloads() == 2, "\(subscriber.stdout.text)")
        let last = subscriber.stdout.text.components(separatedBy: "\n").last { $0.contains(#""event":"reload""#) }
        #expect(last?.contains(#""language":"zh-Hans""#) == true,
                "the dropped language is deleted in the release's reload: \(subscriber.stdout.text)")
        #expect(!subscriber.stdout.text.contains(#""event":"error""#), "\(subscriber.stdout.text)")
        _ = subscriber.terminate()
        _ = try daemon.terminate()
    }
}
