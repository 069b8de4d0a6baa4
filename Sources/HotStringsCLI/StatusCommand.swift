import HotStringsProtocol

/// `hotstrings status`: the daemon's health.
struct StatusCommand: Command {
    static let spec = CommandSpec(
        name: "status",
        abstract: "Show what the daemon watches and serves, and its last errors.",
        discussion: """
            Prints the bundle root, the watched directories, files, tables, subscribers and connections, \
            the uptime, the event stream's epoch and seq, and the last files that failed to load. --json \
            prints the daemon's answer as it is.
            """,
        options: [
            .flag("json", help: "Print the daemon's answer as one JSON object."),
        ] + ClientOptions.specs,
        exitCodes: ClientOptions.exitCodes(
            success: "The status was printed.",
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
        switch client.send(.status, io: &io) {
        case .result(let result):
            io.stdout.write(printsJSON ? "\(result)\n" : ClientText.status(result))
            return ExitCode.success
        case .refused(let error):
            return ClientOptions.report(error, io: &io)
        case .failed(let code):
            return code
        }
    }
}
