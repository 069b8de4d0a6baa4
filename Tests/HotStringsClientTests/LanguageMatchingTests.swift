import Foundation
import HotStringsProtocol
import HotStringsTestSupport
import HotStringsTestTraits
import Testing
@testable import HotStringsClient

/// Issue 13's table through the real daemon on a real temporary bundle: its `get` (the folder that answered
/// is its `language`) and `LiveStrings` on its socket (the value tells the folder).
@Suite(.needsHotstringsBinary)
struct LanguageMatchingTests {
    /// Checks every expectation of `rows` through `get` and through a `LiveStrings` client of `daemon`.
    static func check(_ rows: [LanguageMatchingBundle.Row], daemon: DaemonProcess) async throws {
        let connection = try LineConnection(path: daemon.socket)
        let strings = LiveStrings(configuration: .init(socketPath: daemon.socket, clientName: "tests",
                                                       environment: [:]))
        #expect(await strings.waitUntilSynchronized(timeout: .seconds(30)))
        for row in rows {
            strings.overrideLanguage(row.request)
            for (key, answer) in LanguageMatchingBundle.expectations(for: row) {
                let request = Request.get(key: key, table: "Localizable", languages: [row.request])
                let result = try connection.request(request, as: GetAnswer.self, timeout: .seconds(5)).get()
                #expect(result.value == answer ?? key, "get \(key) in \(row.request)")
                #expect(result.language == answer, "get \(key) in \(row.request): the folder")
                #expect(result.isFound == (answer != nil), "get \(key) in \(row.request)")
                #expect(strings.localizedString(key) == answer ?? key, "LiveStrings \(key) in \(row.request)")
            }
        }
        strings.stop()
    }

    @Test func theIssuesTable() async throws {
        let sandbox = try Sandbox(tables: LanguageMatchingBundle.tables(), prefix: "hs-lang-")
        let daemon = try await DaemonProcess.serving(sandbox)
        try await Self.check(LanguageMatchingBundle.rows, daemon: daemon)
    }

    @Test func zhHantTWFindsZhTWLproj() async throws {
        let tables = LanguageMatchingBundle.tables(folders: ["en", "zh_TW"]) {
            $0.replacingOccurrences(of: "_", with: "-")
        }
        let sandbox = try Sandbox(tables: tables, prefix: "hs-lang-")
        let daemon = try await DaemonProcess.serving(sandbox)
        try await Self.check([LanguageMatchingBundle.zhTWRow], daemon: daemon)
    }
}
