import HotStringsProtocol
import StringsFormat

/// `hotstrings missing`: the keys running apps looked up and did not find, or found only in a fallback language.
struct MissingCommand: Command {
    static let spec = CommandSpec(
        name: "missing",
        abstract: "List the keys running apps miss, or find only in a fallback language.",
        discussion: """
            Every LiveStrings client (daemon or embedded mode) counts the lookups that found no value \
            (missing) and those a language other than the best match of the requested one answered \
            (fallback: de-CH answered by en; by de it is none), and reports them to the daemon within a \
            second or two. One line per entry, most looked-up first: the count, the kind, the language \
            asked for (-> the one that answered a fallback), the table and the key; then how many the caps \
            dropped. --json prints the daemon's answer: entries, each {kind, table, key, language, servedBy?, \
            count, firstSeen, lastSeen} with RFC 3339 times in UTC, and the drop counts. See docs/GUIDE.md.
            """,
        options: [language, table, printsJSON] + ClientOptions.options,
        exitCodes: ClientOptions.exitCodes(
            success: "The list (perhaps empty) was printed.",
            failure: "The daemon refused the request."
        )
    )

    static let language: CommandOption<LanguageTag?> = .optional(
        "language", short: "l", .language, help: "Only the lookups that asked for this language first.")
    static let table: CommandOption<String?> = .optional(
        "table", short: "t", .text("name"), help: "Only the keys of this table.")
    static let printsJSON: CommandOption<Bool> = .flag("json", help: "Print the daemon's answer as one JSON object.")

    var language: LanguageTag?
    var table: String?
    var printsJSON: Bool
    var client: ClientOptions

    init(arguments: ParsedArguments) throws(UsageError) {
        language = try arguments[Self.language]
        table = try arguments[Self.table]
        printsJSON = try arguments[Self.printsJSON]
        client = try ClientOptions(arguments)
    }

    func run<Output, ErrorOutput>(io: inout CommandIO<Output, ErrorOutput>) -> Int32 {
        switch client.send(.missing(language: language?.identifier, table: table), io: &io) {
        case .result(let result):
            io.stdout.write(printsJSON ? "\(result)\n" : Self.text(result))
            return ExitCode.success
        case .refused(let error):
            return ClientOptions.report(error, io: &io)
        case .failed(let code):
            return code
        }
    }

    /// The answer as aligned lines: count, kind, language (-> servedBy), table, key; then the drops.
    static func text(_ result: JSONValue) -> String {
        let entries = result["entries"]?.arrayValue ?? []
        var rows: [[String]] = []
        for entry in entries {
            let text = { (name: String) in DisplayText.escaped(entry[name]?.stringValue ?? "?") }
            var language = text("language")
            if entry["servedBy"]?.stringValue != nil { language += " -> " + text("servedBy") }
            rows.append([String(entry["count"]?.int64Value ?? 0), text("kind"), language, text("table"), text("key")])
        }
        var output = rows.isEmpty ? "no missing keys reported\n" : ""
        let widths = (0..<4).map { column in rows.map { $0[column].count }.max() ?? 0 }
        for row in rows {
            let padded = (0..<4).map { column in
                column == 0 ? String(repeating: " ", count: widths[0] - row[0].count) + row[0]
                    : row[column].padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }
            output += (padded + [row[4]]).joined(separator: "  ") + "\n"
        }
        let dropped = result["dropped"]?.int64Value ?? 0
        let droppedByClients = result["droppedByClients"]?.int64Value ?? 0
        if dropped > 0 || droppedByClients > 0 {
            output += "dropped: \(dropped) by the daemon's cap, \(droppedByClients) lookups by clients' caps\n"
        }
        return output
    }
}
