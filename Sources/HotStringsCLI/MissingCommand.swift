import HotStringsClient
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
            count, firstSeen, lastSeen} with RFC 3339 times in UTC, and the drop counts. With --write, each \
            missing key (of --language and --table, when given) is added to the development language's \
            table as a new entry whose value is the key, with a comment saying where it was seen, through the \
            daemon's set op; one line per key written: the file (relative to the bundle) and the key. See \
            docs/GUIDE.md.
            """,
        options: [language, table, printsJSON, writes] + ClientOptions.options,
        exitCodes: ClientOptions.exitCodes(
            success: "The list (perhaps empty) was printed, or every missing key written.",
            failure: "The daemon refused the request, or (--write) a set."
        )
    )

    static let language: CommandOption<LanguageTag?> = .optional(
        "language", short: "l", .language, help: "Only the lookups that asked for this language first.")
    static let table: CommandOption<String?> = .optional(
        "table", short: "t", .text("name"), help: "Only the keys of this table.")
    static let printsJSON: CommandOption<Bool> = .flag("json", help: "Print the daemon's answer as one JSON object.")
    static let writes: CommandOption<Bool> = .flag(
        "write", help: "Add the missing keys to the development language's tables (value: the key).")

    var language: LanguageTag?
    var table: String?
    var printsJSON: Bool
    var writes: Bool
    var client: ClientOptions

    init(arguments: ParsedArguments) throws(UsageError) {
        language = try arguments[Self.language]
        table = try arguments[Self.table]
        printsJSON = try arguments[Self.printsJSON]
        writes = try arguments[Self.writes]
        if writes && printsJSON { throw UsageError("--write prints the files written; it takes no --json") }
        client = try ClientOptions(arguments)
    }

    func run<Output, ErrorOutput>(io: inout CommandIO<Output, ErrorOutput>) -> Int32 {
        if writes { return write(io: &io) }
        switch client.send(.missing(language: language?.identifier, table: table), as: MissingAnswer.self, io: &io) {
        case .result(let answer, let fields):
            io.stdout.write(printsJSON ? "\(fields.json)\n" : Self.text(answer))
            return ExitCode.success
        case .refused(let error):
            return ClientOptions.report(error, io: &io)
        case .failed(let code):
            return code
        }
    }

    /// The answer as aligned lines: count, kind, language (-> servedBy), table, key; then the drops.
    static func text(_ answer: MissingAnswer) -> String {
        var rows: [[String]] = []
        for entry in answer.entries {
            let identity = entry.identity
            var language = DisplayText.escaped(identity.language)
            if let servedBy = identity.servedBy { language += " -> " + DisplayText.escaped(servedBy) }
            rows.append([String(entry.count), identity.kind.rawValue, language, DisplayText.escaped(identity.table),
                         DisplayText.escaped(identity.key)])
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
        if answer.dropped > 0 || answer.droppedByClients > 0 {
            output += "dropped: \(answer.dropped) by the daemon's cap, \(answer.droppedByClients) lookups by clients' "
                + "caps\n"
        }
        return output
    }

    /// `--write`: the missing keys as new entries of the development language, one `set` each, on one connection.
    private func write<Output, ErrorOutput>(io: inout CommandIO<Output, ErrorOutput>) -> Int32 {
        let connection: LineConnection
        switch client.connect(io: &io) {
        case .connected(let opened): connection = opened
        case .failed(let code): return code
        }
        defer { connection.close() }
        do {
            let hello = try connection.request(.hello(client: "hotstrings missing --write"), as: HelloAnswer.self,
                                               timeout: client.timeout)
            let list = try connection.request(.missing(language: language?.identifier, table: table),
                                              as: MissingAnswer.self, timeout: client.timeout)
            let (greeting, answer): (HelloAnswer, MissingAnswer)
            switch (hello, list) {
            case (.success(let first), .success(let second)): (greeting, answer) = (first, second)
            case (.failure(let error), _), (_, .failure(let error)): return ClientOptions.report(error, io: &io)
            }
            var code = ExitCode.success
            for (table, key, comment) in Self.newEntries(answer) {
                let edit = Edit(key: key, value: key, language: greeting.developmentLanguage, table: table,
                                comment: comment)
                switch try connection.request(.set(edit), as: EditAnswer.self, timeout: client.timeout) {
                case .success(let written):
                    io.stdout.write("\(DisplayText.escaped(written.file))  \(DisplayText.escaped(key))\n")
                case .failure(let error):
                    io.printError("\(table)/\(key): \(error.message)")
                    code = ExitCode.failure
                }
            }
            return code
        } catch {
            return client.report(error, io: &io)
        }
    }

    /// The missing keys of a `missing` answer, once per table and key, with a comment naming the languages that
    /// asked for them, how often, and when last: `Reported missing by running apps: de-CH, fr (7 lookups, last
    /// 2026-12-04T22:33:40.002Z)`.
    static func newEntries(_ answer: MissingAnswer) -> [(table: String, key: String, comment: String)] {
        var seen: [String: [String: (languages: [String], count: Int64, last: Int64)]] = [:]
        var order: [(String, String)] = []
        for entry in answer.entries where entry.identity.kind == .missing {
            let (table, key, language) = (entry.identity.table, entry.identity.key, entry.identity.language)
            if var kept = seen[table]?[key] {
                if !kept.languages.contains(language) { kept.languages.append(language) }
                kept.count += entry.count
                kept.last = max(kept.last, entry.lastSeen)
                seen[table]?[key] = kept
            } else {
                seen[table, default: [:]][key] = ([language], entry.count, entry.lastSeen)
                order.append((table, key))
            }
        }
        return order.compactMap { table, key in
            guard let found = seen[table]?[key] else { return nil }
            let comment = "Reported missing by running apps: \(found.languages.joined(separator: ", ")) "
                + "(\(found.count) lookups, last \(RFC3339.string(milliseconds: found.last)))"
            return (table, key, comment)
        }
    }
}
