import Foundation

/// `hotstrings-bench parse`: StringsFormat's parser against Foundation's `PropertyListSerialization`.
struct ParseSuite: BenchmarkSuite {
    static let name = "parse"
    static let abstract = "parsing vs Foundation: .strings, .stringsdict and .xcstrings (MB/s, ratio, memory)"
    static let help = """
        USAGE: swift run -c release hotstrings-bench parse [--corpus DIR] [--iterations N] [--json PATH]
                                                           [--entries N] [--no-memory]

        Parses each input with StringsFile.parse and with Foundation's PropertyListSerialization on the same
        bytes: every .strings file under DIR/element-ios, and a generated table, each in UTF-8 and in
        UTF-16LE with a BOM. Prints throughput (median of N runs after a warm-up), the ratio, peak memory
        (each parser in a child process) and whether the performance bars pass. Then every .stringsdict of
        the corpus with XMLPropertyList against PropertyListSerialization, and every .xcstrings with
        StringCatalog against JSONSerialization, the two parsers run in turn, run by run.

        OPTIONS:
          --corpus DIR      the corpus folder (default: $HOTSTRINGS_CORPUS, else ../shared/corpus beside the package)
          --iterations N    timed runs per parser and input (default 5)
          --entries N       entries in the generated table (default 100000)
          --json PATH       also write the figures as JSON to PATH ('-' for standard output)
          --no-memory       skip the peak-memory child processes
        """

    static let utf8Bar = 200.0
    static let ratioBar = 5.0

    static func run(arguments: [String]) throws -> Int32 {
        var options = OptionReader(arguments)
        let corpusOption = try options.value("--corpus")
        let iterations = try options.positiveInteger("--iterations") ?? 5
        let entries = try options.positiveInteger("--entries") ?? 100_000
        let jsonPath = try options.value("--json")
        let measuresMemory = !options.flag("--no-memory")
        try options.finish()

        let corpus = ParseInputs.corpusDirectory(option: corpusOption)
        var utf8Inputs: [ParseInput] = []
        if let element = try ParseInputs.elementCorpus(in: corpus) { utf8Inputs.append(element) }
        utf8Inputs.append(ParseInputs.generated(entries: entries))
        let inputs = utf8Inputs.flatMap { [$0, $0.transcodedToUTF16()] }

        var results: [ParseInputResult] = []
        for input in inputs {
            progress("\(input.name) \(input.encoding): checking both parsers agree")
            let mismatches = ParseBenchmark.mismatches(in: input)
            for mismatch in mismatches.prefix(20) {
                print("MISMATCH [\(input.name) \(input.encoding)] \(mismatch.file): \(mismatch.detail)")
            }
            if mismatches.count > 20 { print("MISMATCH … and \(mismatches.count - 20) more files") }
            var throughput: [ParserKind: ThroughputResult] = [:]
            for parser in ParserKind.allCases {
                progress("\(input.name) \(input.encoding): timing \(parser.title) (\(iterations) runs)")
                throughput[parser] = ParseBenchmark.throughput(of: parser, on: input, iterations: iterations)
            }
            var memory: [ParserKind: MemoryResult] = [:]
            if measuresMemory {
                progress("\(input.name) \(input.encoding): peak memory in child processes")
                memory = try ParseMemory.measure(input, parsers: ParserKind.allCases)
            }
            results.append(ParseInputResult(input: input, throughput: throughput, memory: memory,
                                            mismatches: mismatches))
        }

        let report = ParseReport(corpus: corpus, iterations: iterations, results: results)
        print(report.table)
        try CorpusFormatBenchmark.runStringsdict(corpus: corpus, iterations: iterations)
        try CorpusFormatBenchmark.runCatalogs(corpus: corpus, iterations: iterations)
        if let jsonPath {
            let data = try report.json()
            if jsonPath == "-" {
                print(String(decoding: data, as: UTF8.self))
            } else {
                try data.write(to: URL(fileURLWithPath: jsonPath))
                print("JSON written to \(jsonPath)")
            }
        }
        return 0
    }

    private static func progress(_ message: String) {
        printError("… " + message)
    }
}
