import HotStringsProtocol
import StringsFormat

/// `hotstrings table LANGUAGE`: every entry of one table as the daemon serves it.
struct TableCommand: Command {
    static let spec = CommandSpec(
        name: "table",
        abstract: "Print a table the daemon serves as JSON, keys in source order.",
        discussion: """
            Asks the running daemon (hotstrings serve) for the table --table of LANGUAGE exactly (no \
            fallback) and prints it like 'hotstrings dump': one JSON object with a two-space indent, keys in \
            the order the file writes them.
            """,
        arguments: [
            ArgumentSpec(name: "language", help: "The language, such as de or pt-BR (case and _ or - do not matter)."),
        ],
        options: [ClientOptions.table] + ClientOptions.options,
        exitCodes: ClientOptions.exitCodes(
            success: "The table was printed.",
            failure: "The daemon has no such table, or refused the request."
        )
    )

    var language: String
    var table: String
    var client: ClientOptions

    init(arguments: ParsedArguments) throws(UsageError) {
        language = arguments.positionals[0]
        if language.isEmpty { throw UsageError("the language must not be empty") }
        table = try arguments[ClientOptions.table]
        client = try ClientOptions(arguments)
    }

    func run<Output, ErrorOutput>(io: inout CommandIO<Output, ErrorOutput>) -> Int32 {
        let result: JSONValue
        switch client.send(.table(language: language, table: table), io: &io) {
        case .result(let answer): result = answer
        case .refused(let error): return ClientOptions.report(error, io: &io)
        case .failed(let code): return code
        }
        guard let entries = result["entries"]?.objectMembers else {
            io.printError("the daemon's answer has no entries")
            return ExitCode.connectionLost
        }
        let members = entries.map { key, value in
            (key, value.stringValue.map(JSONWriter.quoted) ?? value.description)
        }
        io.stdout.write(JSONWriter.prettyObject(members) + "\n")
        return ExitCode.success
    }
}
