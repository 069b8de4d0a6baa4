import Testing
import HotStringsProtocol
import StringsFormat

@Suite("Server message decoding")
struct ServerMessageTests {
    static func decode(_ line: [UInt8]) throws -> ServerMessage {
        try ServerMessage.decode(line.last == 0x0A ? Array(line.dropLast()) : line)
    }

    @Test("every event the encoder writes decodes to its name, epoch, seq and body")
    func events() throws {
        let cases: [([UInt8], ServerMessage)] = [
            (EventEncoder.encode(.snapshot(tables: [
                TablePayload(language: LanguageTag("de")!, table: "L", file: "de.lproj/L.strings", entries: [("b", "2"), ("a", "1")]),
            ]), epoch: 5, seq: 1), .event(name: "snapshot", epoch: 5, seq: 1, body: [
                "tables": [
                    ["language": "de", "table": "L", "file": "de.lproj/L.strings", "entries": ["b": "2", "a": "1"]],
                ],
            ])),
            (EventEncoder.encode(.reload(changes: [
                ChangePayload(language: LanguageTag("de")!, table: "L", file: "f", kind: .created, added: [("k", "v")]),
            ]), epoch: 5, seq: 2), .event(name: "reload", epoch: 5, seq: 2, body: [
                "changes": [[
                    "language": "de", "table": "L", "file": "f", "kind": "created",
                    "added": ["k": "v"], "changed": [:], "removed": [],
                ]],
            ])),
            (EventEncoder.encode(.error(file: "f", line: 1, column: 2, message: "m"), epoch: 5, seq: 3),
             .event(name: "error", epoch: 5, seq: 3, body: ["file": "f", "line": 1, "column": 2, "message": "m"])),
            (EventEncoder.encode(.language(language: LanguageTag("fr"), previous: nil), epoch: 5, seq: 4),
             .event(name: "language", epoch: 5, seq: 4, body: ["language": "fr", "previous": nil])),
            (EventEncoder.encode(.resync(reason: "overflow"), epoch: 5, seq: 5),
             .event(name: "resync", epoch: 5, seq: 5, body: ["reason": "overflow"])),
            (Array(#"{"event":"future","epoch":5,"seq":6,"x":[1]}"#.utf8),
             .event(name: "future", epoch: 5, seq: 6, body: ["x": [1]])),
        ]
        for (line, expected) in cases {
            #expect(try Self.decode(line) == expected)
        }
    }

    @Test("responses decode to their id and fields, or their error")
    func responses() throws {
        let cases: [([UInt8], ServerMessage)] = [
            (ResponseEncoder.success(id: .number(1), .value(GetAnswer(value: "Hallo", language: "de", isFound: true))),
             .response(id: .number(1), .success(AnswerFields([
                 ("value", "Hallo"), ("language", "de"), ("found", true),
             ])))),
            (ResponseEncoder.success(id: .string("x"), .unsubscribed),
             .response(id: .string("x"), .success(AnswerFields([])))),
            (ResponseEncoder.success(id: .number(2), .table(TableAnswer(entries: [("z", "1"), ("a", "2")],
                                                                       language: "de", seq: 3))),
             .response(id: .number(2), .success(AnswerFields([
                 ("entries", ["z": "1", "a": "2"]), ("language", "de"), ("seq", 3),
             ])))),
            (ResponseEncoder.failure(id: nil, .badRequest("not a JSON object")),
             .response(id: nil, .failure(.badRequest("not a JSON object")))),
            (ResponseEncoder.failure(id: .number(4), .unsupportedLanguage("xx", available: ["de"])),
             .response(id: .number(4), .failure(.unsupportedLanguage("xx", available: ["de"])))),
            (Array(#"{"id":5,"ok":false,"error":{"code":"rate_limited","message":"slow down"}}"#.utf8),
             .response(id: .number(5), .failure(.internal("rate_limited: slow down")))),
        ]
        for (line, expected) in cases {
            #expect(try Self.decode(line) == expected)
        }
    }

    static let malformed: [(String, String)] = [
        ("", "invalid JSON: unexpected end of input at byte 0"),
        ("[1]", "not a JSON object"),
        (#"{"event":1,"epoch":1,"seq":1}"#, "member 'event' must be a string"),
        (#"{"event":"reload","seq":1}"#, "member 'epoch' must be a non-negative integer"),
        (#"{"event":"reload","epoch":1,"seq":-1}"#, "member 'seq' must be a non-negative integer"),
        (#"{"id":1}"#, "neither an event nor a response"),
        (#"{"id":1,"ok":"yes"}"#, "neither an event nor a response"),
        (#"{"id":[],"ok":true}"#, "member 'id' must be an integer, a string or null"),
        (#"{"id":1,"ok":false}"#, "a failed response needs 'error' with 'code' and 'message'"),
        (#"{"id":1,"ok":false,"error":{"code":"internal"}}"#,
         "a failed response needs 'error' with 'code' and 'message'"),
        (#"{"id":1,"ok":false,"error":{"code":"internal","message":"m","available":[1]}}"#,
         "member 'available' must be an array of strings"),
    ]

    @Test("lines that are neither a response nor an event are rejected with the reason", arguments: malformed)
    func rejectsMalformed(line: String, reason: String) {
        #expect(throws: MalformedMessage(reason)) { try ServerMessage.decode(Array(line.utf8)) }
    }
}
