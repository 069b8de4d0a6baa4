import Foundation
import HotStringsTestSupport
import Testing
@testable import HotStringsCLI

/// Options declared once (`CommandOption`): durations with units, lists in one style, help from the declaration.
struct DurationTextTests {
    @Test(arguments: [
        ("50ms", DurationText.Unit.seconds, Duration.milliseconds(50)),
        ("50", .milliseconds, .milliseconds(50)),
        ("500us", .milliseconds, .microseconds(500)),
        ("500µs", .milliseconds, .microseconds(500)),
        ("500", .microseconds, .microseconds(500)),
        ("1.5s", .milliseconds, .milliseconds(1500)),
        (".5s", .milliseconds, .milliseconds(500)),
        ("0.1", .seconds, .milliseconds(100)),
        ("30", .seconds, .seconds(30)),
        ("2m", .seconds, .seconds(120)),
        ("1h", .seconds, .seconds(3600)),
        ("5 ms", .seconds, .milliseconds(5)),
        (" 7ns ", .seconds, .nanoseconds(7)),
        ("0", .seconds, .zero),
        ("1.0000000001s", .seconds, .seconds(1)),
        ("9223372036.854775807s", .seconds, .nanoseconds(Int64.max)),
    ] as [(String, DurationText.Unit, Duration)])
    func readsNumbersWithAndWithoutUnits(text: String, plain: DurationText.Unit, expected: Duration) throws {
        #expect(try DurationText.parse(text, plain: plain) == expected)
    }

    @Test(arguments: [
        ("", DurationText.Failure.empty),
        ("  ", .empty),
        ("-5ms", .negative),
        ("-0", .negative),
        ("5 parsecs", .unknownUnit("parsecs")),
        ("5MS", .unknownUnit("MS")),
        ("soon", .malformed),
        ("ms", .malformed),
        ("1.2.3", .malformed),
        ("1.", .malformed),
        (".", .malformed),
        ("5e3", .malformed),
        ("+5", .malformed),
        ("99999999999999999999", .tooLong),
        ("9223372036.854775808s", .tooLong),
        ("2562048h", .tooLong),
    ] as [(String, DurationText.Failure)])
    func refusesWhatIsNotADuration(text: String, failure: DurationText.Failure) {
        #expect(throws: failure) { try DurationText.parse(text, plain: .milliseconds) }
    }

    @Test(arguments: [
        (Duration.milliseconds(50), "50ms"), (.microseconds(500), "500us"), (.seconds(30), "30s"),
        (.seconds(120), "2m"), (.seconds(86_400), "24h"), (.milliseconds(1500), "1500ms"), (.nanoseconds(3), "3ns"),
        (.zero, "0"),
    ])
    func writesTheLongestExactUnit(duration: Duration, text: String) throws {
        #expect(DurationText.text(duration) == text)
        #expect(try DurationText.parse(text, plain: .seconds) == duration, "what help shows reads back")
    }
}

struct CommandOptionTests {
    /// Parses `arguments` for `command` and reads `option`.
    private func read<Value>(_ option: CommandOption<Value>, of command: any Command.Type, _ arguments: [String])
        throws -> Value {
        try ArgumentParser(spec: command.spec).parse(arguments)[option]
    }

    @Test func plainNumbersKeepTheUnitEachOptionAlwaysHad() throws {
        #expect(try read(BundleOptions.settle, of: WatchCommand.self, ["--settle", "30", "b"]) == .milliseconds(30))
        #expect(try read(BundleOptions.batchWindow, of: WatchCommand.self, ["--batch-window", "250", "b"])
            == .microseconds(250))
        #expect(try read(BundleOptions.readAheadQuiet, of: WatchCommand.self, ["--read-ahead-quiet", "250", "b"])
            == .microseconds(250))
        #expect(try read(ServeCommand.pullInterval, of: ServeCommand.self, ["--pull-interval", "1.5"])
            == .milliseconds(1500))
        #expect(try read(ServeCommand.pullTimeout, of: ServeCommand.self, ["--pull-timeout", "5"]) == .seconds(5))
        #expect(try read(PullCommand.timeout, of: PullCommand.self, ["--timeout", "0.25", "u", "b"])
            == .milliseconds(250))
        #expect(try read(ClientOptions.timeout, of: GetCommand.self, ["--timeout", "0.3", "k"]) == .milliseconds(300))
    }

    @Test func unitsAndDefaults() throws {
        #expect(try read(BundleOptions.settle, of: ServeCommand.self, ["--settle", "2s"]) == .seconds(2))
        #expect(try read(BundleOptions.batchWindow, of: ServeCommand.self, ["--batch-window=1ms"]) == .milliseconds(1))
        #expect(try read(ServeCommand.pullInterval, of: ServeCommand.self, ["--pull-interval", "5m"]) == .seconds(300))
        #expect(try read(BundleOptions.settle, of: ServeCommand.self, []) == .milliseconds(50))
        #expect(try read(BundleOptions.batchWindow, of: ServeCommand.self, []) == .microseconds(500))
        #expect(try read(BundleOptions.readAheadQuiet, of: ServeCommand.self, []) == .microseconds(100))
        // It reaches the watcher's settling.
        let quiet = try BundleOptions(ArgumentParser(spec: ServeCommand.spec).parse(["--read-ahead-quiet", "3ms"]))
        #expect(quiet.watcher.settling.readAheadQuiet == .milliseconds(3))
        #expect(try read(ServeCommand.pullInterval, of: ServeCommand.self, []) == .seconds(30))
        #expect(try read(ClientOptions.timeout, of: StatusCommand.self, []) == .seconds(10))
    }

    @Test(arguments: [
        (["--settle", "5 parsecs"],
         "--settle: unknown unit 'parsecs' in '5 parsecs': use ns, us, ms, s, m or h (a plain number is milliseconds)"),
        (["--settle=-5ms"], "--settle takes a duration from 0 to 1m, not the negative '-5ms'"),
        (["--settle", "99999999999999999999h"], "--settle takes a duration from 0 to 1m, not '99999999999999999999h' "
            + "(too long)"),
        (["--settle="], "--settle takes a duration such as 50ms, 1.5s or 2m (a plain number is milliseconds), not an "
            + "empty value"),
        (["--settle", "2m"], "--settle takes a duration from 0 to 1m, not '2m'"),
        (["--settle", "60001"], "--settle takes a duration from 0 to 1m, not '60001'"),
        (["--batch-window", "2s"], "--batch-window takes a duration from 0 to 1s, not '2s'"),
        (["--read-ahead-quiet", "2s"], "--read-ahead-quiet takes a duration from 0 to 1s, not '2s'"),
        (["--batch-window", "fast"],
         "--batch-window takes a duration such as 50ms, 1.5s or 2m (a plain number is microseconds), not 'fast'"),
    ])
    func badDurationsAreUsageErrorsNamingTheOption(arguments: [String], message: String) {
        for command in ["watch", "serve"] {
            let result = run([command] + arguments + ["/nonexistent/hotstrings-bundle"])
            #expect(result.code == 64)
            #expect(result.stderr.hasPrefix("hotstrings \(command): error: \(message)\nUSAGE: "), "\(result.stderr)")
        }
    }

    @Test func listsAreCommaSeparatedAndTheOptionMayRepeat() throws {
        let subscribe = try ArgumentParser(spec: SubscribeCommand.spec)
            .parse(["--languages", "de", "--languages", "fr, pt-BR,", "--tables=A,B"])
        let command = try SubscribeCommand(arguments: subscribe)
        #expect(command.subscription.languages == ["de", "fr", "pt-BR"])
        #expect(command.subscription.tables == ["A", "B"])
        let everything = try SubscribeCommand(arguments: ArgumentParser(spec: SubscribeCommand.spec).parse([]))
        #expect(everything.subscription.languages == nil, "not given: every language, not none")
        #expect(everything.subscription.tables == nil)

        let get = try ArgumentParser(spec: GetCommand.spec)
            .parse(["k", "--trust-uid", "1000", "--trust-uid", "1001,1002", "-l", "de,fr", "-l", "en"])
        #expect(try get[ClientOptions.trustedUserIDs] == [1000, 1001, 1002])
        #expect(try get[GetCommand.languages] == ["de", "fr", "en"])
        let serve = try ArgumentParser(spec: ServeCommand.spec).parse(["--allow-uid", "7,8", "--allow-uid", "9"])
        #expect(try serve[ServeCommand.allowedUserIDs] == [7, 8, 9])
    }

    @Test func everyCommandsHelpShowsEachOptionOnceWithItsTypeAndDefault() throws {
        for command in CLI.commands {
            let help = command.spec.help
            // The OPTIONS rows: `  label  help`, or the label alone on its line when it is long.
            let labels = help.split(separator: "\n").filter { $0.hasPrefix("  -") }
                .map { $0.dropFirst(2).components(separatedBy: "  ")[0] }
            let options = command.spec.options.map(\.spec)
            #expect(labels == options.map(\.label) + ["-h, --help"], "\(command.spec.name): each option once")
            let words = help.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            for option in options {
                if let value = option.defaultValue {
                    #expect(words.contains("(default: \(value))"), "\(command.spec.name) --\(option.name)")
                }
                if let note = option.note { #expect(words.contains(note), "\(command.spec.name) --\(option.name)") }
            }
            for line in help.split(separator: "\n") where !line.hasPrefix("USAGE:") && !line.hasPrefix("OVERVIEW:") {
                #expect(line.count <= 80, "help line too wide: \(line)")
            }
        }
        let watch = WatchCommand.spec.help.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(watch.contains("--settle <duration> Quiet time for modifications and deletions. From 0 to 1m; a number "
            + "without a unit is milliseconds. (default: 50ms)"))
        #expect(watch.contains("--batch-window <duration> How long a batch waits for more writes. From 0 to 1s; a "
            + "number without a unit is microseconds. (default: 500us)"))
        let serve = ServeCommand.spec.help
        #expect(serve.contains("--pull-interval <duration>") && serve.contains("(default: 30s)"))
        #expect(serve.contains("--log-level <debug|info|warning|error>") && serve.contains("(default: info)"))
        #expect(serve.contains("--allow-uid <uid,...>") && serve.contains("(default: 600)"))
        #expect(SubscribeCommand.spec.help.contains("--format <json|text>"))
    }

    @Test func runtimeErrorsNameTheCommand() throws {
        try withFiles(["en.lproj/L.strings": "\"a\" = \"b\";\n"]) { root in
            let rollback = run(["rollback", root])
            #expect(rollback.code == 1)
            #expect(rollback.stderr.hasPrefix("hotstrings rollback: error: "), "\(rollback.stderr)")
        }
    }
}
