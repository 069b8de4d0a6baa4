import Foundation
import StringsFormat

/// `.stringsdict` parsing, part of `hotstrings-bench parse`: `XMLPropertyList.parse` against Foundation's
/// `PropertyListSerialization` on every `.stringsdict` of the corpus, as a ratio measured in the same run.
enum StringsdictParseBenchmark {
    /// Times both parsers over all corpus `.stringsdict` files and prints the throughput and the ratio.
    static func run(corpus: String?, iterations: Int) throws {
        guard let corpus,
              let enumerator = FileManager.default.enumerator(atPath: corpus) else {
            printError("note: skipping the .stringsdict input: no corpus")
            return
        }
        let paths = enumerator.compactMap { $0 as? String }.filter { $0.hasSuffix(".stringsdict") }.sorted()
        let files = try paths.map { try Array(Data(contentsOf: URL(fileURLWithPath: corpus + "/" + $0))) }
        let datas = files.map { Data($0) }
        guard !files.isEmpty else {
            printError("note: skipping the .stringsdict input: the corpus has no .stringsdict files")
            return
        }
        let bytes = Double(files.reduce(0) { $0 + $1.count })
        var failures = 0
        let ours = Measure.median(Measure.seconds(iterations: iterations) {
            for file in files where (try? XMLPropertyList.parse(file)) == nil { failures += 1 }
        })
        let theirs = Measure.median(Measure.seconds(iterations: iterations) {
            for data in datas {
                _ = try? PropertyListSerialization.propertyList(from: data, options: [], format: nil)
            }
        })
        print(".stringsdict (\(files.count) files, \(Int(bytes)) bytes): XMLPropertyList "
            + Format.rate(bytes / ours / 1e6) + " MB/s, PropertyListSerialization "
            + Format.rate(bytes / theirs / 1e6) + " MB/s, ratio " + Format.ratio(theirs / ours)
            + (failures > 0 ? " (\(failures) parse failures!)" : ""))
    }
}
