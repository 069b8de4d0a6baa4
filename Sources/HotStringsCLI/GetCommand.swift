import HotStringsProtocol
import StringsFormat

/// `hotstrings get KEY`: one value, resolved by the daemon through the language fallback chain.
struct GetCommand: Command {
    static let spec = CommandSpec(
        name: "get",
        abstract: "Print the value of a key, as the daemon resolves it.",
        discussion: """
            Asks the running daemon (hotstrings serve) for KEY in --table. The languages are tried in \
            order, each through the bundle languages that answer it (de-CH finds de, zh-TW finds zh-Hant, \
            es-MX finds es-419 then es; 'hotstrings languages --resolve' shows the chain), then the selected \
            app language, the development language and Base. The value is printed with a newline; a key found \
            nowhere prints nothing on standard output, says so on standard error and exits with 1 (the daemon \
            itself answers such a key with the key, as NSLocalizedString does; --json shows that answer).
            """,
        arguments: [
            ArgumentSpec(name: "key", help: "The key to look up."),
        ],
        options: [
            .value("language", short: "l", valueName: "languages",
                   help: "Preferred languages, comma-separated, most preferred first (default: the selected "
                       + "app language, then the development language)."),
            .value("table", short: "t", valueName: "name", default: Request.defaultTable, help: "The table."),
            .flag("json", help: "Print the daemon's answer as JSON: value, language and found."),
        ] + ClientOptions.specs,
        exitCodes: ClientOptions.exitCodes(
            success: "The value was printed.",
            failure: "The key is in none of the languages tried, or the daemon refused the request."
        )
    )

    var key: String
    var languages: [String]
    var table: String
    var printsJSON: Bool
    var client: ClientOptions

    init(arguments: ParsedArguments) throws(UsageError) {
        key = arguments.positionals[0]
        languages = try ClientOptions.list(arguments.value("language"), option: "language") ?? []
        table = arguments.value("table") ?? Request.defaultTable
        if table.isEmpty { throw UsageError("--table takes a table name") }
        printsJSON = arguments.flag("json")
        client = try ClientOptions(arguments)
    }

    func run<Output, ErrorOutput>(io: inout CommandIO<Output, ErrorOutput>) -> Int32 {
        let result: JSONValue
        switch client.send(.get(key: key, table: table, languages: languages), io: &io) {
        case .result(let answer): result = answer
        case .refused(let error): return ClientOptions.report(error, io: &io)
        case .failed(let code): return code
        }
        let isFound = result["found"]?.boolValue == true
        if printsJSON {
            io.stdout.write("\(result)\n")
            return isFound ? ExitCode.success : ExitCode.failure
        }
        guard isFound, let value = result["value"]?.stringValue else {
            let tried = languages.isEmpty
                ? "" : " (tried \(DisplayText.escaped(languages.joined(separator: ", "))) and the fallbacks)"
            let quoted = ClientText.key(key) == key ? "'\(key)'" : ClientText.key(key)
            ClientOptions.printError("no value for \(quoted) in table '\(DisplayText.escaped(table))'\(tried)", io: &io)
            return ExitCode.failure
        }
        io.stdout.write(value + "\n")
        return ExitCode.success
    }
}
