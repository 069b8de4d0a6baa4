import Foundation
import HotStringsTestSupport
import HotStringsTestTraits
import StringsFormat
import Testing

/// The judgement of format specifiers through a real daemon: `set` over the socket and the page's API refuse what
/// `lint` reports as an error, with its message and nothing written; the page's `/api/check` answers the verdict
/// as a translator types, from the same check.
@Suite(.needsHotstringsBinary)
struct SpecifierEndToEndTests {
    /// The issue's: the sample's German `messages.received` with a plural form that swaps the arguments' classes
    /// was answered ok, and `get messages.received Ana 1 -l de` then printed nonsense. Now it is refused with
    /// `lint`'s message, nothing written, and the key still formats; `--force` writes it.
    @Test func theIssuesPluralFormIsRefused() throws {
        let sandbox = try Sandbox()
        let daemon = try DaemonProcess.serving(sandbox)
        let before = try sandbox.read("de.lproj/Localizable.stringsdict")
        let set = ["set", "messages.received", "%1$d hat dir %2$@ Nachrichten geschickt", "--language", "de",
                   "--form", "one", "--variable", "messages", "--socket", sandbox.socket]
        let refused = try HotstringsProcess.run(set)
        #expect(refused.code == 1)
        #expect(refused.stderr == "hotstrings set: error: 'messages.received', form 'one' of 'messages': '%1$d' takes "
            + "argument 1 as an integer, where en's '%1$@' takes an object; 'messages.received', form 'one' of "
            + "'messages': '%2$@' takes argument 2 as an object, where en's '%2$#@messages@' takes an integer "
            + "(--force writes it anyway)\n")
        #expect(try sandbox.read("de.lproj/Localizable.stringsdict") == before)
        let get = try HotstringsProcess.run(["get", "messages.received", "Ana", "1", "-l", "de", "--socket",
                                             sandbox.socket])
        #expect(get.stdout == "Ana hat dir eine Nachricht geschickt\n")
        #expect(try HotstringsProcess.run(set + ["--force"]).code == 0)
        #expect(try sandbox.read("de.lproj/Localizable.stringsdict") != before)
        #expect(try daemon.terminate() == 0)
    }

    /// Every case of the table through the socket: an error refuses the `set` (`bad_request`, `lint`'s message),
    /// nothing written; `force` writes it; the others are written.
    @Test func theTableThroughTheSocket() throws {
        let sandbox = try Sandbox(extraFiles: SpecifierCases.files(translated: false))
        let daemon = try DaemonProcess.serving(sandbox)
        let client = try LineClient(socket: sandbox.socket)
        for (index, table) in SpecifierCases.all.enumerated() {
            let file = "de.lproj/\(SpecifierCases.table)." + (table.form == nil ? "strings" : "stringsdict")
            let before = try sandbox.read(file)
            let request = JSONValue.object([("id", .integer(Int64(index))), ("op", .string("set"))]
                + table.setRequest.map { ($0.0, .string($0.1)) })
            let answer = try client.request(request.serializedText)
            guard table.isRefused else {
                #expect(answer["ok"] == true, "\(table.key): \(answer)")
                continue
            }
            #expect(answer["ok"] == false, "\(table.key)")
            #expect(answer["error"]?.string("code") == "bad_request")
            #expect(answer["error"]?.string("message") == table.refusal)
            #expect(try sandbox.read(file) == before)
            var forced = request
            forced.append(("force", .bool(true)))
            #expect(try client.request(forced.serializedText)["ok"] == true, "\(table.key)")
        }
        #expect(try daemon.terminate() == 0)
    }

    /// The page's `POST /api/check` answers what a `set` of the same body would find, writing nothing: each
    /// problem's severity and `lint`'s message; `POST /api/set` refuses the errors (400, `bad_request`).
    @Test func thePagesCheckAndSetAnswerTheTable() throws {
        let sandbox = try Sandbox(extraFiles: SpecifierCases.files(translated: false))
        let web = try WebDaemon.start(sandbox)
        let api = try web.client()
        let files = try ["strings", "stringsdict"].map { try sandbox.read("de.lproj/\(SpecifierCases.table).\($0)") }
        for table in SpecifierCases.all {
            let body = JSONValue.object(table.setRequest.map { ($0.0, .string($0.1)) }).serializedText
            api.request("POST", "/api/check", port: web.port, headers: [web.bearer], body: body)
            let check = try api.response()
            #expect(check.status == 200, "\(check.text)")
            let verdict = try JSONValue(parsing: check.body)
            let problems = (verdict["problems"]?.arrayValue ?? []).map {
                "\($0["severity"]?.stringValue ?? ""): \($0["message"]?.stringValue ?? "")"
            }
            #expect(problems == table.problems.map { "\($0.severity): \($0.message(key: table.key))" })
            guard table.isRefused else { continue }
            api.request("POST", "/api/set", port: web.port, headers: [web.bearer], body: body)
            let refusal = try api.response()
            #expect(refusal.status == 400)
            #expect(try JSONValue(parsing: refusal.body)["error"]?["message"]?.stringValue == table.refusal)
        }
        #expect(try ["strings", "stringsdict"].map { try sandbox.read("de.lproj/\(SpecifierCases.table).\($0)") }
            == files)
        // A check of what `set` refuses for another reason answers as `set` does.
        api.request("POST", "/api/check", port: web.port, headers: [web.bearer],
                    body: #"{"key":"","value":"x","language":"de"}"#)
        let invalid = try api.response()
        #expect(invalid.status == 400)
        #expect(invalid.text.contains("the key must not be empty"), "\(invalid.text)")
        #expect(try web.daemon.terminate() == 0)
    }
}

extension JSONValue {
    /// The compact JSON text.
    var serializedText: String { String(decoding: serialized(), as: UTF8.self) }

    /// Appends a member to an object.
    mutating func append(_ member: (String, JSONValue)) {
        guard case .object(let members) = self else { return }
        self = .object(members + [member])
    }
}
