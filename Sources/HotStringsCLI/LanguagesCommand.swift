import HotStringsProtocol
import StringsFormat

/// `hotstrings languages`: the daemon's languages with their tables and key counts, or with `--resolve` the chain
/// of languages a lookup follows in this bundle.
struct LanguagesCommand: Command {
    static let spec = CommandSpec(
        name: "languages",
        abstract: "List the languages the daemon serves, or show which of them answer a request.",
        discussion: """
            One line per language: its tables with their key counts, marked '(selected)' when it is the \
            selected app language and '(development language)' when lookups fall back to it. --json prints \
            the daemon's answer: languages, selected and developmentLanguage. With --resolve, prints the chain a \
            lookup with the preferences LANGUAGE... follows in this bundle, one language per line with the \
            request it answers and why (likely subtags, parent locale, script, another region), then the \
            selected app language's, the development language's and Base; see docs/LANGUAGES.md. With --accept, \
            prints the chain a server would use for a request with that Accept-Language header: its languages by \
            weight, none that a q=0 range excludes.
            """,
        arguments: [
            ArgumentSpec(name: "language", help: "With --resolve: a preferred language, most preferred first.",
                         isRepeating: true, isOptional: true),
        ],
        options: [isResolving, acceptLanguage, printsJSON] + ClientOptions.options,
        exitCodes: ClientOptions.exitCodes(
            success: "The languages (or the chain) were printed.",
            failure: "The daemon refused the request."
        )
    )

    static let isResolving: CommandOption<Bool> = .flag(
        "resolve", help: "Print the chain of languages a lookup in LANGUAGE... tries.")
    static let acceptLanguage: CommandOption<String?> = .optional(
        "accept", .text("header"), help: "Print the chain of languages a request with this Accept-Language tries.")
    static let printsJSON: CommandOption<Bool> = .flag(
        "json", help: "Print the daemon's answer (with --resolve: the chain) as one JSON object.")

    var resolves: [String]?
    var accepts: AcceptLanguage?
    var printsJSON: Bool
    var client: ClientOptions

    init(arguments: ParsedArguments) throws(UsageError) {
        if try arguments[Self.isResolving] {
            resolves = arguments.positionals
            if let invalid = arguments.positionals.first(where: { LanguageTag($0) == nil }) {
                throw UsageError("'\(invalid)' is not a language tag")
            }
        } else if !arguments.positionals.isEmpty {
            throw UsageError("languages takes LANGUAGE arguments only with --resolve")
        }
        if let header = try arguments[Self.acceptLanguage] {
            guard resolves == nil else { throw UsageError("--accept and --resolve cannot be used together") }
            do {
                accepts = try AcceptLanguage(parsing: header)
            } catch {
                throw UsageError("\(error)")
            }
        }
        printsJSON = try arguments[Self.printsJSON]
        client = try ClientOptions(arguments)
    }

    func run<Output, ErrorOutput>(io: inout CommandIO<Output, ErrorOutput>) -> Int32 {
        switch client.send(.languages, as: LanguagesAnswer.self, io: &io) {
        case .result(let answer, let fields):
            if resolves != nil || accepts != nil {
                let steps = Self.resolve(resolves ?? [], accepting: accepts, in: answer)
                io.stdout.write(printsJSON ? "\(Self.json(steps))\n" : ClientText.chain(steps))
            } else {
                io.stdout.write(printsJSON ? "\(fields.json)\n" : ClientText.languages(answer))
            }
            return ExitCode.success
        case .refused(let error):
            return ClientOptions.report(error, io: &io)
        case .failed(let code):
            return code
        }
    }

    /// The chain of `preferences` (or of an Accept-Language header) in the bundle the daemon's `languages` answer
    /// describes, as the daemon resolves it: the same `LanguageMatcher` over the same languages, selection and
    /// development language.
    static func resolve(_ preferences: [String], accepting header: AcceptLanguage? = nil,
                        in answer: LanguagesAnswer) -> [LanguageMatcher.Step] {
        let matcher = LanguageMatcher(languages: answer.languages.compactMap { LanguageTag($0.language) })
        let selected = answer.selected.flatMap { LanguageTag($0) }
        let development = LanguageTag(answer.developmentLanguage) ?? .base
        if let header {
            return matcher.resolve(acceptLanguage: header, selected: selected, development: development)
        }
        return matcher.resolve(preferences: preferences.compactMap { LanguageTag($0) }, selected: selected,
                               development: development)
    }

    /// `{"chain":[{"language":"zh-Hant","request":"zh-TW","source":"preference","reason":"…"}, …]}`.
    static func json(_ steps: [LanguageMatcher.Step]) -> JSONValue {
        .object([("chain", .array(steps.map { step in
            .object([
                ("language", .string(step.language.identifier)),
                ("request", step.request.map { .string($0.identifier) } ?? .null),
                ("source", .string(step.source.rawValue)),
                ("reason", .string(step.reason.description)),
            ])
        }))])
    }
}
