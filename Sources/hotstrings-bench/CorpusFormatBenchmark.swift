import Foundation
import StringsFormat

/// `.stringsdict` and String Catalog parsing, part of `hotstrings-bench parse`: our parser against Foundation's on
/// every file of the corpus with the extension, as a ratio measured in the same run.
enum CorpusFormatBenchmark {
    /// `.stringsdict` files: `XMLPropertyList.parse` against `PropertyListSerialization`.
    static func runStringsdict(corpus: String?, iterations: Int) throws {
        try run(corpus: corpus, iterations: iterations, fileExtension: ".stringsdict",
                ours: ("XMLPropertyList", { (try? XMLPropertyList.parse($0)) != nil }),
                theirs: ("PropertyListSerialization", {
                    _ = try? PropertyListSerialization.propertyList(from: $0, options: [], format: nil)
                }))
    }

    /// `.xcstrings` files (IceCubesApp's 2 MB catalog): `StringCatalog.parse` against `JSONSerialization`.
    static func runCatalogs(corpus: String?, iterations: Int) throws {
        try run(corpus: corpus, iterations: iterations, fileExtension: ".xcstrings",
                ours: ("StringCatalog", { (try? StringCatalog.parse($0)) != nil }),
                theirs: ("JSONSerialization", { _ = try? JSONSerialization.jsonObject(with: $0) }))
    }

    /// Times both parsers over the corpus files ending in `fileExtension` and prints throughput and ratio.
    private static func run(corpus: String?, iterations: Int, fileExtension: String,
                            ours: (name: String, parse: ([UInt8]) -> Bool),
                            theirs: (name: String, parse: (Data) -> Void)) throws
    {
        guard let corpus,
              let enumerator = FileManager.default.enumerator(atPath: corpus) else {
            printError("note: skipping the \(fileExtension) input: no corpus")
            return
        }
        let paths = enumerator.compactMap { $0 as? String }.filter { $0.hasSuffix(fileExtension) }.sorted()
        let files = try paths.map { try Array(Data(contentsOf: URL(fileURLWithPath: corpus + "/" + $0))) }
        let datas = files.map { Data($0) }
        guard !files.isEmpty else {
            printError("note: skipping the \(fileExtension) input: the corpus has no such files")
            return
        }
        let bytes = Double(files.reduce(0) { $0 + $1.count })
        var failures = 0
        // In turn, run by run: the machine's load changes while it measures, and must not favour either parser.
        let (ourTimes, theirTimes) = Measure.alternating(iterations: iterations) {
            for file in files where !ours.parse(file) { failures += 1 }
        } _: {
            for data in datas { theirs.parse(data) }
        }
        let ourTime = Measure.median(ourTimes)
        let theirTime = Measure.median(theirTimes)
        print("\(fileExtension) (\(files.count) files, \(Int(bytes)) bytes): \(ours.name) "
            + Format.rate(bytes / ourTime / 1e6) + " MB/s, \(theirs.name) "
            + Format.rate(bytes / theirTime / 1e6) + " MB/s, ratio " + Format.ratio(theirTime / ourTime)
            + (failures > 0 ? " (\(failures) parse failures!)" : ""))
    }
}
