import HotStringsProtocol
import HotStringsRelease
import StringsFormat

/// A command that asks the daemon one question without arguments and prints the answer: as text for people,
/// or with `--json` as the daemon gave it.
protocol ReportCommand: Command {
    /// The answer the request gets.
    associatedtype Body: AnswerBody
    /// The request the command sends.
    static var request: Request { get }
    /// The answer as text for people.
    static func text(_ answer: Body) -> String
    /// Warnings the answer calls for, printed on standard error whether or not `--json` is given.
    static func warnings(_ answer: Body) -> [String]

    var printsJSON: Bool { get }
    var client: ClientOptions { get }
    init(printsJSON: Bool, client: ClientOptions)
}

extension ReportCommand {
    static func warnings(_ answer: Body) -> [String] { [] }

    init(arguments: ParsedArguments) throws(UsageError) {
        self.init(printsJSON: try arguments[ReportOptions.printsJSON], client: try ClientOptions(arguments))
    }

    func run<Output, ErrorOutput>(io: inout CommandIO<Output, ErrorOutput>) -> Int32 {
        switch client.send(Self.request, as: Body.self, io: &io) {
        case .result(let answer, let fields):
            io.stdout.write(printsJSON ? "\(fields.json)\n" : Self.text(answer))
            for warning in Self.warnings(answer) { io.printWarning(warning) }
            return ExitCode.success
        case .refused(let error):
            return ClientOptions.report(error, io: &io)
        case .failed(let code):
            return code
        }
    }
}

/// The options every report command has.
enum ReportOptions {
    static let printsJSON: CommandOption<Bool> = .flag("json", help: "Print the daemon's answer as one JSON object.")
    static let options: [any OptionDeclaration] = [printsJSON] + ClientOptions.options
}

/// `hotstrings status`: the daemon's health.
struct StatusCommand: ReportCommand {
    static let spec = CommandSpec(
        name: "status",
        abstract: "Show what the daemon watches and serves, and its last errors.",
        discussion: """
            Prints the bundle root, the watched directories, files, tables, subscribers and connections, \
            the uptime, the event stream's epoch and seq, the installed release (with its sequence, the key \
            that signed it and its expiry; a release expiring within a day is warned about on standard error), \
            and the last files that \
            failed to load; for a daemon that pulls (serve --pull), the origin, the last pull's time and \
            result (the error of a failed one) and the next pull's time; how many keys clients reported \
            missing or answered by a fallback (hotstrings missing lists them). --json prints the daemon's answer \
            as it is.
            """,
        options: ReportOptions.options,
        exitCodes: ClientOptions.exitCodes(
            success: "The status was printed.",
            failure: "The daemon refused the request."
        )
    )
    static let request = Request.status

    static func text(_ answer: StatusAnswer) -> String { ClientText.status(answer) }

    /// A release that expires within a day: pullers with trusted keys refuse it once it has expired.
    static func warnings(_ answer: StatusAnswer) -> [String] {
        guard let expires = answer.releaseInfo?.expires, let date = ReleaseTime.date(expires),
              date.timeIntervalSinceNow < 86_400 else { return [] }
        let when = date.timeIntervalSinceNow < 0 ? "expired at" : "expires at"
        return ["the installed release \(when) \(expires): publish again with --sign to extend it (docs/DEPLOY.md)"]
    }

    var printsJSON: Bool
    var client: ClientOptions
}
