import BundleChanges
@testable import BundleWatcher
import Foundation
import HotStringsProtocol
import HotStringsRelease
import HotStringsService
import HotStringsTestSupport
import LinuxSystem
import StringsFormat
import StringsStore
import Testing

/// Every operation's answer (and the events between them) as the daemon writes it on the wire, pinned byte for byte.
///
/// The lines in `AnswerBytes.golden` were recorded from the service before answers were typed (issue 38, at
/// a165d26), through the real `ProtocolService` rendering `WireLines` over a real bundle on disk: the typed answers
/// must write exactly what the untyped ones wrote. Only the bundle's temporary path (`$ROOT`) and the uptime (`0`)
/// are put in a fixed form; everything else is the bytes as sent.
@Suite struct AnswerBytesTests {
    static let epoch: UInt64 = 6_336_735_572_390_271

    /// The bundle on disk: a folder table with a format error in `de`, a plural rule, a String Catalog with a
    /// state to review.
    static let files: [String: String] = [
        "en.lproj/Localizable.strings": "/* Greeting */\n\"greeting\" = \"Hello!\";\n\"farewell\" = \"Bye\";\n"
            + "\"count\" = \"%d items\";\n",
        "de.lproj/Localizable.strings": "\"greeting\" = \"Hallo!\";\n\"farewell\" = \"Tschüss\";\n"
            + "\"count\" = \"%@ Dinge\";\n",
        "en.lproj/Localizable.stringsdict": RuleServiceTests.stringsdict,
        "Shop.xcstrings": CatalogText.catalog([
            (key: "Buy", localizations: ["en": CatalogText.text("Buy"),
                                         "de": CatalogText.text("Kaufen", state: "needs_review")]),
            (key: "Sell \"now\"", localizations: ["en": CatalogText.text("Sell"),
                                                 "fr": CatalogText.text("Vendre", state: "new")]),
        ]),
    ]

    /// A service rendering lines over `root`, with the store filled from `files` (parsed here: no watcher).
    static func service(root: String, pull: PullStatus?, web: String?) async throws -> ProtocolService<WireLines> {
        let store = StringsStore(developmentLanguage: "en", epoch: epoch, pseudoLanguages: true)
        var environment = ProtocolService<WireLines>.Environment(
            root: root,
            watcherStatus: {
                WatcherStatus(root: root, isRootPresent: true, watchedDirectories: 4, files: 4, pendingPaths: 0)
            },
            connectionCount: { 2 })
        environment.bundleEditor = try BundleEditor(root: root, developmentLanguage: LanguageTag("en")!)
        if let pull { environment.pullStatus = { pull } }
        environment.webURL = web
        let service = ProtocolService(store: store, environment: environment)
        var batch = ChangeBatch()
        batch.isFullScan = true
        for (path, text) in files.sorted(by: { $0.key < $1.key }) where path.hasSuffix(".strings") {
            let language = String(path.prefix { $0 != "." })
            batch.updates.append(TableUpdate(
                id: TableID(language: LanguageTag(language)!, table: "Localizable"), file: path,
                content: .parsed(TableContent(strings: try StringsFile.parse(text: text)))))
        }
        _ = await service.handle(.batch(batch))
        _ = await service.handle(.batch(ChangeBatch(updates: [TableUpdate(
            id: TableID(language: LanguageTag("en")!, table: "Localizable"), file: "en.lproj/Localizable.stringsdict",
            content: .parsed(TableContent(rules: try StringsdictFile.parse(text: RuleServiceTests.stringsdict))))])))
        return service
    }

    /// The lines `input` makes, each labelled `answer` or `event`, in the fixed form without its newline.
    static func lines(_ service: ProtocolService<WireLines>, _ input: ServiceInput, root: String) async -> [String] {
        await service.handle(input).compactMap { output -> String? in
            let (label, bytes): (String, [UInt8])
            switch output {
            case .response(_, let line): (label, bytes) = ("answer", line)
            case .event(let line, _), .snapshot(_, let line), .slowClientResync(_, let line),
                 .slowClientSnapshot(_, let line): (label, bytes) = ("event", line)
            case .firstScanServed, .offCore: return nil
            }
            guard bytes.last == 0x0A else { return "\(label) without its newline" }
            return label + " " + fixed(String(decoding: bytes.dropLast(), as: UTF8.self), root: root)
        }
    }

    /// `line` with the bundle's path as `$ROOT` and the uptime as `0`.
    static func fixed(_ line: String, root: String) -> String {
        var text = line.replacingOccurrences(of: root, with: "$ROOT")
        if let start = text.range(of: #""uptime":"#) {
            let end = text[start.upperBound...].firstIndex { $0 == "," || $0 == "}" } ?? text.endIndex
            text.replaceSubrange(start.upperBound..<end, with: "0")
        }
        return text
    }

    static func request(_ id: RequestID?, _ request: Request) -> ServiceInput { .request(1, id, request) }

    static func line(_ text: String) -> ServiceInput { .requestLine(1, Array(text.utf8)) }

    /// The report `report-missing` sends: one missing key, one fallback.
    static let report = MissingReport(entries: [
        MissingEntry(MissingEntry.Identity(kind: .missing, table: "Localizable", key: "title", language: "de-CH",
                                           servedBy: nil), count: 3, firstSeen: 1_764_800_000_000,
                     lastSeen: 1_764_800_065_123),
        MissingEntry(MissingEntry.Identity(kind: .fallback, table: "Localizable", key: "count", language: "fr",
                                           servedBy: "en"), count: 7, firstSeen: 1_764_800_001_000,
                     lastSeen: 1_764_800_002_000),
    ], dropped: 2)

    /// What a bundle of plain files is asked, in order: every operation, its refusals, and a request line that
    /// cannot be read.
    static let inputs: [ServiceInput] = [
        request(.number(1), .hello(client: "golden")),
        request(.string("two"), .languages),
        request(.number(3), .get(key: "greeting", table: "Localizable", languages: ["de-CH"])),
        request(.number(4), .get(key: "files", table: "Localizable", languages: ["de"])),
        request(nil, .get(key: "absent", table: "Localizable", languages: [])),
        request(.number(6), .table(language: "de", table: "Localizable")),
        request(.number(7), .table(language: "en", table: "Localizable")),
        request(.string("again"), .table(language: "en", table: "Localizable")),
        request(.number(9), .table(language: "it", table: "Localizable")),
        request(.number(10), .subscribe(Subscription(languages: ["de"]))),
        request(.number(11), .selectLanguage("fr")),
        request(.number(12), .selectLanguage("de")),
        request(.string("selected"), .languages),
        request(.number(13), .selectLanguage("xx")),
        request(.number(14), .selectLanguage(nil)),
        request(.number(15), .reportMissing(report)),
        request(.number(16), .missing(language: nil, table: nil)),
        request(.number(17), .missing(language: "fr", table: "Localizable")),
        request(.number(18), .status),
        request(.number(19), .check(Edit(key: "greeting", value: "Servus %@", language: "de"))),
        request(.number(20), .check(Edit(key: "greeting", value: "Servus", language: "de"))),
        request(.string("check-error"), .check(Edit(key: "count", value: "%@ Dinge", language: "de"))),
        request(.string("set-error"), .set(Edit(key: "count", value: "%@ Dinge", language: "de"))),
        request(.number(21), .set(Edit(key: "count", value: "%lld Dinge", language: "de", isForced: true))),
        request(.number(22), .set(Edit(key: "greeting", value: "Grüezi %@", language: "de"))),
        request(.number(23), .set(Edit(key: "new", value: "Neu", language: "de", comment: "Added"))),
        request(.number(24), .remove(key: "farewell", language: "de", table: "Localizable")),
        request(.number(25), .remove(key: "farewell", language: "de", table: "Localizable")),
        request(.number(26), .set(Edit(key: "x", value: "y", language: "ko"))),
        request(.number(27), .states(table: "Shop")),
        request(.number(28), .states(table: "Nothing")),
        request(.number(29), .lint),
        request(.number(30), .unsubscribe),
        line(#"{"id":31,"op":"frobnicate"}"#),
        line(#"{"id":32,"op":"get"}"#),
        line("not json"),
        line(#"{"id":"s","op":"table","language":"en","table":"Localizable"}"#),
    ]

    @Test func everyOperationAnswersThePinnedBytes() async throws {
        let sandbox = try Sandbox(tables: Self.files, prefix: "hs-golden-")
        let service = try await Self.service(root: sandbox.bundle, pull: nil, web: nil)
        var lines: [String] = []
        for input in Self.inputs {
            lines += await Self.lines(service, input, root: sandbox.bundle)
        }
        Self.compare(lines, AnswerBytes.golden)
    }

    /// `status` of a bundle fed by releases, from a daemon that pulls and serves the page.
    @Test func statusOfAPulledBundleAnswersThePinnedBytes() async throws {
        let sandbox = try Sandbox(tables: Self.files, prefix: "hs-golden-")
        try Self.installRelease(in: sandbox)
        var pull = PullStatus(url: "https://***@cdn.example.com/tr/manifest.json", interval: .milliseconds(30_500))
        pull.lastPull = Date(timeIntervalSince1970: 1_764_800_762.114)
        pull.lastResult = .failed(.transfer(url: "https://cdn.example.com/tr/manifest.json", reason: "HTTP status 503"))
        pull.consecutiveFailures = 2
        pull.lastSuccess = Date(timeIntervalSince1970: 1_764_800_654.833)
        pull.nextPull = Date(timeIntervalSince1970: 1_764_800_871.76)
        let service = try await Self.service(root: sandbox.bundle, pull: pull, web: "http://127.0.0.1:8080/?token=t0k")
        _ = await service.handle(.problems([FileProblem(file: "https://cdn.example.com/tr/manifest.json", line: nil,
                                                        column: nil, message: "release not installed")]))
        var lines = await Self.lines(service, Self.request(.number(1), .status), root: sandbox.bundle)
        pull.isPulling = true
        pull.lastResult = .installed(release: "r2", previous: "r1")
        pull.nextPull = nil
        let pulling = try await Self.service(root: sandbox.bundle, pull: pull, web: nil)
        lines += await Self.lines(pulling, Self.request(.number(2), .status), root: sandbox.bundle)
        Self.compare(lines, AnswerBytes.goldenPulled)
    }

    /// A release installed the way `ReleaseStore` lays it out: `..data` linking to `..r-<id>`, which holds the
    /// manifest and the install record.
    static func installRelease(in sandbox: Sandbox) throws {
        let folder = sandbox.bundle + "/..r-20261203T140411Z-bcb152c3e54a"
        try FileSystem.makeDirectory(atPath: folder)
        let manifest = #"{"format":1,"release":"20261203T140411Z-bcb152c3e54a","created":"2026-12-03T14:04:11Z","#
            + #""sequence":42,"expires":"2026-12-31T00:00:00Z","files":[]}"#
        try FileSystem.writeFile(Array(manifest.utf8), toPath: folder + "/.manifest.json")
        let record = #"{"installedAt":1764770651000000,"release":"20261203T140411Z-bcb152c3e54a","signer":"#
            + #""RWQf6LRCGA9i53mlYecO4IzT51TGPpvWucNSCh1CBM0QTaLn73Y7GFO3"}"#
        try FileSystem.writeFile(Array(record.utf8), toPath: folder + "/.installed.json")
        try FileSystem.makeSymbolicLink(atPath: sandbox.bundle + "/..data",
                                        pointingTo: "..r-20261203T140411Z-bcb152c3e54a")
    }

    /// Compares line by line, so a difference names the line.
    static func compare(_ lines: [String], _ golden: [String],
                        sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        #expect(lines.count == golden.count, sourceLocation: sourceLocation)
        for (index, (line, pinned)) in zip(lines, golden).enumerated() where line != pinned {
            Issue.record("line \(index + 1) differs:\n  now:    \(line)\n  pinned: \(pinned)",
                         sourceLocation: sourceLocation)
        }
        if lines != golden, ProcessInfo.processInfo.environment["HOTSTRINGS_PRINT_GOLDEN"] != nil {
            print(lines.map { "        ##\"\($0)\"##," }.joined(separator: "\n"))
        }
    }
}
