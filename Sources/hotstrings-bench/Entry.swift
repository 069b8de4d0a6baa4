import Foundation

/// The benchmark executable: `hotstrings-bench <suite> [options]`.
///
/// Each suite is one type conforming to `BenchmarkSuite`, kept in its own file and listed in `suites` below;
/// hidden suites are helper modes the benchmarks re-execute this binary with (never typed by a person).
@main
struct HotStringsBench {
    /// The suites a person can run, in the order `--help` lists them.
    static var suites: [any BenchmarkSuite.Type] { [
        ParseSuite.self,
        WatchSuite.self,
        ServeSuite.self,
        ClientSuite.self,
        PluralSuite.self,
        PseudoSuite.self,
        OTASuite.self,
        EditSuite.self,
        WebSuite.self,
        SignSuite.self,
        CatalogSuite.self,
        SpecifierSuite.self,
    ] }

    /// Modes used by the suites themselves (child processes), not listed by `--help`.
    static var hiddenSuites: [any BenchmarkSuite.Type] { [
        ParseMemoryProbe.self,
        FanOutRelayProcess.self,
    ] }

    static func main() {
        var arguments = Array(CommandLine.arguments.dropFirst())
        guard let name = arguments.first, name != "--help", name != "-h", name != "help" else {
            print(usage)
            exit(arguments.isEmpty ? 64 : 0)
        }
        arguments.removeFirst()
        guard let suite = (suites + hiddenSuites).first(where: { $0.name == name }) else {
            printError("hotstrings-bench: unknown suite '\(name)'\n\n\(usage)")
            exit(64)
        }
        if arguments.contains("--help") || arguments.contains("-h") {
            print(suite.help)
            exit(0)
        }
        do {
            exit(try suite.run(arguments: arguments))
        } catch let error as UsageError {
            printError("hotstrings-bench \(name): \(error.message)\n\n\(suite.help)")
            exit(64)
        } catch {
            printError("hotstrings-bench \(name): \(error)")
            exit(1)
        }
    }

    static var usage: String {
        var names: [(name: String, abstract: String)] = []
        for suite in suites { names.append((suite.name, suite.abstract)) }
        let width = names.reduce(0) { max($0, $1.name.count) } + 2
        let lines = names.map { "  " + $0.name.padding(toLength: width, withPad: " ", startingAt: 0) + $0.abstract }
        return """
            USAGE: swift run -c release hotstrings-bench <suite> [options]

            SUITES:
            \(lines.joined(separator: "\n"))

            Run `hotstrings-bench <suite> --help` for a suite's options.
            """
    }
}

/// Writes a line to standard error.
func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}
