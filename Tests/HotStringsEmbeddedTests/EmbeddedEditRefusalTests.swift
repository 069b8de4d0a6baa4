import Foundation
import HotStringsClient
import HotStringsEmbedded
import HotStringsTestSupport
import Testing

/// `LiveStrings.set` in embedded mode refuses what no writer may write, with nothing written: a bundle the app
/// pulls releases into, a pseudo-language it serves, and a new language whose value is refused (no folder left).
struct EmbeddedEditRefusalTests {
    @Test func aBundleThisAppPullsIntoRefusesEdits() async throws {
        let fixture = try EmbeddedPullFixture()
        let strings = fixture.strings
        #expect(await strings.waitUntilSynchronized(timeout: .seconds(30)))
        try await pollUntil("the first release") { strings.localizedString("greeting") == "Hallo!" }
        let release = try #require(try await fixture.transport.request(.status)["release"]?.stringValue)
        let file = fixture.target + "/..r-" + release + "/de.lproj/Localizable.strings"
        let before = try Data(contentsOf: URL(fileURLWithPath: file))
        for (language, createsLanguage) in [("de", false), ("ko", true)] {
            do {
                try await strings.set("greeting", to: "Servus", language: language, createLanguage: createsLanguage)
                Issue.record("a set of \(language) in a pulled bundle succeeded")
            } catch {
                #expect(error.rejectionCode == "bad_request")
                #expect(error.message?.contains("the bundle is managed by pull") == true, "\(error)")
            }
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == before)
        #expect(!FileManager.default.fileExists(atPath: fixture.target + "/ko.lproj"))
        let status = try await fixture.transport.request(.status)
        #expect(status["readOnly"]?.stringValue?.contains("managed by pull") == true, "\(status)")
    }

    @Test func pseudoLanguagesAndRefusedNewLanguagesLeaveNoFolder() async throws {
        let fixture = try EmbeddedBundle(options: LiveStrings.EmbeddedOptions(pseudoLanguages: true))
        let strings = fixture.strings
        #expect(await strings.waitUntilSynchronized(timeout: .seconds(30)))
        for (key, value, language, reason) in [
            ("greeting", "Hi", "en-XA", "is a pseudo-language, made from 'en'"),
            ("profile.online", "%d ist online", "ko", "takes argument 1 as an integer"),
        ] {
            do {
                try await strings.set(key, to: value, language: language, createLanguage: true)
                Issue.record("\(language) was written")
            } catch {
                #expect(error.rejectionCode == "bad_request")
                #expect(error.message?.contains(reason) == true, "\(error)")
            }
            #expect(!FileManager.default.fileExists(atPath: fixture.bundle + "/\(language).lproj"))
        }
        let status = try await fixture.transport.request(.status)
        #expect(status["readOnly"]?.isNull == true, "\(status)")
    }
}
