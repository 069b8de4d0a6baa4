import Foundation
import HotStringsProtocol
import HotStringsTestSupport
import HotStringsTestTraits
import LinuxSystem
import StringsFormat
import Testing
@testable import HotStringsClient

/// The keys clients miss, end to end: `LiveStrings` records and reports them, a real daemon merges them, and
/// `hotstrings missing` lists them.
@Suite(.needsHotstringsBinary)
struct MissingKeysTests {
    /// A client of `daemon` whose environment says `LANG=language`.
    static func client(_ daemon: DaemonProcess, language: String = "de_CH.UTF-8", capacity: Int = 1024) -> LiveStrings {
        var configuration = LiveStrings.Configuration(
            socketPath: daemon.socket, clientName: "missing-tests", environment: ["LANG": language],
            reconnectDelay: .milliseconds(10), maximumReconnectDelay: .milliseconds(200))
        configuration.missingKeyCapacity = capacity
        return LiveStrings(configuration: configuration)
    }

    /// `hotstrings missing --json` with `options`, read back.
    static func missing(_ daemon: DaemonProcess, _ options: [String] = []) async throws -> JSONValue {
        let run = try await HotstringsProcess.run(["missing", "--json", "--socket", daemon.socket] + options)
        #expect(run.code == 0, "\(run.stderr)")
        return try JSONValue(parsing: Array(run.stdout.utf8))
    }

    /// The entries of an answer as `kind table key language servedBy count` lines, sorted.
    static func rows(_ answer: JSONValue) -> [String] {
        (answer["entries"]?.arrayValue ?? []).map { entry in
            ["kind", "table", "key", "language", "servedBy"].map { entry[$0]?.stringValue ?? "-" }.joined(separator: " ")
                + " \(entry["count"]?.int64Value ?? 0)"
        }.sorted()
    }

    /// Reported within a second or two on an idle machine (batches go at most once a second); the test waits with a
    /// deadline and asserts no time, since a loaded machine may take longer to start the `missing` processes.
    @Test func missingKeysAndFallbacksAreListedWithTheirCounts() async throws {
        let sandbox = try Sandbox(prefix: "hs-missing-")
        let daemon = try await DaemonProcess.serving(sandbox)
        let strings = Self.client(daemon)
        #expect(await strings.waitUntilSynchronized(timeout: .seconds(30)))
        let before = WallClock.coarseMilliseconds
        for _ in 0..<3 { #expect(strings.localizedString("greeting") == "Hallo!") }  // de answers de-CH: no report
        for _ in 0..<2 { #expect(strings.localizedString("files.header") == "Name\tSize") }  // only in en
        for _ in 0..<4 { #expect(strings.localizedString("no.such.key") == "no.such.key") }
        #expect(strings.localizedString("nor.this", table: "Nowhere", value: "Default") == "Default")
        let expected = [
            "fallback Localizable files.header de-CH en 2",
            "missing Localizable no.such.key de-CH - 4",
            "missing Nowhere nor.this de-CH - 1",
        ]
        let deadline = ContinuousClock.now + .seconds(30)
        var answer = try await Self.missing(daemon)
        while Self.rows(answer) != expected, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
            answer = try await Self.missing(daemon)
        }
        #expect(Self.rows(answer) == expected)
        let first = try #require(answer["entries"]?.arrayValue?.first { $0["key"]?.stringValue == "no.such.key" })
        let firstSeen = try #require(first["firstSeen"]?.stringValue.flatMap(RFC3339.milliseconds))
        let lastSeen = try #require(first["lastSeen"]?.stringValue.flatMap(RFC3339.milliseconds))
        #expect(firstSeen >= before - 50 && firstSeen <= lastSeen && lastSeen <= WallClock.coarseMilliseconds + 50)
        #expect(first["lastSeen"]?.stringValue?.hasSuffix("Z") == true)

        #expect(Self.rows(try await Self.missing(daemon, ["--table", "Nowhere"])) == [expected[2]])
        #expect(Self.rows(try await Self.missing(daemon, ["--language", "de_ch"])) == expected)
        #expect(Self.rows(try await Self.missing(daemon, ["--language", "de"])) == [])

        let status = try await HotstringsProcess.run(["status", "--json", "--socket", daemon.socket])
        let counts = try JSONValue(parsing: Array(status.stdout.utf8))["missing"]
        #expect(counts?["missing"]?.int64Value == 2 && counts?["fallback"]?.int64Value == 1)
        let text = try await HotstringsProcess.run(["status", "--socket", daemon.socket])
        #expect(text.stdout.contains("missing keys") && text.stdout.contains("2 missing, 1 fallback"))
        let list = try await HotstringsProcess.run(["missing", "--socket", daemon.socket])
        #expect(list.stdout.split(separator: "\n").first?.contains("missing") == true)
        #expect(list.stdout.contains("de-CH -> en"))
        _ = strings
    }

    @Test func reportsOfTwoClientsAreMergedAndAClientsCapCountsWhatItDrops() async throws {
        let sandbox = try Sandbox(prefix: "hs-missing-")
        let daemon = try await DaemonProcess.serving(sandbox)
        let first = Self.client(daemon, language: "fr_FR.UTF-8")
        let second = Self.client(daemon, language: "fr_FR.UTF-8", capacity: 2)
        #expect(await first.waitUntilSynchronized(timeout: .seconds(30)))
        #expect(await second.waitUntilSynchronized(timeout: .seconds(30)))
        for _ in 0..<2 { _ = first.localizedString("shared.key") }
        for _ in 0..<3 { _ = second.localizedString("shared.key") }
        _ = second.localizedString("second.key")
        for index in 0..<5 { _ = second.localizedString("beyond.cap.\(index)") }  // the cap is reached: dropped
        var answer = JSONValue.null
        try await pollUntil("both clients' reports", timeout: .seconds(20)) {
            answer = try await Self.missing(daemon)
            return Self.rows(answer) == ["missing Localizable second.key fr-FR - 1",
                                         "missing Localizable shared.key fr-FR - 5"]
                && answer["droppedByClients"]?.int64Value == 5
        }
        #expect(answer["dropped"]?.int64Value == 0)
        _ = (first, second)
    }

    @Test func writeAddsTheMissingKeysToTheDevelopmentLanguageThroughSet() async throws {
        let sandbox = try Sandbox(prefix: "hs-missing-")
        let daemon = try await DaemonProcess.serving(sandbox)
        let strings = Self.client(daemon)
        #expect(await strings.waitUntilSynchronized(timeout: .seconds(30)))
        for _ in 0..<3 { _ = strings.localizedString("promo.banner") }
        _ = strings.localizedString("files.header")  // a fallback: not written
        try await pollUntil("the report", timeout: .seconds(20)) {
            Self.rows(try await Self.missing(daemon)).contains("missing Localizable promo.banner de-CH - 3")
        }
        let run = try await HotstringsProcess.run(["missing", "--write", "--socket", daemon.socket])
        #expect(run.code == 0, "\(run.stderr)")
        #expect(run.stdout == "en.lproj/Localizable.strings  promo.banner\n")
        let english = try String(contentsOfFile: sandbox.bundle + "/en.lproj/Localizable.strings", encoding: .utf16)
        #expect(english.contains(#""promo.banner" = "promo.banner";"#))
        #expect(english.contains("/* Reported missing by running apps: de-CH (3 lookups, last "))
        // Served by en now: the next lookups are a fallback, no longer missing.
        try await pollUntil("the key to be served by en", timeout: .seconds(20)) {
            _ = strings.localizedString("promo.banner")
            return Self.rows(try await Self.missing(daemon)).contains { $0.hasPrefix("fallback Localizable promo.banner de-CH en") }
        }
    }

    @Test func aHostileReportIsRefusedWholeAndChangesNothing() throws {
        let sandbox = try Sandbox(prefix: "hs-missing-")
        let daemon = try DaemonProcess.serving(sandbox)
        let entry = MissingEntry(.init(kind: .missing, table: "Localizable", key: "k", language: "de", servedBy: nil),
                                 count: 1, firstSeen: 0, lastSeen: 0)
        let oversized = MissingReport(entries: Array(repeating: entry, count: MissingReport.maximumEntries + 1),
                                      dropped: 0)
        // More entries than a report may hold are more bytes than a line may hold: refused, and the daemon hangs up.
        let hostile = try LineConnection(path: daemon.socket)
        let refused = try hostile.request(.reportMissing(oversized), timeout: .seconds(10))
        hostile.close()
        guard case .failure(let error) = refused else { throw TimedOut(description: "an oversized report was taken") }
        #expect(error.code == .tooLarge || error.code == .badRequest)

        let connection = try LineConnection(path: daemon.socket)
        defer { connection.close() }

        // One bad entry among good ones: the whole report is refused.
        let good = #"{"kind":"missing","table":"T","key":"good","language":"de","count":1,"#
            + #""firstSeen":"2026-12-04T22:00:00Z","lastSeen":"2026-12-04T22:00:00.5Z"}"#
        for bad in [
            #"{"kind":"absent","table":"T","key":"k","language":"de","count":1,"firstSeen":"2026-12-04T22:00:00Z","lastSeen":"2026-12-04T22:00:00Z"}"#,
            #"{"kind":"missing","table":"T","key":"k","language":"de","count":-4,"firstSeen":"2026-12-04T22:00:00Z","lastSeen":"2026-12-04T22:00:00Z"}"#,
            #"{"kind":"missing","table":"T","key":"k","language":"de","count":1,"firstSeen":"yesterday","lastSeen":"2026-12-04T22:00:00Z"}"#,
            #"{"kind":"fallback","table":"T","key":"k","language":"de","count":1,"firstSeen":"2026-12-04T22:00:00Z","lastSeen":"2026-12-04T22:00:00Z"}"#,
            #"{"kind":"missing","table":"T","key":"\#(String(repeating: "k", count: 5000))","language":"de","count":1,"firstSeen":"2026-12-04T22:00:00Z","lastSeen":"2026-12-04T22:00:00Z"}"#,
            #""not an object""#,
        ] {
            connection.queue(bytes: Array(#"{"id":"bad","op":"report-missing","entries":["#.utf8)
                + Array(good.utf8) + Array(",".utf8) + Array(bad.utf8) + Array("]}\n".utf8))
            try connection.send(timeout: .seconds(10))
            let line = try connection.nextLine(timeout: .seconds(10))
            guard case .line(let bytes) = line else { throw TimedOut(description: "no answer to a bad report") }
            let answer = try JSONValue(parsing: bytes)
            #expect(answer["ok"]?.boolValue == false, "\(answer)")
            #expect(answer["error"]?["code"]?.stringValue == "bad_request", "\(answer)")
        }
        let run = try HotstringsProcess.run(["missing", "--json", "--socket", daemon.socket])
        #expect(Self.rows(try JSONValue(parsing: Array(run.stdout.utf8))) == [])
        let status = try connection.request(.status, as: StatusAnswer.self, timeout: .seconds(10))
        #expect(try status.get().missing?.missing == 0)
    }
}
