import Testing
import HotStringsProtocol

@Suite("Request decoding")
struct RequestDecoderTests {
    static func decode(_ line: String) -> (id: RequestID?, result: Result<Request, ProtocolError>) {
        RequestDecoder.decode(Array(line.utf8))
    }

    static let valid: [(String, Request)] = [
        (#"{"id":1,"op":"hello"}"#, .hello(client: nil)),
        (#"{"id":1,"op":"hello","client":"my-app 1.2"}"#, .hello(client: "my-app 1.2")),
        (#"{"id":1,"op":"hello","client":null}"#, .hello(client: nil)),
        (#"{"id":1,"op":"languages"}"#, .languages),
        (#"{"id":1,"op":"get","key":"greeting"}"#, .get(key: "greeting", table: "Localizable", languages: [])),
        (#"{"id":1,"op":"get","key":"","table":"Main"}"#, .get(key: "", table: "Main", languages: [])),
        (#"{"id":1,"op":"get","key":"greeting","table":"Localizable","language":"de-CH"}"#,
         .get(key: "greeting", table: "Localizable", languages: ["de-CH"])),
        (#"{"id":1,"op":"get","key":"k","languages":["de-CH","fr"]}"#,
         .get(key: "k", table: "Localizable", languages: ["de-CH", "fr"])),
        (#"{"id":1,"op":"get","key":"k","languages":[]}"#, .get(key: "k", table: "Localizable", languages: [])),
        (#"{"id":1,"op":"get","key":"k","language":null,"languages":["fr"]}"#,
         .get(key: "k", table: "Localizable", languages: ["fr"])),
        (#"{"id":1,"op":"table","language":"de"}"#, .table(language: "de", table: "Localizable")),
        (#"{"id":1,"op":"table","language":"de","table":"InfoPlist"}"#, .table(language: "de", table: "InfoPlist")),
        (#"{"id":1,"op":"subscribe"}"#, .subscribe(Subscription())),
        (#"{"id":1,"op":"subscribe","snapshot":true}"#, .subscribe(Subscription(snapshot: true))),
        (#"{"id":1,"op":"subscribe","snapshot":false}"#, .subscribe(Subscription(snapshot: false))),
        (#"{"id":1,"op":"subscribe","languages":["de","fr"],"tables":["Localizable"]}"#,
         .subscribe(Subscription(languages: ["de", "fr"], tables: ["Localizable"]))),
        (#"{"id":1,"op":"subscribe","languages":null,"tables":[],"since":null}"#,
         .subscribe(Subscription(tables: []))),
        (#"{"id":1,"op":"subscribe","since":{"epoch":4503599627370495,"seq":0}}"#,
         .subscribe(Subscription(since: StreamPosition(epoch: 4_503_599_627_370_495, seq: 0)))),
        (#"{"id":1,"op":"unsubscribe"}"#, .unsubscribe),
        (#"{"id":1,"op":"select-language","language":"fr"}"#, .selectLanguage("fr")),
        (#"{"id":1,"op":"select-language","language":null}"#, .selectLanguage(nil)),
        (#"{"id":1,"op":"status"}"#, .status),
        // Unknown fields are ignored, whitespace and member order do not matter.
        (#" { "extra" : [1, {"x": null}], "op" : "status", "id" : 1, "v": 2 } "#, .status),
        (#"{"id":1,"op":"get","key":"k","language":"de","future":{"a":1}}"#,
         .get(key: "k", table: "Localizable", languages: ["de"])),
        // A repeated member: the last one counts.
        (#"{"id":1,"op":"hello","op":"status"}"#, .status),
    ]

    @Test("every op decodes with its parameters and defaults", arguments: valid)
    func decodesValid(line: String, expected: Request) {
        let (id, result) = Self.decode(line)
        #expect(id == .number(1))
        #expect(result == .success(expected))
    }

    static let invalid: [(String, ProtocolError.Code, String)] = [
        (#"{"id":1}"#, .badRequest, "missing field 'op'"),
        (#"{"id":1,"op":null}"#, .badRequest, "missing field 'op'"),
        (#"{"id":1,"op":7}"#, .badRequest, "field 'op' must be a string"),
        (#"{"id":1,"op":"frobnicate"}"#, .unknownOp, "unknown op 'frobnicate'"),
        (#"{"id":1,"op":"GET"}"#, .unknownOp, "unknown op 'GET'"),
        (#"{"id":1,"op":"select_language"}"#, .unknownOp, "unknown op 'select_language'"),
        (#"{"id":1,"op":"hello","client":5}"#, .badRequest, "field 'client' must be a string"),
        (#"{"id":1,"op":"get"}"#, .badRequest, "missing field 'key'"),
        (#"{"id":1,"op":"get","key":null}"#, .badRequest, "missing field 'key'"),
        (#"{"id":1,"op":"get","key":42}"#, .badRequest, "field 'key' must be a string"),
        (#"{"id":1,"op":"get","key":["k"]}"#, .badRequest, "field 'key' must be a string"),
        (#"{"id":1,"op":"get","key":"k","table":true}"#, .badRequest, "field 'table' must be a string"),
        (#"{"id":1,"op":"get","key":"k","table":""}"#, .badRequest, "field 'table' must not be empty"),
        (#"{"id":1,"op":"get","key":"k","language":["de"]}"#, .badRequest, "field 'language' must be a string"),
        (#"{"id":1,"op":"get","key":"k","language":""}"#, .badRequest, "field 'language' must not be empty"),
        (#"{"id":1,"op":"get","key":"k","languages":"de"}"#, .badRequest,
         "field 'languages' must be an array of strings"),
        (#"{"id":1,"op":"get","key":"k","languages":["de",1]}"#, .badRequest,
         "field 'languages' must be an array of strings"),
        (#"{"id":1,"op":"get","key":"k","languages":["de",""]}"#, .badRequest,
         "field 'languages' must not contain empty strings"),
        (#"{"id":1,"op":"get","key":"k","language":"de","languages":["fr"]}"#, .badRequest,
         "give either 'language' or 'languages', not both"),
        (#"{"id":1,"op":"table"}"#, .badRequest, "missing field 'language'"),
        (#"{"id":1,"op":"table","language":1}"#, .badRequest, "field 'language' must be a string"),
        (#"{"id":1,"op":"table","language":"de","table":{}}"#, .badRequest, "field 'table' must be a string"),
        (#"{"id":1,"op":"subscribe","languages":{}}"#, .badRequest, "field 'languages' must be an array of strings"),
        (#"{"id":1,"op":"subscribe","tables":[null]}"#, .badRequest, "field 'tables' must be an array of strings"),
        (#"{"id":1,"op":"subscribe","snapshot":1}"#, .badRequest, "field 'snapshot' must be true or false"),
        (#"{"id":1,"op":"subscribe","snapshot":0}"#, .badRequest, "field 'snapshot' must be true or false"),
        (#"{"id":1,"op":"subscribe","snapshot":"true"}"#, .badRequest, "field 'snapshot' must be true or false"),
        (#"{"id":1,"op":"subscribe","since":5}"#, .badRequest,
         "field 'since' must be an object with 'epoch' and 'seq'"),
        (#"{"id":1,"op":"subscribe","since":[1,2]}"#, .badRequest,
         "field 'since' must be an object with 'epoch' and 'seq'"),
        (#"{"id":1,"op":"subscribe","since":{"seq":1}}"#, .badRequest, "missing field 'since.epoch'"),
        (#"{"id":1,"op":"subscribe","since":{"epoch":1}}"#, .badRequest, "missing field 'since.seq'"),
        (#"{"id":1,"op":"subscribe","since":{"epoch":"1","seq":2}}"#, .badRequest,
         "field 'since.epoch' must be a non-negative integer"),
        (#"{"id":1,"op":"subscribe","since":{"epoch":1,"seq":-2}}"#, .badRequest,
         "field 'since.seq' must be a non-negative integer"),
        (#"{"id":1,"op":"subscribe","since":{"epoch":1,"seq":2.5}}"#, .badRequest,
         "field 'since.seq' must be a non-negative integer"),
        (#"{"id":1,"op":"select-language"}"#, .badRequest, "missing field 'language'"),
        (#"{"id":1,"op":"select-language","language":""}"#, .badRequest, "field 'language' must not be empty"),
        (#"{"id":1,"op":"select-language","language":["fr"]}"#, .badRequest,
         "field 'language' must be a string or null"),
    ]

    @Test("bad fields are answered with the request's id and a precise message", arguments: invalid)
    func rejectsInvalid(line: String, code: ProtocolError.Code, message: String) {
        let (id, result) = Self.decode(line)
        #expect(id == .number(1))
        #expect(result == .failure(ProtocolError(code, message)))
    }

    static let unreadable: [(String, String)] = [
        ("", "invalid JSON: unexpected end of input at byte 0"),
        ("hello", "invalid JSON: unexpected character at byte 0"),
        (#"{"id":1,"op":"status""#, "invalid JSON: unterminated object at byte 21"),
        (#"{"id":1,"op":"status"}{}"#, "invalid JSON: unexpected content after the value at byte 22"),
        ("[]", "not a JSON object"),
        (#"[{"id":1,"op":"status"}]"#, "not a JSON object"),
        (#""status""#, "not a JSON object"),
        ("42", "not a JSON object"),
        ("null", "not a JSON object"),
        (#"{"id":1.5,"op":"status"}"#, "field 'id' must be an integer or a string"),
        (#"{"id":1e3,"op":"status"}"#, "field 'id' must be an integer or a string"),
        (#"{"id":true,"op":"status"}"#, "field 'id' must be an integer or a string"),
        (#"{"id":[1],"op":"status"}"#, "field 'id' must be an integer or a string"),
        (#"{"id":{},"op":"status"}"#, "field 'id' must be an integer or a string"),
        (#"{"id":99999999999999999999,"op":"status"}"#, "field 'id' must be an integer or a string"),
    ]

    @Test("lines without a readable id are answered with a null id", arguments: unreadable)
    func rejectsUnreadable(line: String, message: String) {
        let (id, result) = Self.decode(line)
        #expect(id == nil)
        #expect(result == .failure(.badRequest(message)))
    }

    @Test("binary garbage is a bad request, never a crash")
    func binaryGarbage() {
        var generator = SystemRandomNumberGenerator()
        let fixed: [[UInt8]] = [[0xFF, 0xFE, 0x00], [0x7B, 0xFF, 0x7D], [0x00], Array(repeating: 0x5B, count: 65_536)]
        let random = (0..<200).map { _ in
            (0..<Int.random(in: 1...64, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        }
        for bytes in fixed + random {
            let (_, result) = RequestDecoder.decode(bytes)
            guard case .failure(let error) = result else {
                Issue.record("garbage \(bytes) decoded")
                continue
            }
            #expect(error.code == .badRequest)
        }
    }

    static let ids: [(String, RequestID?)] = [
        (#"{"op":"status"}"#, nil),
        (#"{"id":null,"op":"status"}"#, nil),
        (#"{"id":0,"op":"status"}"#, .number(0)),
        (#"{"id":-7,"op":"status"}"#, .number(-7)),
        (#"{"id":9223372036854775807,"op":"status"}"#, .number(.max)),
        (#"{"id":"","op":"status"}"#, .string("")),
        (#"{"id":"req-1 ✓","op":"status"}"#, .string("req-1 ✓")),
        (#"{"id":"12","op":"status"}"#, .string("12")),
        (#"{"id":"a","op":"frobnicate"}"#, .string("a")),
        (#"{"id":3,"op":"get","key":1}"#, .number(3)),
    ]

    @Test("ids are read as integers or strings, kept even when the request is bad", arguments: ids)
    func readsIDs(line: String, expected: RequestID?) {
        #expect(Self.decode(line).id == expected)
    }
}
