import Foundation
import HotStringsProtocol
import HotStringsTestSupport
import HotStringsTestTraits
import LinuxSystem
import StringsFormat
import Testing

/// The same behaviour over both transports of the one protocol service: the real daemon over its socket,
/// and the embedded transport in process, each on a temporary copy of `sample-bundle`.
@Suite(.needsHotstringsBinary)
struct TransportBehaviourTests {
    static let german = "de.lproj/Localizable.strings"

    @Test(arguments: ServiceTransport.allCases)
    func helloIntroducesTheSameServer(_ transport: ServiceTransport) async throws {
        let sandbox = try Sandbox()
        let endpoint = try await transport.start(sandbox)
        let hello = try await endpoint.answer(.hello(client: "tests"))
        #expect(hello["server"] == .string("hotstrings 0.1.0"))
        #expect(hello["protocol"] == 1 && hello["developmentLanguage"] == .string("en"))
        #expect(hello["root"]?.stringValue?.hasSuffix("/bundle") == true)
        try await endpoint.stop()
    }

    @Test(arguments: ServiceTransport.allCases)
    func lookupsTablesAndLanguagesAnswerAlike(_ transport: ServiceTransport) async throws {
        let sandbox = try Sandbox()
        let endpoint = try await transport.start(sandbox)
        let get = try await endpoint.answer(.get(key: "files.header", table: "Localizable", languages: ["de-CH"]))
        #expect(get["value"] == .string("Name\tSize") && get["language"] == .string("en") && get["found"] == true)
        let table = try await endpoint.answer(.table(language: "de", table: "InfoPlist"))
        #expect(table["entries"]?["CFBundleName"] == .string("HotStrings") && table["language"] == .string("de"))
        let missing = try await endpoint.error(.table(language: "ko", table: "Localizable"))
        #expect(missing.code == .notFound)
        let languages = try await endpoint.answer(.languages)
        let names = languages["languages"]?.arrayValue?.compactMap { $0["language"]?.stringValue }
        #expect(names == ["Base", "de", "en", "fr", "pt-BR", "zh-Hans"] && languages["selected"] == .null)
        let status = try await endpoint.answer(.status)
        #expect(status["rootPresent"] == true && status["subscribers"] == 0 && status["tables"]?.int64Value ?? 0 > 0)
        try await endpoint.stop()
    }

    @Test(arguments: ServiceTransport.allCases)
    func subscribeAnswersThenSnapshotsThenReloads(_ transport: ServiceTransport) async throws {
        let sandbox = try Sandbox()
        let endpoint = try await transport.start(sandbox)
        let answer = try await endpoint.answer(.subscribe(Subscription(languages: ["de"])))
        if let daemon = endpoint as? DaemonEndpoint { #expect(daemon.eventsBeforeLastAnswer.isEmpty) }
        let snapshot = try await endpoint.nextEvent()
        guard case .snapshot(let tables) = snapshot.event else { throw ClientError(description: "\(snapshot)") }
        #expect(Set(tables.map(\.language.identifier)) == ["de"] && answer["seq"] == .integer(snapshot.seq))

        var text = try sandbox.read(Self.german)
        text = text.replacingOccurrences(of: #""Hallo!""#, with: #""Servus!""#)
        try sandbox.save(text, to: Self.german)
        let reload = try await endpoint.nextEvent(skippingErrors: true)
        guard case .reload(let changes) = reload.event else { throw ClientError(description: "\(reload)") }
        #expect(changes.first?.changed.first?.1 == "Servus!" && reload.seq == snapshot.seq + 1)
        #expect(try await endpoint.answer(.status)["subscribers"] == 1)
        #expect(try await endpoint.answer(.unsubscribe).isEmpty)
        #expect(try await endpoint.answer(.status)["subscribers"] == 0)
        try await endpoint.stop()
    }

    @Test(arguments: ServiceTransport.allCases)
    func selectLanguageIsSavedAndBroadcastBeforeItsAnswer(_ transport: ServiceTransport) async throws {
        let sandbox = try Sandbox()
        let endpoint = try await transport.start(sandbox)
        _ = try await endpoint.answer(.subscribe(Subscription(snapshot: false)))
        #expect(try await endpoint.answer(.selectLanguage("fr"))["selected"] == .string("fr"))
        if let daemon = endpoint as? DaemonEndpoint { #expect(daemon.eventsBeforeLastAnswer.count == 1) }
        #expect(try await endpoint.nextEvent().event == .language(language: LanguageTag("fr"), previous: nil))
        #expect(try Self.savedSelection(in: sandbox.stateDirectory) == "fr\n")

        let refused = try await endpoint.error(.selectLanguage("ko"))
        #expect(refused.code == .unsupportedLanguage && refused.available == ["de", "en", "fr", "pt-BR", "zh-Hans"])
        try await endpoint.stop()
    }

    // MARK: - Finding 8: a selection that cannot be saved is refused, not answered `ok`

    @Test(arguments: ServiceTransport.allCases)
    func aDirectoryInTheFilesPlaceIsAnInternalErrorAndNothingIsBroadcast(_ transport: ServiceTransport)
        async throws {
        let sandbox = try Sandbox()
        let endpoint = try await transport.start(sandbox)
        _ = try await endpoint.answer(.subscribe(Subscription(snapshot: false)))
        _ = try await endpoint.answer(.selectLanguage("fr"))
        #expect(try await endpoint.nextEvent().event == .language(language: LanguageTag("fr"), previous: nil))
        let file = try Self.selectionFile(in: sandbox.stateDirectory)
        try FileSystem.removeFile(atPath: file)
        try FileSystem.makeDirectory(atPath: file)

        let error = try await endpoint.error(.selectLanguage("de"))
        #expect(error.code == .internal && error.message.contains("cannot save the selected language"))
        #expect(error.message.contains(file))
        if let daemon = endpoint as? DaemonEndpoint {
            // The log is read from the daemon's pipe on a thread of the test's own: it may lag the answer.
            let logged = await pollUntil(.seconds(20)) {
                daemon.daemon.log.contains("warning: answered an error: cannot save the selected language")
            }
            #expect(logged, "\(daemon.daemon.log)")
        }
        #expect(try await endpoint.answer(.languages)["selected"] == .string("fr"))

        // The next change the subscriber hears of starts from French: no `de` was ever broadcast.
        try FileSystem.removeDirectory(atPath: file)
        _ = try await endpoint.answer(.selectLanguage("en"))
        #expect(try await endpoint.nextEvent().event == .language(language: LanguageTag("en"), previous: LanguageTag("fr")))
        try await endpoint.stop()
    }

    @Test(arguments: ServiceTransport.allCases)
    func theStateDirectoryIsCreatedWithItsParents(_ transport: ServiceTransport) async throws {
        let sandbox = try Sandbox()
        let state = sandbox.root + "/home/.local/state/hotstrings"
        let endpoint = try await transport.start(sandbox, stateDirectory: state)
        #expect(try await endpoint.answer(.selectLanguage("pt-BR"))["selected"] == .string("pt-BR"))
        #expect(try Self.savedSelection(in: state) == "pt-BR\n")
        for directory in [sandbox.root + "/home", sandbox.root + "/home/.local", state] {
            #expect(try FileSystem.status(atPath: directory).permissions & 0o777 == 0o700, "\(directory)")
        }
        try await endpoint.stop()
    }

    @Test(arguments: ServiceTransport.allCases)
    func aFullDiskIsAnInternalError(_ transport: ServiceTransport) async throws {
        let sandbox = try Sandbox()
        try FileSystem.makeDirectory(atPath: sandbox.stateDirectory, mode: 0o700)
        let mount = try ProcessRun.tool(
            "/bin/mount", ["-t", "tmpfs", "-o", "size=4k,mode=0700", "tmpfs", sandbox.stateDirectory])
        guard mount.code == 0 else {
            try Test.cancel("cannot mount a tmpfs here (needs root and mount rights): no real ENOSPC")
        }
        defer {
            _ = try? ProcessRun.tool("/bin/umount", [sandbox.stateDirectory])
        }
        // Fill the one page the file system has.
        try? FileSystem.writeFile(Array(repeating: 0x20, count: 8192), toPath: sandbox.stateDirectory + "/filler")

        let endpoint = try await transport.start(sandbox)
        _ = try await endpoint.answer(.subscribe(Subscription(snapshot: false)))
        let error = try await endpoint.error(.selectLanguage("fr"))
        #expect(error.code == .internal && error.message.contains("No space left on device"))
        #expect(try await endpoint.answer(.languages)["selected"] == .null)
        try FileSystem.removeFile(atPath: sandbox.stateDirectory + "/filler")
        _ = try await endpoint.answer(.selectLanguage("de"))
        #expect(try await endpoint.nextEvent().event == .language(language: LanguageTag("de"), previous: nil))
        try await endpoint.stop()
    }

    @Test(arguments: ServiceTransport.allCases)
    func aKilledProcesssTemporaryFileIsRemovedAtStart(_ transport: ServiceTransport) async throws {
        let sandbox = try Sandbox()
        let first = try await transport.start(sandbox)
        _ = try await first.answer(.selectLanguage("fr"))
        try await first.stop()
        let name = (try Self.selectionFile(in: sandbox.stateDirectory) as NSString).lastPathComponent
        let dead = "\(sandbox.stateDirectory)/.\(name).tmp-99999999-abc"     // above any pid_max
        let live = "\(sandbox.stateDirectory)/.\(name).tmp-\(getpid())-def"  // this test: still saving
        try FileSystem.writeFile(Array("de\n".utf8), toPath: dead)
        try FileSystem.writeFile(Array("de\n".utf8), toPath: live)

        let second = try await transport.start(sandbox)
        #expect(try await second.answer(.languages)["selected"] == .string("fr"))
        #expect((try? FileSystem.status(atPath: dead)) == nil)
        #expect((try? FileSystem.status(atPath: live)) != nil)
        try await second.stop()
    }

    /// The path of the one selection file in `directory`.
    static func selectionFile(in directory: String) throws -> String {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory)
            .filter { $0.hasPrefix("selected-language-") }
        return directory + "/" + (try #require(names.count == 1 ? names.first : nil))
    }

    /// The text of the one selection file in `directory`.
    static func savedSelection(in directory: String) throws -> String {
        try String(contentsOfFile: try selectionFile(in: directory), encoding: .utf8)
    }
}
