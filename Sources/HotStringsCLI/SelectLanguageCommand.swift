import HotStringsProtocol
import StringsFormat

/// `hotstrings select-language LANG`: selects the app language every subscriber follows.
struct SelectLanguageCommand: Command {
    static let spec = CommandSpec(
        name: "select-language",
        abstract: "Select the app language (or clear it with --clear).",
        discussion: """
            Tells the running daemon which language the apps should show. The daemon checks that the \
            bundle has it, saves it so it survives a restart, and sends a language event to every \
            subscriber. Prints the selected language as the daemon names it (de_de selects de-DE); --clear \
            prints nothing. A language the bundle does not have exits with 1 and lists those it has.
            """,
        arguments: [
            ArgumentSpec(name: "language", help: "The language, such as fr or pt-BR.", isOptional: true),
        ],
        options: [clears] + ClientOptions.options,
        exitCodes: ClientOptions.exitCodes(
            success: "The language was selected (or the selection cleared).",
            failure: "The bundle has no such language (standard error lists those it has)."
        )
    )

    static let clears: CommandOption<Bool> = .flag(
        "clear", help: "Clear the selection: lookups fall back to the development language.")

    /// The language to select; nil clears the selection.
    var language: String?
    var client: ClientOptions

    init(arguments: ParsedArguments) throws(UsageError) {
        let clears = try arguments[Self.clears]
        language = arguments.positionals.first
        switch (language, clears) {
        case (nil, false): throw UsageError("missing argument <language> (or --clear)")
        case (_?, true): throw UsageError("give a language or --clear, not both")
        case (""?, false): throw UsageError("the language must not be empty")
        default: break
        }
        client = try ClientOptions(arguments)
    }

    func run<Output, ErrorOutput>(io: inout CommandIO<Output, ErrorOutput>) -> Int32 {
        switch client.send(.selectLanguage(language), as: SelectLanguageAnswer.self, io: &io) {
        case .result(let answer, _):
            if let selected = answer.selected {
                io.stdout.write(DisplayText.escaped(selected) + "\n")
            }
            return ExitCode.success
        case .refused(let error):
            return ClientOptions.report(error, io: &io)
        case .failed(let code):
            return code
        }
    }
}
