import Foundation
import HotStringsProtocol
import HotStringsTestSupport
import HotStringsTestTraits
import StringsFormat
import Testing

/// One entry of a `reload` event's `changes`, in a shape tests compare with `==`.
struct ChangeRecord: Equatable, CustomStringConvertible {
    var language: String
    var table: String
    var file: String
    var kind: String
    var added: [String: String] = [:]
    var changed: [String: String] = [:]
    var removed: [String] = []

    init(language: String, table: String, file: String, kind: String, added: [String: String] = [:],
         changed: [String: String] = [:], removed: [String] = []) {
        (self.language, self.table, self.file, self.kind) = (language, table, file, kind)
        (self.added, self.changed, self.removed) = (added, changed, removed)
    }

    init?(_ value: JSONValue) {
        guard let language = value.string("language"), let table = value.string("table"),
              let file = value.string("file"), let kind = value.string("kind") else { return nil }
        self.init(language: language, table: table, file: file, kind: kind,
                  added: Self.strings(value["added"]), changed: Self.strings(value["changed"]),
                  removed: (value["removed"]?.arrayValue ?? []).compactMap(\.stringValue))
    }

    private static func strings(_ value: JSONValue?) -> [String: String] {
        var result: [String: String] = [:]
        for (key, member) in value?.objectMembers ?? [] { result[key] = member.stringValue }
        return result
    }

    var description: String { "\(language)/\(table) \(kind) +\(added) ~\(changed) -\(removed)" }
}

/// The changes of a `reload` event.
func changes(of event: JSONValue) -> [ChangeRecord] {
    (event["changes"]?.arrayValue ?? []).compactMap(ChangeRecord.init)
}

/// The (language, table) pairs of a `snapshot` event, sorted.
func tables(of snapshot: JSONValue) -> [String] {
    let tables = snapshot["tables"]?.arrayValue ?? []
    return tables.map { "\($0.string("language") ?? "?")/\($0.string("table") ?? "?")" }.sorted()
}

/// German `Localizable` with one value changed, one key removed and one added.
func editedGerman(_ sandbox: Sandbox) throws -> String {
    let original = try sandbox.read("de.lproj/Localizable.strings")
    let edited = original
        .replacingOccurrences(of: #""greeting" = "Hallo!";"#, with: #""greeting" = "Servus!";"#)
        .replacingOccurrences(of: #""Done" = "Fertig";"#, with: "")
        + "\n\"e2e.added\" = \"neu\";\n"
    try #require(edited != original + "\n\"e2e.added\" = \"neu\";\n", "the sample German table changed")
    return edited
}

let germanEdit = ChangeRecord(
    language: "de", table: "Localizable", file: "de.lproj/Localizable.strings", kind: "updated",
    added: ["e2e.added": "neu"], changed: ["greeting": "Servus!"], removed: ["Done"]
)

@Suite(.needsHotstringsBinary)
struct ReloadTests {
    @Test func everySubscriberGetsTheReloadWithTheExactKeys() throws {
        let sandbox = try Sandbox()
        let daemon = try DaemonProcess.serving(sandbox)
        let subscribers = try (0..<5).map { _ in try LineClient(socket: sandbox.socket) }
        var seq: Int64 = 0
        var epoch: Int64 = 0
        for (index, subscriber) in subscribers.enumerated() {
            let response = try subscriber.request(#"{"id":\#(index),"op":"subscribe","snapshot":false}"#)
            #expect(response.int("id") == Int64(index))
            #expect(response["ok"] == true)
            (epoch, seq) = (try #require(response.int("epoch")), try #require(response.int("seq")))
        }

        try sandbox.save(try editedGerman(sandbox), to: "de.lproj/Localizable.strings")
        for subscriber in subscribers {
            let (reload, skipped) = try subscriber.nextEvent("reload")
            #expect(skipped.isEmpty)
            #expect(reload.int("epoch") == epoch)
            #expect(reload.int("seq") == seq + 1)
            #expect(changes(of: reload) == [germanEdit])
        }

        try sandbox.save("\"extra.one\" = \"1\";\n\"extra.two\" = \"2\";\n", to: "de.lproj/Extra.strings")
        let created = ChangeRecord(language: "de", table: "Extra", file: "de.lproj/Extra.strings", kind: "created",
                                   added: ["extra.one": "1", "extra.two": "2"])
        for subscriber in subscribers {
            let reload = try subscriber.nextMessage()
            #expect(reload.int("seq") == seq + 2)
            #expect(changes(of: reload) == [created])
        }

        try FileManager.default.removeItem(atPath: sandbox.bundle + "/de.lproj/Extra.strings")
        for subscriber in subscribers {
            let reload = try subscriber.nextMessage()
            #expect(reload.int("seq") == seq + 3)
            let deleted = try #require(changes(of: reload).first)
            #expect(deleted.kind == "deleted")
            #expect(deleted.table == "Extra")
            #expect(deleted.removed.sorted() == ["extra.one", "extra.two"])
            #expect(deleted.added.isEmpty && deleted.changed.isEmpty)
        }
        #expect(try daemon.terminate() == 0)
    }

    /// Filters narrow the changes, not the stream: a subscriber gets every `reload` (so `seq` stays contiguous),
    /// with an empty `changes` list when nothing it asked for changed.
    @Test func filtersDeliverOnlyMatchingChangesAndKeepSeqContiguous() throws {
        let sandbox = try Sandbox()
        let daemon = try DaemonProcess.serving(sandbox)
        let filters = [
            "german": #""languages":["DE"]"#,
            "infoPlist": #""tables":["InfoPlist"]"#,
            "germanInfoPlist": #""languages":["de"],"tables":["InfoPlist"]"#,
            "all": #""languages":null"#,
        ]
        var clients: [String: LineClient] = [:]
        var seq: Int64 = 0
        for (name, filter) in filters {
            let client = try LineClient(socket: sandbox.socket)
            let response = try client.request(#"{"id":"\#(name)","op":"subscribe","snapshot":false,\#(filter)}"#)
            #expect(response["ok"] == true, "\(name): \(response)")
            seq = try #require(response.int("seq"))
            clients[name] = client
        }
        let narrow = try LineClient(socket: sandbox.socket)
        _ = try narrow.request(#"{"id":1,"op":"subscribe","languages":["de"],"tables":["Localizable"]}"#)
        let snapshot = try narrow.nextMessage()
        #expect(snapshot.string("event") == "snapshot")
        #expect(tables(of: snapshot) == ["de/Localizable"])
        #expect(snapshot.int("seq") == seq)

        try sandbox.save(try editedGerman(sandbox), to: "de.lproj/Localizable.strings")
        let frenchInfo = try sandbox.read("fr.lproj/InfoPlist.strings") + "\n\"e2e.fr\" = \"oui\";\n"
        let frenchChange = ChangeRecord(language: "fr", table: "InfoPlist", file: "fr.lproj/InfoPlist.strings",
                                        kind: "updated", added: ["e2e.fr": "oui"])
        let expected: [String: [[ChangeRecord]]] = [
            "german": [[germanEdit], []],
            "infoPlist": [[], [frenchChange]],
            "germanInfoPlist": [[], []],
            "all": [[germanEdit], [frenchChange]],
        ]
        var received: [String: [JSONValue]] = [:]
        for (name, client) in clients { received[name] = [try client.nextMessage()] }
        received["narrow"] = [try narrow.nextMessage()]
        try sandbox.save(frenchInfo, to: "fr.lproj/InfoPlist.strings")
        for (name, client) in clients { received[name, default: []].append(try client.nextMessage()) }
        received["narrow", default: []].append(try narrow.nextMessage())

        for (name, events) in received {
            #expect(events.map { $0.string("event") } == ["reload", "reload"], "\(name)")
            #expect(events.map { $0.int("seq") } == [seq + 1, seq + 2], "\(name): seq must stay contiguous")
            let expectedChanges = expected[name] ?? [[germanEdit], []]
            #expect(events.map(changes(of:)) == expectedChanges, "\(name)")
        }
        #expect(try daemon.terminate() == 0)
    }

    @Test func sinceTheCurrentPositionSkipsTheSnapshotAndAnotherEpochGetsOne() throws {
        let sandbox = try Sandbox()
        let daemon = try DaemonProcess.serving(sandbox)
        let probe = try LineClient(socket: sandbox.socket)
        let hello = try probe.request(#"{"id":1,"op":"hello","client":"e2e"}"#)
        #expect(hello.int("protocol") == 1)
        let epoch = try #require(hello.int("epoch"))
        let seq = try #require(hello.int("seq"))

        // Responses and events leave in order, so the next line after the subscribe response tells whether a
        // snapshot was sent: the hello response comes first only when none was.
        let current = try LineClient(socket: sandbox.socket)
        let subscribed = try current.request(#"{"id":1,"op":"subscribe","since":{"epoch":\#(epoch),"seq":\#(seq)}}"#)
        #expect(subscribed.int("seq") == seq)
        try current.send(#"{"id":2,"op":"hello"}"#)
        let next = try current.nextMessage()
        #expect(next.int("id") == 2, "expected no snapshot, got \(next.string("event") ?? "a response")")

        let cases: [(name: String, since: String)] = [
            ("another epoch", #"{"epoch":\#(epoch + 1),"seq":\#(seq)}"#),
            ("an older seq", #"{"epoch":\#(epoch),"seq":\#(seq - 1)}"#),
        ]
        for (name, since) in cases {
            let client = try LineClient(socket: sandbox.socket)
            _ = try client.request(#"{"id":1,"op":"subscribe","since":\#(since)}"#)
            let snapshot = try client.nextMessage()
            #expect(snapshot.string("event") == "snapshot", "\(name)")
            #expect(snapshot.int("epoch") == epoch && snapshot.int("seq") == seq, "\(name)")
            #expect(tables(of: snapshot).count == 15, "\(name)")
        }

        // The subscriber that skipped its snapshot still gets the next change as seq + 1.
        try sandbox.save(try editedGerman(sandbox), to: "de.lproj/Localizable.strings")
        let reload = try current.nextMessage()
        #expect(reload.int("seq") == seq + 1)
        #expect(changes(of: reload) == [germanEdit])
        #expect(try daemon.terminate() == 0)
    }

    @Test func aBrokenSaveIsAnErrorEventAndTheLastGoodTableStaysServed() throws {
        let sandbox = try Sandbox()
        let daemon = try DaemonProcess.serving(sandbox)
        let subscriber = try LineClient(socket: sandbox.socket)
        let seq = try #require(try subscriber.request(#"{"id":1,"op":"subscribe","snapshot":false}"#).int("seq"))
        let repaired = try editedGerman(sandbox)
        try sandbox.save("\"greeting\" = \"Kaputt\";\n\"broken\" = ;\n", to: "de.lproj/Localizable.strings")
        let error = try subscriber.nextMessage()
        #expect(error.string("event") == "error")
        #expect(error.int("seq") == seq + 1)
        #expect(error.string("file") == "de.lproj/Localizable.strings")
        #expect(error.int("line") == 2)
        #expect(error.int("column") != nil)
        #expect(error.string("message")?.isEmpty == false)

        let probe = try LineClient(socket: sandbox.socket)
        let lookup = try probe.request(#"{"id":1,"op":"get","key":"greeting","language":"de"}"#)
        #expect(lookup.string("value") == "Hallo!", "the last good table is still served")
        let status = try probe.request(#"{"id":2,"op":"status"}"#)
        #expect(status["lastErrors"]?.arrayValue?.first?.string("file") == "de.lproj/Localizable.strings")

        try sandbox.save(repaired, to: "de.lproj/Localizable.strings")
        let reload = try subscriber.nextMessage()
        #expect(reload.int("seq") == seq + 2)
        #expect(changes(of: reload) == [germanEdit], "the diff is against the last good table")
        #expect(try daemon.terminate() == 0)
    }
}
