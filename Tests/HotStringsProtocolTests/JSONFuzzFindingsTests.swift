import Testing
import StringsFormat
@testable import HotStringsProtocol

/// Inputs found by the protocol fuzzer (Fuzz/protocol/), shrunk, with the behaviour we chose for them.
///
/// Each one is a place where Foundation's JSONSerialization reads the text differently; the tests pin our side
/// so that the divergences documented in Fuzz/protocol/ProtocolDivergences.swift stay true.
@Suite("JSON fuzz findings")
struct JSONFuzzFindingsTests {
    @Test("a raw U+FEFF starting a string, or following an escape, is content and kept")
    func keepsLeadingZeroWidthNoBreakSpace() throws {
        // Found as `"\u{FEFF}Oiojl"`: Foundation drops the U+FEFF, taking it for a byte order mark.
        let leading = try JSONValue(parsing: [0x22, 0xEF, 0xBB, 0xBF, 0x4F, 0x6B, 0x22])
        #expect(leading.stringValue.map { Array($0.unicodeScalars) } == ["\u{FEFF}", "O", "k"])
        let afterEscape = try JSONValue(parsing: [0x22, 0x5C, 0x6E, 0xEF, 0xBB, 0xBF, 0x22])
        #expect(afterEscape.stringValue.map { Array($0.unicodeScalars) } == ["\n", "\u{FEFF}"])
        let asName = try JSONValue(parsing: [0x7B, 0x22, 0xEF, 0xBB, 0xBF, 0x6B, 0x22, 0x3A, 0x31, 0x7D])
        #expect(asName.objectMembers?.first.map { Array($0.0.unicodeScalars) } == ["\u{FEFF}", "k"])
    }

    @Test("a number beyond Double is an infinity, written back as null")
    func numberBeyondDouble() throws {
        // Found in an event line with `"epoch":63e+5572390271`; Foundation refuses the whole text.
        let value = try JSONValue(parsing: Array("[63e+5572390271,-1e400,1e-400]".utf8))
        #expect(value == [.double(.infinity), .double(-.infinity), 0.0])
        #expect(value.serialized() == Array("[null,null,0.0]".utf8))
    }

    @Test("an event whose epoch is beyond Double is malformed, not a crash")
    func eventWithInfiniteEpoch() {
        let line = Array(#"{"event":"language","epoch":63e+5572390271,"seq":4,"language":"fr","previous":null}"#.utf8)
        #expect(throws: MalformedMessage("member 'epoch' must be a non-negative integer")) {
            try ServerMessage.decode(line)
        }
    }

    @Test("a UTF-8 byte order mark before the value is refused, as the protocol is UTF-8 without one")
    func refusesByteOrderMark() {
        #expect(throws: JSONSyntaxError("unexpected character", offset: 0)) {
            try JSONValue(parsing: [0xEF, 0xBB, 0xBF, 0x31])
        }
        let (id, result) = RequestDecoder.decode([0xEF, 0xBB, 0xBF] + Array(#"{"id":1,"op":"status"}"#.utf8))
        #expect(id == nil)
        #expect(result == .failure(.badRequest("invalid JSON: unexpected character at byte 0")))
    }
}
