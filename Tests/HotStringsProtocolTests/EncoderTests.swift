import Testing
import HotStringsProtocol
import StringsFormat

private func text(_ bytes: [UInt8]) -> String {
    String(decoding: bytes, as: UTF8.self)
}

@Suite("Response and event encoding")
struct EncoderTests {
    @Test("success lines put id and ok first, then the answer's members in order")
    func success() {
        let line = ResponseEncoder.success(id: .number(1),
                                           .value(GetAnswer(value: "Hallo", language: "de", isFound: true)))
        #expect(text(line) == #"{"id":1,"ok":true,"value":"Hallo","language":"de","found":true}"# + "\n")
        #expect(text(ResponseEncoder.success(id: .string("a\"b"), .unsubscribed)) == #"{"id":"a\"b","ok":true}"# + "\n")
        #expect(text(ResponseEncoder.success(id: nil, .selection(SelectLanguageAnswer(selected: nil))))
            == #"{"id":null,"ok":true,"selected":null}"# + "\n")
    }

    @Test("a line encoded without an id answers any id byte for byte as if encoded with it")
    func reidentified() {
        let answer = Answer.table(TableAnswer(entries: [("k", "v \"quoted\"")], language: "de", seq: 7))
        let anonymous = ResponseEncoder.success(id: nil, answer)
        for id in [RequestID.number(41), .number(-1), .string("a\"b"), .string("")] {
            #expect(ResponseEncoder.line(anonymous, answering: id) == ResponseEncoder.success(id: id, answer))
        }
        #expect(ResponseEncoder.line(anonymous, answering: nil) == anonymous)
        let failure = ResponseEncoder.failure(id: nil, ProtocolError(.notFound, "no table"))
        #expect(ResponseEncoder.line(failure, answering: .number(9))
            == ResponseEncoder.failure(id: .number(9), ProtocolError(.notFound, "no table")))
    }

    @Test("failure lines carry code and message, and available when set")
    func failure() {
        #expect(text(ResponseEncoder.failure(id: .number(2), .badRequest("missing field 'key'")))
            == #"{"id":2,"ok":false,"error":{"code":"bad_request","message":"missing field 'key'"}}"# + "\n")
        #expect(text(ResponseEncoder.failure(id: nil, .unsupportedLanguage("xx", available: ["de", "en"])))
            == #"{"id":null,"ok":false,"error":{"code":"unsupported_language","message":"unsupported language 'xx'","#
            + #""available":["de","en"]}}"# + "\n")
        #expect(text(ResponseEncoder.failure(id: .string("t"), .tooLarge()))
            == #"{"id":"t","ok":false,"error":{"code":"too_large","message":"request line longer than 65536 bytes"}}"#
            + "\n")
        #expect(text(ResponseEncoder.failure(id: .number(3), .internal("boom")))
            == #"{"id":3,"ok":false,"error":{"code":"internal","message":"boom"}}"# + "\n")
        #expect(text(ResponseEncoder.failure(id: .number(4), .unknownOp("x")))
            == #"{"id":4,"ok":false,"error":{"code":"unknown_op","message":"unknown op 'x'"}}"# + "\n")
        #expect(text(ResponseEncoder.failure(id: .number(5), .notFound("no table 'X' in 'de'")))
            == #"{"id":5,"ok":false,"error":{"code":"not_found","message":"no table 'X' in 'de'"}}"# + "\n")
    }

    @Test("the table answer writes entries in source order, then its language and seq")
    func table() {
        let line = ResponseEncoder.success(id: .number(9), .table(TableAnswer(
            entries: [("z", "letzte"), ("a\n", "erste \"1\"")], language: "de", seq: 12)))
        #expect(text(line) == #"{"id":9,"ok":true,"entries":{"z":"letzte","a\n":"erste \"1\""},"#
            + #""language":"de","seq":12}"# + "\n")
    }

    @Test("snapshot events list tables with their entries in order")
    func snapshot() {
        let line = EventEncoder.encode(.snapshot(tables: [
            TablePayload(language: LanguageTag("de")!, table: "Localizable", file: "de.lproj/Localizable.strings",
                         entries: [("greeting", "Hallo"), ("bye", "Tschüss")]),
            TablePayload(language: LanguageTag("en")!, table: "Empty", file: "en.lproj/Empty.strings", entries: []),
        ]), epoch: 77, seq: 3)
        #expect(text(line) == #"{"event":"snapshot","epoch":77,"seq":3,"tables":["#
            + #"{"language":"de","table":"Localizable","file":"de.lproj/Localizable.strings","#
            + #""entries":{"greeting":"Hallo","bye":"Tschüss"}},"#
            + #"{"language":"en","table":"Empty","file":"en.lproj/Empty.strings","entries":{}}]}"# + "\n")
        #expect(text(EventEncoder.encode(.snapshot(tables: []), epoch: 1, seq: 0))
            == #"{"event":"snapshot","epoch":1,"seq":0,"tables":[]}"# + "\n")
    }

    @Test("reload events list each change with added, changed and removed")
    func reload() {
        let line = EventEncoder.encode(.reload(changes: [
            ChangePayload(language: LanguageTag("de")!, table: "Localizable", file: "de.lproj/Localizable.strings", kind: .updated,
                          added: [("new", "Neu")], changed: [("greeting", "Servus")], removed: ["old"]),
            ChangePayload(language: LanguageTag("fr")!, table: "Main", file: "fr.lproj/Main.strings", kind: .deleted,
                          removed: ["a", "b"]),
        ]), epoch: 77, seq: 4)
        #expect(text(line) == #"{"event":"reload","epoch":77,"seq":4,"changes":["#
            + #"{"language":"de","table":"Localizable","file":"de.lproj/Localizable.strings","kind":"updated","#
            + #""added":{"new":"Neu"},"changed":{"greeting":"Servus"},"removed":["old"]},"#
            + #"{"language":"fr","table":"Main","file":"fr.lproj/Main.strings","kind":"deleted","#
            + #""added":{},"changed":{},"removed":["a","b"]}]}"# + "\n")
    }

    @Test("error, language and resync events")
    func smallEvents() {
        #expect(text(EventEncoder.encode(.error(file: "de.lproj/Localizable.strings", line: 12, column: 7,
                                        message: "expected ';' after the value"), epoch: 7, seq: 5))
            == #"{"event":"error","epoch":7,"seq":5,"file":"de.lproj/Localizable.strings","line":12,"column":7,"#
            + #""message":"expected ';' after the value"}"# + "\n")
        #expect(text(EventEncoder.encode(.error(file: "x.strings", line: nil, column: nil,
                                        message: "permission denied"), epoch: 7, seq: 6))
            == #"{"event":"error","epoch":7,"seq":6,"file":"x.strings","line":null,"column":null,"#
            + #""message":"permission denied"}"# + "\n")
        #expect(text(EventEncoder.encode(.language(language: LanguageTag("fr"), previous: nil), epoch: 7, seq: 7))
            == #"{"event":"language","epoch":7,"seq":7,"language":"fr","previous":null}"# + "\n")
        #expect(text(EventEncoder.encode(.language(language: nil, previous: LanguageTag("fr")), epoch: 7, seq: 8))
            == #"{"event":"language","epoch":7,"seq":8,"language":null,"previous":"fr"}"# + "\n")
        #expect(text(EventEncoder.encode(.resync(reason: "slow-client"), epoch: 9_007_199_254_740_991, seq: 9))
            == #"{"event":"resync","epoch":9007199254740991,"seq":9,"reason":"slow-client"}"# + "\n")
    }

    @Test("a large snapshot is one line that decodes back to the same entries")
    func largeSnapshot() throws {
        let entries = (0..<20_000).map { ("key.\($0) \"q\"", "Wert \($0)\nzeile 2 ✓") }
        let line = EventEncoder.encode(.snapshot(tables: [
            TablePayload(language: LanguageTag("de")!, table: "Big", file: "de.lproj/Big.strings", entries: entries),
        ]), epoch: 1, seq: 2)
        #expect(line.firstIndex(of: 0x0A) == line.count - 1)
        let message = try ServerMessage.decode(line.dropLast())
        guard case .event("snapshot", 1, 2, let body) = message,
              let decoded = body["tables"]?.arrayValue?.first?["entries"]?.objectMembers
        else {
            Issue.record("not a snapshot: \(message)")
            return
        }
        #expect(decoded.count == entries.count)
        #expect(decoded.map(\.0) == entries.map(\.0))
        #expect(decoded.map { $0.1.stringValue } == entries.map(\.1))
    }
}
