import HotStringsClient
import HotStringsProtocol
import StringsFormat

/// `hotstrings get KEY [ARG...]`: one value, resolved by the daemon through the language fallback chain, and
/// formatted with the arguments when there are any.
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

            With ARGs the value is formatted as String.localizedStringWithFormat formats it: a .stringsdict \
            entry picks each %#@variable@'s text with the plural rules of the language the value was found \
            in (numbers select plural forms: 1 is one in English, 1.0 is other, as written), --width picks \
            variable-width texts and --device device-specific ones; a plain value is formatted like \
            String(format:). An ARG that is an integer is an integer, any other is a string (which %f and %d \
            read as a number). Put negative numbers after '--'.
            """,
        arguments: [
            ArgumentSpec(name: "key", help: "The key to look up."),
            ArgumentSpec(name: "arg", help: "Arguments to format the value with.", isRepeating: true,
                         isOptional: true),
        ],
        options: [languages, ClientOptions.table, printsJSON, width, device] + ClientOptions.options,
        exitCodes: ClientOptions.exitCodes(
            success: "The value was printed.",
            failure: "The key is in none of the languages tried, the daemon refused the request, or the value "
                + "cannot be formatted with the arguments."
        )
    )

    static let languages: CommandOption<[String]> = .list(
        "language", short: "l", .text("language"),
        help: "Preferred languages, most preferred first (default: the selected app language, then the development "
            + "language).")
    static let printsJSON: CommandOption<Bool> = .flag(
        "json", help: "Print the daemon's answer as JSON: value, language, found (and rule).")
    static let width: CommandOption<Int?> = .optional(
        "width", .integer("n", in: 0 ... .max), help: "The display width variable-width rules pick for (default: "
            + "the widest text).")
    static let device: CommandOption<String> = .value(
        "device", .text("name"), default: "other",
        help: "The device device-specific rules pick for: iphone, ipad, mac, appletv, applewatch, visionos, ipod or "
            + "other.")

    var key: String
    var languages: [String]
    var table: String
    var printsJSON: Bool
    var formatArguments: [FormatArgument]
    var formatter: StringsdictFormatter
    var client: ClientOptions

    init(arguments: ParsedArguments) throws(UsageError) {
        key = arguments.positionals[0]
        formatArguments = arguments.positionals.dropFirst().map { Int64($0).map(FormatArgument.int) ?? .string($0) }
        formatter = StringsdictFormatter(device: try arguments[Self.device])
        if let width = try arguments[Self.width] { formatter.width = width }
        languages = try arguments[Self.languages]
        table = try arguments[ClientOptions.table]
        printsJSON = try arguments[Self.printsJSON]
        client = try ClientOptions(arguments)
    }

    func run<Output, ErrorOutput>(io: inout CommandIO<Output, ErrorOutput>) -> Int32 {
        let (answer, fields): (GetAnswer, AnswerFields)
        switch client.send(.get(key: key, table: table, languages: languages), as: GetAnswer.self, io: &io) {
        case .result(let value, let received): (answer, fields) = (value, received)
        case .refused(let error): return ClientOptions.report(error, io: &io)
        case .failed(let code): return code
        }
        if printsJSON {
            io.stdout.write("\(fields.json)\n")
            return answer.isFound ? ExitCode.success : ExitCode.failure
        }
        guard answer.isFound else {
            let tried = languages.isEmpty
                ? "" : " (tried \(DisplayText.escaped(languages.joined(separator: ", "))) and the fallbacks)"
            let quoted = ClientText.key(key) == key ? "'\(key)'" : ClientText.key(key)
            io.printError("no value for \(quoted) in table '\(DisplayText.escaped(table))'\(tried)")
            return ExitCode.failure
        }
        guard !formatArguments.isEmpty else {
            io.stdout.write(answer.value + "\n")
            return ExitCode.success
        }
        do throws(FormatError) {
            io.stdout.write(try format(answer) + "\n")
            return ExitCode.success
        } catch {
            io.printError("cannot format '\(ClientText.key(key))' with the arguments: \(error)")
            return ExitCode.failure
        }
    }

    /// The answer's rule formatted with the language that answered, or its plain value like `String(format:)`.
    private func format(_ answer: GetAnswer) throws(FormatError) -> String {
        guard let json = answer.rule, let rule = PropertyListValue(json: json) else {
            return try StringsdictFormatter.format(answer.value, arguments: formatArguments)
        }
        let entry = try StringsdictEntry(key: key, rule)
        return try formatter.format(entry, language: answer.language ?? "", arguments: formatArguments)
    }
}
