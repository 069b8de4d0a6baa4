import Testing
import HotStringsProtocol

@Suite("Request encoding")
struct RequestEncoderTests {
    static let requests: [Request] = [
        .hello(client: nil),
        .hello(client: "hotstrings-cli 1.0"),
        .languages,
        .get(key: "greeting", table: "Localizable", languages: []),
        .get(key: "", table: "Main", languages: ["de-CH"]),
        .get(key: "quote \" and \\ and\nnewline", table: "Localizable", languages: ["de-CH", "fr", "en"]),
        .table(language: "de", table: "Localizable"),
        .subscribe(Subscription()),
        .subscribe(Subscription(languages: ["de"], tables: ["Localizable", "Main"], snapshot: false,
                                since: StreamPosition(epoch: 9_007_199_254_740_991, seq: 42))),
        .subscribe(Subscription(languages: [], tables: [])),
        .unsubscribe,
        .selectLanguage("fr"),
        .selectLanguage(nil),
        .status,
        .set(Edit(key: "k", value: "v \"q\"", language: "de")),
        .set(Edit(key: "n", value: "%d Dateien", language: "pt-BR", table: "T", form: "one", variable: "n",
                   comment: "c", createsLanguage: true, isForced: true)),
        .set(Edit(key: "hint", value: "Klicken", language: "de", device: "mac")),
        .set(Edit(key: "hint", value: "%d Tipps", language: "de", form: "other", device: "iphone")),
        .remove(key: "k", language: "de", table: "Localizable"),
        .check(Edit(key: "k", value: "%d Dateien", language: "de", form: "one", variable: "n")),
        .reportMissing(MissingReport(entries: [
            MissingEntry(.init(kind: .missing, table: "Localizable", key: "quote \" and\nnewline", language: "de-CH",
                               servedBy: nil), count: 3, firstSeen: 1_733_350_265_123, lastSeen: 1_733_350_266_000),
            MissingEntry(.init(kind: .fallback, table: "T", key: "k", language: "de-CH", servedBy: "en"),
                         count: 1, firstSeen: 0, lastSeen: 0),
        ], dropped: 5)),
        .reportMissing(MissingReport(entries: [], dropped: 0)),
        .missing(language: nil, table: nil),
        .missing(language: "de-CH", table: "Localizable"),
        .states(table: "Settings"),
        .lint,
    ]

    @Test("every request survives encoding and decoding", arguments: requests)
    func roundTrip(request: Request) {
        for id in [RequestID.number(7), .number(-1), .string("α-1"), .string("")] {
            let line = RequestEncoder.encode(id: id, request)
            #expect(line.last == 0x0A)
            #expect(line.dropLast().contains(0x0A) == false)
            let (decodedID, result) = RequestDecoder.decode(line.dropLast())
            #expect(decodedID == id)
            #expect(result == .success(request))
        }
    }

    static let golden: [(Request, String)] = [
        (.hello(client: "cli"), #"{"id":1,"op":"hello","client":"cli"}"#),
        (.status, #"{"id":1,"op":"status"}"#),
        (.get(key: "k", table: "Localizable", languages: ["de-CH"]),
         #"{"id":1,"op":"get","key":"k","table":"Localizable","language":"de-CH"}"#),
        (.get(key: "k", table: "T", languages: ["de", "fr"]),
         #"{"id":1,"op":"get","key":"k","table":"T","languages":["de","fr"]}"#),
        (.subscribe(Subscription(since: StreamPosition(epoch: 5, seq: 6))),
         #"{"id":1,"op":"subscribe","snapshot":true,"since":{"epoch":5,"seq":6}}"#),
        (.selectLanguage(nil), #"{"id":1,"op":"select-language","language":null}"#),
        (.set(Edit(key: "k", value: "v", language: "de", isForced: true)),
         #"{"id":1,"op":"set","key":"k","value":"v","language":"de","table":"Localizable","force":true}"#),
        (.set(Edit(key: "k", value: "v", language: "de", form: "one", device: "mac")),
         #"{"id":1,"op":"set","key":"k","value":"v","language":"de","table":"Localizable","form":"one","#
            + #""device":"mac"}"#),
        (.remove(key: "k", language: "de", table: "T"), #"{"id":1,"op":"remove","key":"k","language":"de","table":"T"}"#),
        (.check(Edit(key: "k", value: "%@", language: "de")),
         #"{"id":1,"op":"check","key":"k","value":"%@","language":"de","table":"Localizable"}"#),
        (.missing(language: "de", table: nil), #"{"id":1,"op":"missing","language":"de"}"#),
        (.states(table: "Localizable"), #"{"id":1,"op":"states","table":"Localizable"}"#),
        (.reportMissing(MissingReport(entries: [
            MissingEntry(.init(kind: .fallback, table: "T", key: "k", language: "de-CH", servedBy: "en"),
                         count: 2, firstSeen: 951_782_400_000, lastSeen: 951_782_400_001),
        ], dropped: 0)),
         #"{"id":1,"op":"report-missing","entries":[{"kind":"fallback","table":"T","key":"k","language":"de-CH","#
            + #""servedBy":"en","count":2,"firstSeen":"2000-02-29T00:00:00.000Z","lastSeen":"2000-02-29T00:00:00.001Z"}],"#
            + #""dropped":0}"#),
    ]

    @Test("requests are compact lines with id and op first", arguments: golden)
    func goldenLines(request: Request, expected: String) {
        #expect(String(decoding: RequestEncoder.encode(id: .number(1), request), as: UTF8.self) == expected + "\n")
    }

    @Test("op names match the protocol")
    func opNames() {
        #expect(Self.requests.map(\.op).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
            == Request.ops)
        #expect(RequestID.string("a").description == #""a""#)
        #expect(RequestID.number(3).description == "3")
    }
}
