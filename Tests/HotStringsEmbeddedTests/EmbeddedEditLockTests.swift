import Foundation
import HotStringsClient
import HotStringsEmbedded
import HotStringsTestSupport
import Synchronization
import Testing

/// `LiveStrings.set` in embedded mode while a real `flock(1)` holds the language folder's lock: the set waits on the
/// host's worker, and the app's reloads and the page's requests are served meanwhile; past
/// `EmbeddedOptions.editLockTimeout` it fails with `busy` and nothing written.
struct EmbeddedEditLockTests {
    @Test func aSetWaitsForTheFolderLockWhileReloadsAndThePageAreServed() async throws {
        guard HeldFolderLock.executable != nil else { try Test.cancel("flock (util-linux) is not installed") }
        let urls = Mutex<[String]>([])
        let fixture = try EmbeddedBundle(options: LiveStrings.EmbeddedOptions(
            webPort: 0, onWebPage: { url in urls.withLock { $0.append(url) } }, editLockTimeout: .seconds(600)))
        let strings = fixture.strings
        #expect(await strings.waitUntilSynchronized(timeout: .seconds(30)))
        let url = try #require(urls.withLock { $0.first })
        let address = try #require(url.split(separator: "http://127.0.0.1:").last)
        let port = try #require(UInt16(address.prefix { $0.isNumber }))
        let bearer = ("Authorization", "Bearer " + (try #require(address.split(separator: "?token=").last)))
        let folder = fixture.bundle + "/de.lproj"
        let greeting = strings.localizedString("greeting")
        let lock = try await offThePool { try HeldFolderLock(folder) }
        let openBefore = descriptorCount(of: getpid(), openOn: folder)

        let setting = Task { try await strings.set("greeting", to: "Moin", language: "de") }
        try await pollUntil("the set to wait for the folder's lock") {
            descriptorCount(of: getpid(), openOn: folder) > openBefore
        }
        // Meanwhile: an editor's save reaches the app as a reload; the page answers a get and opens its stream.
        try fixture.save(try fixture.german([#""Einstellungen""#: #""Optionen""#]), to: EmbeddedBundle.german)
        try await pollUntil("the save's reload") { strings.localizedString("settings.title") == "Optionen" }
        let (status, body, stream) = try await offThePool {
            let client = try WebClient(port: port)
            client.request("GET", "/api/get?key=greeting&language=de", port: port, headers: [bearer])
            let events = try WebClient(port: port)
            events.request("GET", "/api/events", port: port, headers: [bearer])
            let get = try client.response()
            return (get.status, get.text, try events.read(until: ": subscribed\n\n"))
        }
        #expect(status == 200, "\(body)")
        #expect(body.contains(#""value":"\#(greeting)""#), "\(body)")
        #expect(stream.contains(": subscribed"))
        #expect(strings.localizedString("greeting") == greeting)

        try lock.release()
        #expect(try await setting.value == EmbeddedBundle.german)
        try await pollUntil("the set's reload") { strings.localizedString("greeting") == "Moin" }
        // The set was made on the file the editor saved: both changes are there.
        #expect(strings.localizedString("settings.title") == "Optionen")
    }

    @Test func pastTheDeadlineASetFailsBusyWithNothingWritten() async throws {
        guard HeldFolderLock.executable != nil else { try Test.cancel("flock (util-linux) is not installed") }
        let fixture = try EmbeddedBundle(options: LiveStrings.EmbeddedOptions(editLockTimeout: .milliseconds(300)))
        let strings = fixture.strings
        #expect(await strings.waitUntilSynchronized(timeout: .seconds(30)))
        let path = fixture.bundle + "/" + EmbeddedBundle.german
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let folder = fixture.bundle + "/de.lproj"
        let lock = try await offThePool { try HeldFolderLock(folder) }
        do {
            try await strings.set("greeting", to: "Moin", language: "de")
            Issue.record("a set past the lock's deadline succeeded")
        } catch {
            #expect(error.rejectionCode == "busy")
            #expect(error.message?.contains("'de.lproj'") == true, "\(error)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        try lock.release()
        #expect(try await strings.set("greeting", to: "Moin", language: "de") == EmbeddedBundle.german)
    }

    @Test(arguments: [Duration.seconds(-1), .seconds(3601)])
    func aDeadlineOutOfRangeIsRefusedAtStart(_ timeout: Duration) throws {
        do {
            let strings = try LiveStrings.embedded(bundle: sampleBundlePath,
                                                   options: LiveStrings.EmbeddedOptions(editLockTimeout: timeout))
            strings.stop()
            Issue.record("an edit lock timeout of \(timeout) was accepted")
        } catch {
            #expect(error.code == .invalidOption)
            #expect(error.description == "editLockTimeout takes seconds from 0 to 3600")
        }
    }
}
