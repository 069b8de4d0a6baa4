import Foundation
import HotStringsClient
import HotStringsProtocol
import HotStringsTestSupport
import HotStringsTestTraits
import StringsFormat
import Testing

/// String Catalogs live through the real daemon: the sample's `Settings.xcstrings` is table `Settings` in en, de
/// and fr; a save is one `reload` naming exactly the changed keys of each language that changed; `LiveStrings`
/// formats the new plural forms; a broken save keeps the last good catalog with an `error` at its line and column.
@Suite(.needsHotstringsBinary)
struct CatalogEndToEndTests {
    static let catalog = "Settings.xcstrings"

    /// The changed keys of each language in a reload, by language.
    static func changedKeys(_ reload: JSONValue) -> [String: [String]] {
        var keys: [String: [String]] = [:]
        for change in reload["changes"]?.arrayValue ?? [] {
            let language = change.string("language") ?? "?"
            keys[language] = ["added", "changed"].flatMap { change[$0]?.objectMembers?.map(\.0) ?? [] }
                + (change["removed"]?.arrayValue?.compactMap(\.stringValue) ?? [])
        }
        return keys
    }

    @Test func editingACatalogReachesSubscribersAndLiveStrings() async throws {
        let sandbox = try Sandbox()
        let daemon = try await DaemonProcess.serving(sandbox)
        let subscriber = try LineClient(socket: sandbox.socket)
        #expect(try subscriber.request(#"{"id":1,"op":"subscribe","tables":["Settings"]}"#)["ok"] == true)
        let (snapshot, _) = try subscriber.nextEvent("snapshot")
        let tables = snapshot["tables"]?.arrayValue ?? []
        #expect(tables.map { $0.string("language") ?? "" } == ["de", "en", "fr"])
        #expect(tables.allSatisfy { $0.string("file") == Self.catalog })
        let german = try #require(tables.first { $0.string("language") == "de" })
        #expect(german["entries"]?["Settings"] == .string("Einstellungen"))
        #expect(german["rules"]?["%lld files selected"]?["plural"]?["one"] == .string("%lld Datei ausgewählt"))

        let strings = LiveStrings(configuration: LiveStrings.Configuration(
            socketPath: sandbox.socket, clientName: "tests", environment: ["LANG": "de_DE.UTF-8"],
            reconnectDelay: .milliseconds(10), maximumReconnectDelay: .milliseconds(200)))
        defer { strings.stop() }
        #expect(await strings.waitUntilSynchronized(timeout: .seconds(30)))
        let selected = "%lld files selected"
        #expect(strings.localizedString(selected, table: "Settings", arguments: [1]) == "1 Datei ausgewählt")
        #expect(strings.localizedString("%@ shared %lld photos", table: "Settings", arguments: ["Ana", 3])
            == "Ana hat 3 Fotos geteilt")
        #expect(strings.localizedString("Tap to continue", table: "Settings") == "Tippen, um fortzufahren")

        // One save changing a German plural form and the French title: one reload, exactly those keys.
        let original = try sandbox.read(Self.catalog)
        let edited = original.replacingOccurrences(of: "\"%lld Datei ausgewählt\"", with: "\"%lld Datei markiert\"")
            .replacingOccurrences(of: "\"Réglages\"", with: "\"Paramètres\"")
        try sandbox.save(edited, to: Self.catalog)
        let (reload, skipped) = try subscriber.nextEvent("reload")
        #expect(skipped.isEmpty)
        #expect(Self.changedKeys(reload) == ["de": [selected], "fr": ["Settings"]])
        #expect(reload["changes"]?.arrayValue?.allSatisfy { $0.string("file") == Self.catalog } == true)
        try await pollUntil("LiveStrings sees the new form") {
            strings.localizedString(selected, table: "Settings", arguments: [1]) == "1 Datei markiert"
        }
        #expect(strings.localizedString(selected, table: "Settings", arguments: [2]) == "2 Dateien ausgewählt")

        // A broken save: an error naming the file, line and column; the last good catalog stays served.
        let truncated = String(edited.prefix(edited.count / 2))
        try sandbox.save(truncated, to: Self.catalog)
        let (error, noReload) = try subscriber.nextEvent("error")
        #expect(noReload.isEmpty)
        #expect(error.string("file") == Self.catalog)
        #expect(error.int("line") != nil && error.int("column") != nil, "\(error)")
        let status = try LineClient(socket: sandbox.socket).request(#"{"id":2,"op":"status"}"#)
        #expect(status["lastErrors"]?.arrayValue?.contains { $0.string("file") == Self.catalog } == true)
        #expect(strings.localizedString(selected, table: "Settings", arguments: [1]) == "1 Datei markiert")
        let get = try await HotstringsProcess.run(["get", "--socket", sandbox.socket, "--language", "fr", "--table",
                                             "Settings", "Settings"])
        #expect(get.stdout == "Paramètres\n", "\(get)")

        // Fixing it recovers with one reload of what differs from the last good version.
        try sandbox.save(original, to: Self.catalog)
        let (recovered, _) = try subscriber.nextEvent("reload")
        #expect(Self.changedKeys(recovered) == ["de": [selected], "fr": ["Settings"]])
        try await pollUntil("LiveStrings sees the restored form") {
            strings.localizedString(selected, table: "Settings", arguments: [1]) == "1 Datei ausgewählt"
        }

        // Deleting the catalog deletes its tables; the folders' tables stay.
        try FileManager.default.removeItem(atPath: sandbox.bundle + "/" + Self.catalog)
        let (deleted, _) = try subscriber.nextEvent("reload")
        #expect(deleted["changes"]?.arrayValue?.map { $0.string("kind") } == ["deleted", "deleted", "deleted"])
        #expect(strings.localizedString("greeting") != "greeting")
        #expect(try daemon.terminate() == 0)
    }

    /// A catalog in a subfolder (`Resources/Help.xcstrings`) is served with its path, a save is one reload of the
    /// changed keys, a second catalog of a table deeper than the root's is reported, and removing the folder
    /// deletes the catalog's tables.
    @Test func aCatalogInASubfolderIsServedLive() throws {
        func help(_ german: String) -> String {
            CatalogText.catalog([("Help", ["de": CatalogText.text(german), "fr": CatalogText.text("Aide")]),
                                 ("Close", ["de": CatalogText.text("Schließen")])])
        }
        let file = "Resources/Help.xcstrings"
        let sandbox = try Sandbox(extraFiles: [file: help("Hilfe")])
        let daemon = try DaemonProcess.serving(sandbox)
        let subscriber = try LineClient(socket: sandbox.socket)
        #expect(try subscriber.request(#"{"id":1,"op":"subscribe","tables":["Help","Settings"]}"#)["ok"] == true)
        let (snapshot, _) = try subscriber.nextEvent("snapshot")
        let tables = snapshot["tables"]?.arrayValue ?? []
        let helpTables = tables.filter { $0.string("table") == "Help" }
        #expect(helpTables.map { $0.string("language") ?? "" } == ["de", "en", "fr"])
        #expect(helpTables.allSatisfy { $0.string("file") == file })
        #expect(helpTables.first?["entries"]?["Help"] == .string("Hilfe"))

        try sandbox.save(help("Anleitung"), to: file)
        let (reload, skipped) = try subscriber.nextEvent("reload")
        #expect(skipped.isEmpty)
        #expect(Self.changedKeys(reload) == ["de": ["Help"]])
        #expect(reload["changes"]?.arrayValue?.allSatisfy { $0.string("file") == file } == true)

        // A second catalog of the sample's root table `Settings`, two folders down: the root's wins, this one is
        // reported.
        let nested = "Features/Chat/Settings.xcstrings"
        try sandbox.write(CatalogText.catalog([("Settings", ["de": CatalogText.text("Nicht dies")])]), to: nested)
        let (conflict, _) = try subscriber.nextEvent("error")
        #expect(conflict.string("file") == nested)
        #expect(conflict.string("message")?.contains("the catalog Settings.xcstrings, which is served") == true,
                "\(conflict)")
        let get = try HotstringsProcess.run(["get", "--socket", sandbox.socket, "--language", "de", "--table",
                                             "Settings", "Settings"])
        #expect(get.stdout == "Einstellungen\n", "\(get)")

        try FileManager.default.removeItem(atPath: sandbox.bundle + "/Resources")
        let (deleted, _) = try subscriber.nextEvent("reload")
        #expect(deleted["changes"]?.arrayValue?.map { $0.string("kind") } == ["deleted", "deleted", "deleted"])
        #expect(deleted["changes"]?.arrayValue?.allSatisfy { $0.string("file") == file } == true)
        #expect(try daemon.terminate() == 0)
    }

    @Test(.needsCorpusCatalog)
    func aSaveOfTheBigCorpusCatalogIsOneReloadOfExactlyTheChangedKeys() throws {
        let corpus = try String(contentsOfFile: try #require(corpusCatalogPath), encoding: .utf8)
        let sandbox = try Sandbox(extraFiles: ["Corpus.xcstrings": corpus])
        let daemon = try DaemonProcess.serving(sandbox)
        let subscriber = try LineClient(socket: sandbox.socket)
        #expect(try subscriber.request(#"{"id":1,"op":"subscribe","tables":["Corpus"]}"#)["ok"] == true)
        let (snapshot, _) = try subscriber.nextEvent("snapshot", timeout: .seconds(30))
        let languages = snapshot["tables"]?.arrayValue?.count ?? 0
        #expect(languages > 10, "IceCubesApp's catalog has many languages")

        // Change the German and the French value of one key.
        let key = "\"account.action.block\""
        let start = try #require(corpus.range(of: key))
        var edited = corpus
        let german = try #require(edited.range(of: "\"de\"", range: start.upperBound..<edited.endIndex))
        let germanValue = try #require(edited.range(of: "\"value\" : \"", range: german.upperBound..<edited.endIndex))
        edited.replaceSubrange(germanValue, with: "\"value\" : \"LIVE ")
        let french = try #require(edited.range(of: "\"fr\"", range: start.upperBound..<edited.endIndex))
        let frenchValue = try #require(edited.range(of: "\"value\" : \"", range: french.upperBound..<edited.endIndex))
        edited.replaceSubrange(frenchValue, with: "\"value\" : \"LIVE ")
        try sandbox.save(edited, to: "Corpus.xcstrings")
        let (reload, skipped) = try subscriber.nextEvent("reload", timeout: .seconds(30))
        #expect(skipped.isEmpty)
        #expect(Self.changedKeys(reload) == ["de": ["account.action.block"], "fr": ["account.action.block"]])
        #expect(try daemon.terminate() == 0)
    }
}
