import StringsFormat

/// `hotstrings plural [--ordinal] LANGUAGE NUMBER...`: the CLDR plural category of each number.
struct PluralCommand: Command {
    static let spec = CommandSpec(
        name: "plural",
        abstract: "Print the CLDR plural category of each number in a language.",
        discussion: """
            For translators and scripts: prints one line per NUMBER, the number and its category (zero, one, \
            two, few, many or other) separated by a space, under the cardinal rules ("1 file") or with \
            --ordinal the ordinal rules ("1st"). Numbers are read as written, so 1.0 has one visible fraction \
            digit (in English 1 is one and 1.0 is other); 1.5c3 is 1500 in compact notation. The language \
            is matched as CLDR inherits locale data (pt-PT, then pt); a language CLDR does not know uses the \
            root rules, where every number is other. --categories prints the categories the language uses.
            """,
        arguments: [
            ArgumentSpec(name: "language", help: "The language tag (de, pt-PT, sr-Latn)."),
            ArgumentSpec(name: "number", help: "The numbers, as decimal numbers (3, -1.50, 1e3).",
                         isRepeating: true, isOptional: true),
        ],
        options: [isOrdinal, listsCategories],
        exitCodes: [
            (ExitCode.success, "The categories were printed."),
            (ExitCode.usage, "The command line is wrong: no number, or a number that is not a decimal number."),
        ]
    )

    static let isOrdinal: CommandOption<Bool> = .flag(
        "ordinal", help: "Use the ordinal rules (1st, 2nd) instead of the cardinal ones.")
    static let listsCategories: CommandOption<Bool> = .flag(
        "categories", help: "Print the categories the language uses, and which CLDR locale's rules.")

    var language: String
    var numbers: [(text: String, operands: PluralOperands)]
    var type: PluralRuleType
    var listsCategories: Bool

    init(arguments: ParsedArguments) throws(UsageError) {
        language = arguments.positionals[0]
        type = try arguments[Self.isOrdinal] ? .ordinal : .cardinal
        listsCategories = try arguments[Self.listsCategories]
        numbers = []
        for text in arguments.positionals.dropFirst() {
            do throws(PluralOperands.FormatError) {
                numbers.append((text, try PluralOperands(parsing: text)))
            } catch {
                throw UsageError("'\(text)' is not a decimal number: \(error)")
            }
        }
        if numbers.isEmpty, !listsCategories { throw UsageError("give at least one number (or --categories)") }
    }

    func run<Output, ErrorOutput>(io: inout CommandIO<Output, ErrorOutput>) -> Int32 {
        if listsCategories {
            let categories = PluralRules.categories(language: language, type: type).map(\.rawValue)
            let locale = PluralRules.ruleLocale(for: language, type: type)
            io.stdout.write("\(categories.joined(separator: " ")) (\(type.rawValue) rules of '\(locale)')\n")
        }
        for number in numbers {
            let category = PluralRules.category(for: number.operands, language: language, type: type)
            io.stdout.write("\(number.text) \(category.rawValue)\n")
        }
        return ExitCode.success
    }
}
