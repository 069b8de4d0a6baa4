import HotStringsProtocol

/// `hotstrings languages`: the daemon's languages with their tables and key counts.
struct LanguagesCommand: Command {
    static let spec = CommandSpec(
        name: "languages",
        abstract: "List the languages the daemon serves, with their tables and key counts.",
        discussion: """
            One line per language: its tables with their key counts, marked '(selected)' when it is the \
            selected app language and '(development language)' when lookups fall back to it. --json prints \
            the daemon's answer: languages, selected and developmentLanguage.
            """,
        options: [
            .flag("json", help: "Print the daemon's answer as one JSON object."),
        ] + ClientOptions.specs,
        exitCodes: ClientOptions.exitCodes(
            success: "The languages were printed.",
            failure: "The daemon refused the request."
        )
    )

    var printsJSON: Bool
    var client: ClientOptions

    init(arguments: ParsedArguments) throws(UsageError) {
        printsJSON = arguments.flag("json")
        client = try ClientOptions(arguments)
    }

    func run<Output, ErrorOutput>(io: inout CommandIO<Output, ErrorOutput>) -> Int32 {
        switch client.send(.languages, io: &io) {
        case .result(let result):
            io.stdout.write(printsJSON ? "\(result)\n" : ClientText.languages(result))
            return ExitCode.success
        case .refused(let error):
            return ClientOptions.report(error, io: &io)
        case .failed(let code):
            return code
        }
    }
}
