import StringsFormat
import Testing
import HotStringsProtocol

@Suite("Typed events")
struct ServerEventTests {
    static func typed(_ line: [UInt8]) throws -> ServerEvent {
        guard case .event(let name, _, _, let body) = try ServerMessage.decode(line.dropLast()) else {
            throw MalformedMessage("not an event")
        }
        return try ServerEvent(name: name, body: body)
    }

    @Test("every encoded event reads back as the payload it was written from")
    func roundTrip() throws {
        let tables = [
            TablePayload(language: LanguageTag("de")!, table: "L", file: "de.lproj/L.strings", entries: [("b", "2"), ("a", "1\n")]),
            TablePayload(language: LanguageTag("en")!, table: "M", file: "en.lproj/M.strings", entries: []),
        ]
        #expect(try Self.typed(EventEncoder.encode(.snapshot(tables: tables), epoch: 1, seq: 2))
            == .snapshot(tables: tables))
        let changes = [
            ChangePayload(language: LanguageTag("de")!, table: "L", file: "f", kind: .updated,
                          added: [("n", "N")], changed: [("c", "C")], removed: ["r"]),
            ChangePayload(language: LanguageTag("fr")!, table: "L", file: "g", kind: .created, added: [("k", "v")]),
        ]
        #expect(try Self.typed(EventEncoder.encode(.reload(changes: changes), epoch: 1, seq: 3))
            == .reload(changes: changes))
        #expect(try Self.typed(EventEncoder.encode(.error(file: "f", line: 3, column: 9, message: "m"),
                                                   epoch: 1, seq: 4))
            == .error(file: "f", line: 3, column: 9, message: "m"))
        #expect(try Self.typed(EventEncoder.encode(.error(file: "f", line: nil, column: nil, message: "m"),
                                                   epoch: 1, seq: 4))
            == .error(file: "f", line: nil, column: nil, message: "m"))
        #expect(try Self.typed(EventEncoder.encode(.language(language: nil, previous: LanguageTag("de")),
                                                   epoch: 1, seq: 5))
            == .language(language: nil, previous: LanguageTag("de")))
        #expect(try Self.typed(EventEncoder.encode(.resync(reason: "root-removed"), epoch: 1, seq: 6))
            == .resync(reason: "root-removed"))
        #expect(try ServerEvent(name: "future", body: ["x": 1]) == .unknown(name: "future", body: ["x": 1]))
    }

    static let malformed: [(String, JSONValue, String)] = [
        ("snapshot", [:], "snapshot: missing member 'tables'"),
        ("snapshot", ["tables": 1], "snapshot.tables must be an array"),
        ("snapshot", ["tables": [["language": "de", "table": "L", "file": "f"]]],
         "snapshot.tables[0]: missing member 'entries'"),
        ("snapshot", ["tables": [["language": "de", "table": "L", "file": "f", "entries": ["k": 1]]]],
         "snapshot.tables[0].entries must be an object of strings"),
        ("reload", ["changes": [["language": "de", "table": "L", "file": "f", "kind": "renamed"]]],
         "reload.changes[0].kind: unknown kind 'renamed'"),
        ("reload", ["changes": [[
            "language": "de", "table": "L", "file": "f", "kind": "deleted", "added": [:], "changed": [:],
            "removed": [1],
        ]]], "reload.changes[0].removed must be an array of strings"),
        // A language stays a tag from the wire on: a name that is none is the daemon's error, not a new table.
        ("snapshot", ["tables": [["language": "../de", "table": "L", "file": "f", "entries": [:]]]],
         "snapshot.tables[0].language: '../de' is not a language tag"),
        ("reload", ["changes": [[
            "language": "", "table": "L", "file": "f", "kind": "deleted", "added": [:], "changed": [:], "removed": [],
        ]]], "reload.changes[0].language: '' is not a language tag"),
        ("error", ["file": "f", "line": "1", "message": "m"], "error.line must be an integer or null"),
        ("language", ["language": 1], "language.language must be a string or null"),
        ("resync", [:], "resync: missing member 'reason'"),
    ]

    @Test("malformed payloads name the member at fault", arguments: malformed)
    func rejectsMalformed(name: String, body: JSONValue, reason: String) {
        #expect(throws: MalformedMessage(reason)) { try ServerEvent(name: name, body: body) }
    }
}
