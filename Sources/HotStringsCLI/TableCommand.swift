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
        let answer: TableAnswer
        switch client.send(.table(language: language, table: table), as: TableAnswer.self, io: &io) {
        case .result(let table, _): answer = table
        case .refused(let error): return ClientOptions.report(error, io: &io)
        case .failed(let code): return code
        }
        let members = answer.entries.map { key, value in (key, JSONWriter.quoted(value)) }
        io.stdout.write(JSONWriter.prettyObject(members) + "\n")
        return ExitCode.success
    }
}
