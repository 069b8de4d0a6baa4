import Foundation
import HotStringsClient
import HotStringsProtocol
import HotStringsTestSupport
import HotStringsTestTraits
import StringsFormat
import Testing

/// `set` and `remove` through a real daemon: the write-back enters through the watcher like an editor's save.
@Suite(.needsHotstringsBinary)
struct SetEndToEndTests {
    @Test func aSetReachesASubscriberAsOneReloadAndAnotherProcessReadsIt() throws {
        let sandbox = try Sandbox()
        let daemon = try DaemonProcess.serving(sandbox)
        let subscriber = try LineClient(socket: sandbox.socket)
        let subscribed = try subscriber.request(#"{"id":1,"op":"subscribe","snapshot":false}"#)
        let seq = try #require(subscribed.int("seq"))
        let writer = try LineClient(socket: sandbox.socket)
        let answer = try writer.request(#"{"id":2,"op":"set","key":"greeting","value":"Servus","language":"de"}"#)
        #expect(answer["ok"] == true)
        #expect(answer.string("file") == "de.lproj/Localizable.strings")

        let (reload, skipped) = try subscriber.nextEvent("reload")
        #expect(skipped.isEmpty)
        #expect(reload.int("seq") == seq + 1)
        #expect(changes(of: reload) == [ChangeRecord(language: "de", table: "Localizable",
                                                     file: "de.lproj/Localizable.strings", kind: "updated",
                                                     changed: ["greeting": "Servus"])])
        // Exactly one reload: the next thing the subscriber gets is the reload of the next save.
        try sandbox.save("\"extra\" = \"1\";\n", to: "fr.lproj/Extra.strings")
        let next = try subscriber.nextMessage()
        #expect(next.int("seq") == seq + 2)
        #expect(changes(of: next).map(\.table) == ["Extra"])

        let get = try HotstringsProcess.run(["get", "greeting", "--language", "de", "--socket", sandbox.socket])
        #expect(get.code == 0)
        #expect(get.stdout == "Servus\n")

        let removed = try writer.request(#"{"id":3,"op":"remove","key":"greeting","language":"de"}"#)
        #expect(removed.string("file") == "de.lproj/Localizable.strings")
        let (removal, _) = try subscriber.nextEvent("reload")
        #expect(changes(of: removal).first?.removed == ["greeting"])
        #expect(try daemon.terminate() == 0)
    }

    @Test func refusalsAreErrorsWithNothingWritten() throws {
        let sandbox = try Sandbox()
        let daemon = try DaemonProcess.serving(sandbox)
        let client = try LineClient(socket: sandbox.socket)
        let before = try sandbox.read("de.lproj/Localizable.strings")
        let requests = [
            (#"{"id":1,"op":"set","key":"","value":"x","language":"de"}"#, "bad_request"),
            (#"{"id":2,"op":"set","key":"a\u0000","value":"x","language":"de"}"#, "bad_request"),
            (#"{"id":3,"op":"set","key":"k","value":"x","language":"xx"}"#, "unsupported_language"),
            (#"{"id":4,"op":"set","key":"k","value":"x","language":"de","table":"../en.lproj/Localizable"}"#,
             "bad_request"),
            (#"{"id":5,"op":"remove","key":"no.such.key","language":"de"}"#, "not_found"),
        ]
        for (request, code) in requests {
            let answer = try client.request(request)
            #expect(answer["ok"] == false, "\(request)")
            #expect(answer["error"]?.string("code") == code, "\(request): \(answer)")
        }
        #expect(try sandbox.read("de.lproj/Localizable.strings") == before)
        #expect(try daemon.terminate() == 0)
    }

    /// Sets race an editor that reads the file, adds a key and saves atomically: a set never overwrites the
    /// editor's save (it reads the file again when it changed), and the daemon serves what ends up on disk.
    @Test func aSetRacingAnEditorsSaveLosesNeither() async throws {
        let sandbox = try Sandbox()
        let daemon = try await DaemonProcess.serving(sandbox)
        let socket = sandbox.socket
        let path = sandbox.bundle + "/de.lproj/Localizable.strings"
        for round in 0..<12 {
            async let editor: Void = offThePool {
                let text = try String(contentsOfFile: path, encoding: .utf8)
                try Data((text + "\"editor.\(round)\" = \"e\";\n").utf8).write(to: URL(fileURLWithPath: path),
                                                                             options: .atomic)
            }
            async let setter: JSONValue = offThePool {
                let client = try LineClient(socket: socket)
                defer { client.close() }
                return try client.request(
                    #"{"id":1,"op":"set","key":"set.\#(round)","value":"s","language":"de"}"#)
            }
            let (_, answer) = try await (editor, setter)
            #expect(answer["ok"] == true)
        }
        let table = try StringsFile.parse(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        for round in 0..<12 { #expect(table["editor.\(round)"] == "e", "the editor's save \(round) was lost") }
        // The daemon serves the file as it ended up.
        let client = try LineClient(socket: socket)
        try waitUntil("the daemon serves the file") {
            let served = try client.request(#"{"id":9,"op":"table","language":"de"}"#)
            let entries = served["entries"]?.objectMembers ?? []
            return entries.count == table.count
        }
        #expect(try daemon.terminate() == 0)
    }

    @Test func liveStringsSetsAndSeesItsOwnChange() async throws {
        let sandbox = try Sandbox()
        let daemon = try await DaemonProcess.serving(sandbox)
        let strings = LiveStrings(configuration: .init(socketPath: sandbox.socket, environment: ["LANG": "de"]))
        defer { strings.stop() }
        #expect(await strings.waitUntilSynchronized(timeout: .seconds(20)))
        let file = try await strings.set("greeting", to: "Grüß Gott", language: "de")
        #expect(file == "de.lproj/Localizable.strings")
        try await pollUntil("the mirror has the new value") { strings.localizedString("greeting") == "Grüß Gott" }
        do {
            try await strings.set("greeting", to: "x", language: "xx")
            Issue.record("an unknown language was accepted")
        } catch {
            #expect(error.rejectionCode == "unsupported_language")
        }
        #expect(try daemon.terminate() == 0)
    }
}
