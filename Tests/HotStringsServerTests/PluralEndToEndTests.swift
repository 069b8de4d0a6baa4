import Foundation
import HotStringsClient
import HotStringsProtocol
import HotStringsTestSupport
import HotStringsTestTraits
import Testing

/// `.stringsdict` live through the real daemon: a subscriber sees the new rule, `LiveStrings` formats the new
/// plural forms, a broken save keeps the last good rules with an `error` naming file, line and column.
@Suite(.needsHotstringsBinary)
struct PluralEndToEndTests {
    static let english = "en.lproj/Localizable.stringsdict"

    @Test func editingAStringsdictReachesSubscribersAndLiveStrings() async throws {
        let sandbox = try Sandbox()
        let daemon = try await DaemonProcess.serving(sandbox)
        let subscriber = try LineClient(socket: sandbox.socket)
        let response = try subscriber.request(#"{"id":1,"op":"subscribe","languages":["en"]}"#)
        #expect(response["ok"] == true)
        let (snapshot, _) = try subscriber.nextEvent("snapshot")
        let table = try #require(snapshot["tables"]?.arrayValue?.first { $0.string("table") == "Localizable" })
        let rule = try #require(table["rules"]?["items.count"])
        #expect(rule["items"]?["one"] == .string("%d item"))
        #expect(table["entries"]?["items.count"] == .string("%d items"), "older clients see the plain text")

        let strings = LiveStrings(configuration: LiveStrings.Configuration(
            socketPath: sandbox.socket, clientName: "tests", environment: ["LANG": "de_CH.UTF-8"],
            reconnectDelay: .milliseconds(10), maximumReconnectDelay: .milliseconds(200)))
        defer { strings.stop() }
        #expect(await strings.waitUntilSynchronized(timeout: .seconds(30)))
        #expect(strings.localizedString("items.count", arguments: [1]) == "1 Eintrag")
        #expect(strings.localizedString("messages.received", arguments: ["Ana", 1])
            == "Ana hat dir eine Nachricht geschickt")
        strings.overrideLanguage("fr")
        #expect(strings.localizedString("items.count", arguments: [0]) == "0 élément")
        strings.overrideLanguage("en")
        #expect(strings.localizedString("items.count", arguments: [1]) == "1 item")

        let edited = try sandbox.read(Self.english).replacingOccurrences(of: "%d item<", with: "just %d item<")
        try sandbox.save(edited, to: Self.english)
        let (reload, skipped) = try subscriber.nextEvent("reload")
        #expect(skipped.isEmpty)
        let change = try #require(reload["changes"]?.arrayValue?.first)
        #expect(change.string("file") == Self.english)
        #expect(change["changed"]?.objectMembers?.map(\.0) == ["items.count"])
        #expect(change["rules"]?["items.count"]?["items"]?["one"] == .string("just %d item"))
        try await pollUntil("LiveStrings sees the new form") {
            strings.localizedString("items.count", arguments: [1]) == "just 1 item"
        }
        #expect(strings.localizedString("items.count", arguments: [2]) == "2 items")

        // A broken save: an error naming the file, line and column; the last good rules stay.
        try sandbox.save(edited.replacingOccurrences(of: "</plist>", with: ""), to: Self.english)
        let (error, _) = try subscriber.nextEvent("error")
        #expect(error.string("file") == Self.english)
        #expect(error.int("line") != nil && error.int("column") != nil)
        #expect(strings.localizedString("items.count", arguments: [1]) == "just 1 item")
        #expect(try daemon.terminate() == 0)
    }

    @Test func getFormatsWithArgumentsThroughTheCLIAndThePythonClient() throws {
        let sandbox = try Sandbox()
        let daemon = try DaemonProcess.serving(sandbox)
        let french = try HotstringsProcess.run(["get", "--socket", sandbox.socket, "--language", "fr",
                                                "items.count", "0"])
        #expect(french.code == 0 && french.stdout == "0 élément\n", "\(french)")
        let german = try HotstringsProcess.run(["get", "--socket", sandbox.socket, "--language", "de-CH",
                                                "messages.received", "Ana", "3"])
        #expect(german.stdout == "Ana hat dir 3 Nachrichten geschickt\n", "\(german)")
        // `pt-BR` has no rule: its plain string is formatted like String(format:).
        let plain = try HotstringsProcess.run(["get", "--socket", sandbox.socket, "--language", "pt-BR",
                                               "items.count", "1"])
        #expect(plain.code == 0 && plain.stdout == "1 itens\n", "\(plain)")
        if python3 != nil {
            let python = try PythonRun(["--socket", sandbox.socket, "get", "items.count", "1", "--language", "de"],
                                       in: sandbox)
            #expect(python.finish() == 0, "\(python.errors)")
            #expect(python.output == "1 Eintrag\n")
        }
        #expect(try daemon.terminate() == 0)
    }
}
