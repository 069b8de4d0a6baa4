import Foundation
import HotStringsProtocol
import HotStringsTestSupport
import HotStringsTestTraits
import LinuxSystem
import StringsFormat
import Testing

/// A table of 3,000 keys (about 300 KB, more than a socket buffer holds), so responses and snapshots that
/// include it take several writes.
let bigTable = (0..<3_000).map { #""key.\#($0)" = "\#(String(repeating: "v", count: 80)) \#($0)";"# }
    .joined(separator: "\n")

@Suite(.needsHotstringsBinary)
struct BadInputTests {
    /// Requests the daemon must answer with an error on the same connection, which stays usable.
    static let malformed: [(line: String, id: JSONValue, code: String, message: String)] = [
        ("not json", .null, "bad_request", "invalid JSON"),
        ("[1,2]", .null, "bad_request", "not a JSON object"),
        (#"{"id":1,"op":"frobnicate"}"#, 1, "unknown_op", "unknown op 'frobnicate'"),
        (#"{"id":2}"#, 2, "bad_request", "missing field 'op'"),
        (#"{"id":3,"op":7}"#, 3, "bad_request", "field 'op' must be a string"),
        (#"{"id":4,"op":"get"}"#, 4, "bad_request", "missing field 'key'"),
        (#"{"id":5,"op":"get","key":5}"#, 5, "bad_request", "field 'key' must be a string"),
        (#"{"id":6,"op":"get","key":"k","languages":"de"}"#, 6, "bad_request", "field 'languages' must be an array"),
        (#"{"id":7,"op":"subscribe","snapshot":"yes"}"#, 7, "bad_request", "field 'snapshot' must be true or false"),
        (#"{"id":8,"op":"subscribe","tables":[1]}"#, 8, "bad_request", "field 'tables' must be an array"),
        (#"{"id":9,"op":"subscribe","since":{"epoch":-1,"seq":0}}"#, 9, "bad_request", "since.epoch"),
        (#"{"id":10,"op":"subscribe","since":5}"#, 10, "bad_request", "field 'since' must be an object"),
        (#"{"id":11,"op":"select-language","language":5}"#, 11, "bad_request", "must be a string or null"),
        (#"{"id":[1],"op":"hello"}"#, .null, "bad_request", "field 'id' must be"),
        (#"{"id":"s","op":"table","language":"xx"}"#, "s", "not_found", "no table 'Localizable' in language 'xx'"),
        (#"{"id":12,"op":"table","language":"de","table":"Nope"}"#, 12, "not_found", "no table 'Nope'"),
        (#"{"id":13,"op":"get","key":"\ud800"}"#, .null, "bad_request", "lone surrogate"),
        (String(repeating: "[", count: 10_000), .null, "bad_request", "invalid JSON"),
    ]

    @Test func malformedRequestsGetErrorsAndTheConnectionStaysUsable() throws {
        let sandbox = try Sandbox()
        let daemon = try DaemonProcess.serving(sandbox)
        let client = try LineClient(socket: sandbox.socket)
        for (line, id, code, message) in Self.malformed {
            let response = try client.request(line)
            #expect(response["ok"] == false, "\(line.prefix(80))")
            #expect(response["id"] == id, "\(line.prefix(80))")
            #expect(response["error"]?.string("code") == code, "\(line.prefix(80)): \(response)")
            #expect(response["error"]?.string("message")?.contains(message) == true, "\(line.prefix(80)): \(response)")
        }
        try client.send(bytes: Array(#"{"id":14,"op":"get","key":""#.utf8) + [0xFF] + Array("\"}\n".utf8))
        #expect(try client.nextMessage()["error"]?.string("message")?.contains("invalid UTF-8") == true)
        let lookup = try client.request(#"{"id":99,"op":"get","key":"greeting","language":"de"}"#)
        #expect(lookup.string("value") == "Hallo!")
        #expect(try daemon.terminate() == 0)
    }

    @Test func binaryGarbageIsAnsweredLineByLine() throws {
        let sandbox = try Sandbox()
        let daemon = try DaemonProcess.serving(sandbox)
        var generator = SplitMix64(seed: 0x1234_5678)
        var garbage = (0..<16_384).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        garbage.append(0x0A)
        // The framer's rule: lines end at "\n", a "\r" before it is dropped, empty lines are skipped.
        let expectedLines = garbage.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast()
            .filter { !$0.isEmpty && !($0.count == 1 && $0.first == 0x0D) }.count
        let client = try LineClient(socket: sandbox.socket)
        try client.send(bytes: garbage)
        try client.send(#"{"id":"after","op":"hello"}"#)
        var responses: [JSONValue] = []
        while responses.last?["id"] != "after" { responses.append(try client.nextMessage()) }
        #expect(responses.count == expectedLines + 1)
        #expect(responses.dropLast().allSatisfy { $0["ok"] == false && $0["error"]?.string("code") == "bad_request" })
        #expect(try daemon.terminate() == 0)
    }

    @Test func aLineOver64KiBIsTooLargeAndClosed() throws {
        let sandbox = try Sandbox()
        let daemon = try DaemonProcess.serving(sandbox)
        let other = try LineClient(socket: sandbox.socket)
        let client = try LineClient(socket: sandbox.socket)
        let line = #"{"id":1,"op":"get","key":""# + String(repeating: "k", count: 70_000) + "\"}\n"
        // The daemon may close before it has read everything; a write to a closed socket is fine here.
        try? client.send(bytes: Array(line.utf8))
        let lines = try #require(try client.readUntilClosed(), "the connection must be closed")
        let response = try JSONValue(parsing: try #require(lines.last))
        #expect(response["error"]?.string("code") == "too_large")
        #expect(lines.count == 1)
        #expect(try other.request(#"{"id":2,"op":"hello"}"#)["ok"] == true)
        #expect(try daemon.terminate() == 0)
    }
}
