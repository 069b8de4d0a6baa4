import HotStringsClient
import HotStringsEmbedded
import HotStringsProtocol
import StringsFormat
import HotStringsTestSupport
import Testing

/// Embedded mode records the keys an app misses and hands them to its in-process host, as a daemon's client does.
struct EmbeddedMissingTests {
    @Test func embeddedLookupsReportMissingKeysAndFallbacksToTheHost() async throws {
        let fixture = try EmbeddedBundle(language: "de_CH.UTF-8")
        let strings = fixture.strings
        #expect(await strings.waitUntilSynchronized(timeout: .seconds(30)))
        #expect(strings.localizedString("greeting") == "Hallo!")          // de answers de-CH: no fallback
        #expect(strings.localizedString("files.header") == "Name\tSize")  // en answers: a fallback
        #expect(strings.localizedString("no.such.key") == "no.such.key")
        #expect(strings.localizedString("no.such.key") == "no.such.key")
        #expect(strings.format("messages.received", "Ana", 3) == "Ana hat dir 3 Nachrichten geschickt")  // de's rule
        var rows: [String] = []
        try await pollUntil("the host to list the reports") {
            let answer = try await fixture.transport.request(.missing(language: nil, table: nil))
            rows = (answer["entries"]?.arrayValue ?? []).map { entry in
                ["kind", "key", "language", "servedBy"].map { entry[$0]?.stringValue ?? "-" }.joined(separator: " ")
                    + " \(entry["count"]?.int64Value ?? 0)"
            }.sorted()
            return rows.count >= 2
        }
        #expect(rows == ["fallback files.header de-CH en 1", "missing no.such.key de-CH - 2"])
        let status = try await fixture.transport.request(.status)
        #expect(status["missing"]?["missing"]?.int64Value == 1 && status["missing"]?["fallback"]?.int64Value == 1)
    }

    @Test func aLanguageTheBundleLacksIsAnsweredByFallbacksOnly() async throws {
        let fixture = try EmbeddedBundle(language: "ja_JP.UTF-8")
        let strings = fixture.strings
        #expect(await strings.waitUntilSynchronized(timeout: .seconds(30)))
        strings.overrideLanguage("ja")
        #expect(strings.localizedString("greeting") == "Hello!")
        var rows: [String] = []
        try await pollUntil("the host to list the fallback") {
            let answer = try await fixture.transport.request(.missing(language: "ja", table: "Localizable"))
            rows = (answer["entries"]?.arrayValue ?? []).map { entry in
                ["kind", "key", "language", "servedBy"].map { entry[$0]?.stringValue ?? "-" }.joined(separator: " ")
            }
            return !rows.isEmpty
        }
        #expect(rows == ["fallback greeting ja en"])
    }
}
