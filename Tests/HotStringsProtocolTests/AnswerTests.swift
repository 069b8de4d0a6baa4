import HotStringsProtocol
import StringsFormat
import Testing

/// Every op's answer, typed: written byte for byte as docs/PROTOCOL.md shows (and as the untyped answers were, see
/// `AnswerBytesTests` in the service's tests), and read back as the same value.
@Suite("Typed answers")
struct AnswerTests {
    static let rule: JSONValue = .object([
        ("NSStringLocalizedFormatKey", "%#@n@"),
        ("n", .object([("NSStringFormatSpecTypeKey", "NSStringPluralRuleType"), ("one", "%d file"),
                       ("other", "%d files")])),
    ])

    static let missingEntries = [
        MissingEntry(.init(kind: .fallback, table: "Localizable", key: "count", language: "fr", servedBy: "en"),
                     count: 7, firstSeen: 1_764_800_001_000, lastSeen: 1_764_800_002_000),
        MissingEntry(.init(kind: .missing, table: "Localizable", key: "title \"1\"", language: "de-CH", servedBy: nil),
                     count: 3, firstSeen: 1_764_800_000_000, lastSeen: 1_764_800_065_123),
    ]

    static var status: StatusAnswer {
        var status = StatusAnswer(
            root: "/srv/App", isRootPresent: true, watchedDirectories: 4, files: 3, tables: 3, subscribers: 1,
            connections: 2, lastErrors: [FileProblem(file: "de.lproj/Localizable.strings", line: 2, column: 1,
                                                     message: "missing ';'")],
            uptime: 1.5, position: StreamPosition(epoch: 6_336_735_572_390_271, seq: 4))
        status.release = "20261203T140411Z-bcb152c3e54a"
        status.releaseInfo = .init(sequence: 42, signer: nil, expires: "2026-12-31T00:00:00Z")
        status.readOnly = "the bundle is managed by pull"
        status.pull = .init(url: "https://o/m.json", interval: 30.5, isPulling: false,
                            lastPull: "2026-12-03T14:06:02.114Z", result: "failed",
                            error: FileProblem(file: "https://o/m.json", message: "HTTP status 503"), failures: 2,
                            lastSuccess: nil, nextPull: "2026-12-03T14:07:51.760Z")
        status.missing = .init(missing: 1, fallback: 2, dropped: 3, droppedByClients: 4)
        status.webURL = "http://127.0.0.1:8080/?token=t"
        return status
    }

    /// Each op, an answer to it, and the line it is written as (with id 1).
    static let cases: [(Request, Answer, String)] = [
        (.hello(client: nil),
         .hello(HelloAnswer(server: "hotstrings 0.1.0", position: StreamPosition(epoch: 63, seq: 1), root: "/srv/App",
                            developmentLanguage: "en")),
         #"{"id":1,"ok":true,"server":"hotstrings 0.1.0","protocol":1,"epoch":63,"seq":1,"root":"/srv/App","#
            + #""developmentLanguage":"en"}"#),
        (.languages,
         .languages(LanguagesAnswer(languages: [
             .init(language: "de", tables: ["Localizable": 1, "InfoPlist": 2]),
             .init(language: "en-XA", tables: ["Localizable": 3], isPseudo: true),
         ], selected: "de", developmentLanguage: "en")),
         #"{"id":1,"ok":true,"languages":[{"language":"de","tables":{"InfoPlist":2,"Localizable":1}},"#
            + #"{"language":"en-XA","tables":{"Localizable":3},"pseudo":true}],"selected":"de","#
            + #""developmentLanguage":"en"}"#),
        (.get(key: "files", table: "Localizable", languages: ["de"]),
         .value(GetAnswer(value: "%d files", language: "en", isFound: true, rule: rule)),
         #"{"id":1,"ok":true,"value":"%d files","language":"en","found":true,"rule":{"#
            + #""NSStringLocalizedFormatKey":"%#@n@","n":{"NSStringFormatSpecTypeKey":"NSStringPluralRuleType","#
            + #""one":"%d file","other":"%d files"}}}"#),
        (.get(key: "absent", table: "Localizable", languages: []),
         .value(GetAnswer(value: "absent", language: nil, isFound: false)),
         #"{"id":1,"ok":true,"value":"absent","language":null,"found":false}"#),
        (.table(language: "de", table: "Localizable"),
         .table(TableAnswer(entries: [("z", "letzte"), ("a\n", "erste \"1\"")], language: "de", seq: 12)),
         #"{"id":1,"ok":true,"entries":{"z":"letzte","a\n":"erste \"1\""},"language":"de","seq":12}"#),
        (.table(language: "en", table: "Localizable"),
         .table(TableAnswer(entries: [("files", "%d files")], language: "en", seq: 2, rules: [("files", rule)])),
         #"{"id":1,"ok":true,"entries":{"files":"%d files"},"language":"en","seq":2,"rules":{"files":{"#
            + #""NSStringLocalizedFormatKey":"%#@n@","n":{"NSStringFormatSpecTypeKey":"NSStringPluralRuleType","#
            + #""one":"%d file","other":"%d files"}}}}"#),
        (.subscribe(Subscription()), .subscribed(StreamPosition(epoch: 63, seq: 2)),
         #"{"id":1,"ok":true,"epoch":63,"seq":2}"#),
        (.unsubscribe, .unsubscribed, #"{"id":1,"ok":true}"#),
        (.selectLanguage("de"), .selection(SelectLanguageAnswer(selected: "de")),
         #"{"id":1,"ok":true,"selected":"de"}"#),
        (.selectLanguage(nil), .selection(SelectLanguageAnswer(selected: nil)), #"{"id":1,"ok":true,"selected":null}"#),
        (.status, .status(status),
         #"{"id":1,"ok":true,"root":"/srv/App","rootPresent":true,"watchedDirectories":4,"files":3,"tables":3,"#
            + #""subscribers":1,"connections":2,"lastErrors":[{"file":"de.lproj/Localizable.strings","line":2,"#
            + #""column":1,"message":"missing ';'"}],"uptime":1.5,"epoch":6336735572390271,"seq":4,"#
            + #""release":"20261203T140411Z-bcb152c3e54a","releaseInfo":{"sequence":42,"signer":null,"#
            + #""expires":"2026-12-31T00:00:00Z"},"readOnly":"the bundle is managed by pull","pull":{"#
            + #""url":"https://o/m.json","interval":30.5,"state":"waiting","lastPull":"2026-12-03T14:06:02.114Z","#
            + #""result":"failed","error":{"file":"https://o/m.json","line":null,"column":null,"#
            + #""message":"HTTP status 503"},"failures":2,"lastSuccess":null,"nextPull":"2026-12-03T14:07:51.760Z"},"#
            + #""missing":{"missing":1,"fallback":2,"dropped":3,"droppedByClients":4},"#
            + #""web":{"url":"http://127.0.0.1:8080/?token=t"}}"#),
        (.set(Edit(key: "k", value: "v", language: "de")), .edit(EditAnswer(file: "de.lproj/Localizable.strings")),
         #"{"id":1,"ok":true,"file":"de.lproj/Localizable.strings"}"#),
        (.remove(key: "k", language: "de", table: "Localizable"), .edit(EditAnswer(file: "Shop.xcstrings")),
         #"{"id":1,"ok":true,"file":"Shop.xcstrings"}"#),
        (.check(Edit(key: "k", value: "%@", language: "de")),
         .check(CheckAnswer(file: "de.lproj/Localizable.strings",
                            problems: [.init(severity: "error", message: "'k': '%@' takes argument 1 as an object")])),
         #"{"id":1,"ok":true,"file":"de.lproj/Localizable.strings","problems":[{"severity":"error","#
            + #""message":"'k': '%@' takes argument 1 as an object"}]}"#),
        (.reportMissing(MissingReport(entries: [], dropped: 0)), .missingReported, #"{"id":1,"ok":true}"#),
        (.missing(language: nil, table: nil),
         .missing(MissingAnswer(entries: missingEntries, dropped: 0, droppedByClients: 2)),
         #"{"id":1,"ok":true,"entries":[{"kind":"fallback","table":"Localizable","key":"count","language":"fr","#
            + #""servedBy":"en","count":7,"firstSeen":"2025-12-03T22:13:21.000Z","#
            + #""lastSeen":"2025-12-03T22:13:22.000Z"},"#
            + #"{"kind":"missing","table":"Localizable","key":"title \"1\"","language":"de-CH","count":3,"#
            + #""firstSeen":"2025-12-03T22:13:20.000Z","lastSeen":"2025-12-03T22:14:25.123Z"}],"dropped":0,"#
            + #""droppedByClients":2}"#),
        (.states(table: "Shop"),
         .states(StatesAnswer(states: ["Sell \"now\"": ["fr": "new"], "Buy": ["fr": "stale", "de": "needs_review"]])),
         #"{"id":1,"ok":true,"states":{"Buy":{"de":"needs_review","fr":"stale"},"Sell \"now\"":{"fr":"new"}}}"#),
        (.lint,
         .lint(LintAnswer(files: [.object([("diagnostics", .array([])), ("keys", 3), ("path", "en.lproj/L.strings")])],
                          summary: .object([("errors", 0), ("files", 1), ("keys", 3), ("warnings", 0)]))),
         #"{"id":1,"ok":true,"files":[{"diagnostics":[],"keys":3,"path":"en.lproj/L.strings"}],"#
            + #""summary":{"errors":0,"files":1,"keys":3,"warnings":0}}"#),
    ]

    @Test("every op's answer is written as pinned and reads back as itself", arguments: cases)
    func writtenAndReadBack(request: Request, answer: Answer, line: String) throws {
        let written = ResponseEncoder.success(id: .number(1), answer)
        #expect(String(decoding: written, as: UTF8.self) == line + "\n")
        guard case .response(.number(1)?, .success(let fields)) = try ServerMessage.decode(written.dropLast()) else {
            Issue.record("not a successful answer: \(line)")
            return
        }
        #expect(try Answer(fields, answering: request) == answer)
        #expect(AnswerFields(answer) == fields)
    }

    /// What an answer that is not its op's answer is, naming the member.
    static let malformed: [(Request, String, String)] = [
        (.hello(client: nil), #"{"server":"s","protocol":"1","epoch":1,"seq":1,"root":"/","developmentLanguage":"en"}"#,
         "hello.protocol must be an integer"),
        (.languages, #"{"languages":[{"language":"de","tables":{"L":"1"}}],"developmentLanguage":"en"}"#,
         "languages.languages[0].tables must be an object of integers"),
        (.get(key: "k", table: "L", languages: []), #"{"value":"v","language":null}"#, "get: missing member 'found'"),
        (.get(key: "k", table: "L", languages: []), #"{"value":"v","language":"de","found":true,"rule":"x"}"#,
         "get.rule must be an object"),
        (.table(language: "de", table: "L"), #"{"entries":{"k":1},"language":"de","seq":1}"#,
         "table.entries must be an object of strings"),
        (.subscribe(Subscription()), #"{"epoch":-1,"seq":1}"#, "subscribe.epoch must be a non-negative integer"),
        (.status, #"{"rootPresent":true}"#, "status: missing member 'root'"),
        (.remove(key: "k", language: "de", table: "L"), #"{"file":null}"#, "edit.file must be a string"),
        (.missing(language: nil, table: nil), #"{"entries":[{"kind":"lost"}],"dropped":0,"droppedByClients":0}"#,
         #"missing.entries[0]: entry field 'kind' must be "missing" or "fallback""#),
        (.states(table: "T"), #"{"states":{"k":{"de":1}}}"#, "states.states must be an object of objects of strings"),
        (.lint, #"{"files":{}}"#, "lint.files must be an array"),
    ]

    @Test("an answer that is not its op's names the member at fault", arguments: malformed)
    func malformedAnswers(request: Request, members: String, reason: String) throws {
        let fields = AnswerFields(try #require(try JSONValue(parsing: Array(members.utf8)).objectMembers))
        #expect(throws: MalformedMessage(reason)) { try Answer(fields, answering: request) }
    }

    @Test("members an answer does not know are skipped, and the members added later may be absent")
    func laterMembersAreOptional() throws {
        let older = #"{"root":"/b","rootPresent":false,"watchedDirectories":1,"files":0,"tables":0,"subscribers":0,"#
            + #""connections":1,"lastErrors":[],"uptime":2,"epoch":1,"seq":0,"future":{"x":1}}"#
        let fields = AnswerFields(try #require(try JSONValue(parsing: Array(older.utf8)).objectMembers))
        let status = try StatusAnswer(fields)
        #expect(status.uptime == 2 && status.release == nil && status.releaseInfo == nil && status.pull == nil)
        #expect(status.missing == nil && status.webURL == nil && !status.isRootPresent)
    }

    @Test("the page's table list is made from a languages answer and read back")
    func tableList() throws {
        let languages = LanguagesAnswer(languages: [
            .init(language: "de", tables: ["Localizable": 1, "InfoPlist": 2]),
            .init(language: "en", tables: ["Localizable": 3]),
            .init(language: "en-XA", tables: ["Localizable": 3], isPseudo: true),
        ], selected: nil, developmentLanguage: "en")
        let list = TableList(languages)
        #expect(String(decoding: list.body, as: UTF8.self)
            == #"{"ok":true,"tables":[{"table":"InfoPlist","languages":["de"]},{"table":"Localizable","#
            + #""languages":["de","en","en-XA"]}],"developmentLanguage":"en","pseudoLanguages":["en-XA"]}"#)
        #expect(try TableList(body: list.body) == list)
    }
}
