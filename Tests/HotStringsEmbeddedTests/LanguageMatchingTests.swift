import Foundation
import HotStringsClient
import HotStringsProtocol
import HotStringsTestSupport
import Testing
@testable import HotStringsEmbedded

/// Issue 13's table in embedded mode: the in-process service's `get` and `LiveStrings.embedded`'s lookups on a
/// real temporary bundle.
@Suite struct EmbeddedLanguageMatchingTests {
    @Test func theIssuesTable() async throws {
        let sandbox = try Sandbox(tables: LanguageMatchingBundle.tables(), prefix: "hs-lang-")
        let transport = try EmbeddedTransport(bundle: sandbox.bundle, options: LiveStrings.EmbeddedOptions())
        let strings = LiveStrings(transport: transport, configuration: LiveStrings.Configuration(environment: [:]))
        defer { strings.stop() }
        #expect(await strings.waitUntilSynchronized(timeout: .seconds(30)))
        for row in LanguageMatchingBundle.rows {
            strings.overrideLanguage(row.request)
            for (key, answer) in LanguageMatchingBundle.expectations(for: row) {
                let result = try await transport.request(.get(key: key, table: "Localizable", languages: [row.request]))
                #expect(result["value"]?.stringValue == answer ?? key, "get \(key) in \(row.request)")
                #expect(result["language"]?.stringValue == answer, "get \(key) in \(row.request): the folder")
                #expect(strings.localizedString(key) == answer ?? key, "LiveStrings \(key) in \(row.request)")
            }
        }
    }
}
