import Foundation
import StringsFormat

/// `hotstrings-bench catalog`: a String Catalog's cost per byte and per save, each as a ratio to `.strings` in the
/// same run (issue 26: a catalog save should cost what a `.strings` save of the same bundle costs, within 4×).
struct CatalogSuite: BenchmarkSuite {
    static let name = "catalog"
    static let abstract = "String Catalog parse MB/s and save -> reload, as ratios to .strings"
    static let help = """
        USAGE: swift run -c release hotstrings-bench catalog [--iterations N] [--saves N] [--corpus DIR]

        Parse: IceCubesApp's String Catalog (2 MB, 19 languages) with StringCatalog.parse, alone and with every
        language compiled, against every UTF-8 .strings file of element-ios with StringsFile.parse, in turn run by
        run (MB/s and ratio). Save: the catalog saved with one German value changed until the store's reload, next
        to a .strings save in the same bundle, interleaved (as in the watch suite); bar: catalog / strings at
        p50 <= 4x.

        OPTIONS:
          --iterations N  timed parse runs of each (default 9)
          --saves N       catalog saves to time (default 50)
          --corpus DIR    the corpus folder (default: as for the parse suite)
        """

    static let saveBar = 4.0

    /// Two versions of `catalog`, each with one German value changed (as the save benchmark changes it).
    static func savedVersions(of catalog: [UInt8]) -> [[UInt8]] {
        let text = String(decoding: catalog, as: UTF8.self)
        guard let marker = text.range(of: "\"value\" : \"Blockieren") else { return [catalog, catalog] }
        return ["a", "b"].map { Array((text[..<marker.upperBound] + " " + $0 + text[marker.upperBound...]).utf8) }
    }

    static func run(arguments: [String]) throws -> Int32 {
        var options = OptionReader(arguments)
        let iterations = try options.positiveInteger("--iterations") ?? 9
        let saves = try options.positiveInteger("--saves") ?? 50
        let corpus = ParseInputs.corpusDirectory(option: try options.value("--corpus"))
        try options.finish()
        guard let corpus, let catalog = try? Array(Data(contentsOf: URL(
            fileURLWithPath: corpus + CatalogSaveLatency.corpusPath
        ))), let strings = try ParseInputs.elementCorpus(in: corpus) else {
            printError("hotstrings-bench catalog: no IceCubesApp catalog or element-ios under \(corpus ?? "?")")
            return 1
        }
        let files = strings.files.map { Array($0.bytes) }
        let stringsBytes = Double(strings.totalBytes)
        let catalogBytes = Double(catalog.count)
        let (catalogTimes, stringsTimes) = Measure.alternating(iterations: iterations) {
            _ = try? StringCatalog.parse(catalog)
        } _: {
            for file in files { _ = try? StringsFile.parse(file) }
        }
        let compileTimes = Measure.seconds(iterations: iterations) {
            guard let parsed = try? StringCatalog.parse(catalog) else { return }
            for language in parsed.languages { _ = parsed.compiled(language: language) }
        }
        // A save as the watcher reads it: the last version kept, one German value changed each time.
        var compiled = CompiledCatalog()
        let versions = Self.savedVersions(of: catalog)
        try compiled.read(versions[1])
        var round = 0
        let (rereadTimes, stringsAgain) = Measure.alternating(iterations: iterations) {
            round += 1
            _ = try? compiled.read(versions[round % 2])
        } _: {
            for file in files { _ = try? StringsFile.parse(file) }
        }
        let rereadRate = catalogBytes / Measure.median(rereadTimes) / 1e6
        let stringsAgainRate = stringsBytes / Measure.median(stringsAgain) / 1e6
        let catalogRate = catalogBytes / Measure.median(catalogTimes) / 1e6
        let stringsRate = stringsBytes / Measure.median(stringsTimes) / 1e6
        let compiledRate = catalogBytes / Measure.median(compileTimes) / 1e6
        print("parse, median of \(iterations) runs (MB = 10^6 bytes)")
        print("  .strings (element-ios, \(Format.megabytes(strings.totalBytes))) " + Format.rate(stringsRate) + " MB/s")
        print("  .xcstrings (IceCubesApp, \(Format.megabytes(catalog.count))) " + Format.rate(catalogRate)
              + " MB/s: " + Format.ratio(catalogRate / stringsRate) + " the .strings rate")
        print("  .xcstrings parsed and every language compiled " + Format.rate(compiledRate) + " MB/s: "
              + Format.ratio(compiledRate / stringsRate) + " the .strings rate")

        print("  .xcstrings read again after a one-value save (kept version, changed keys compiled) "
              + Format.rate(rereadRate) + " MB/s: " + Format.ratio(rereadRate / stringsAgainRate)
              + " the .strings rate (" + Format.rate(stringsAgainRate) + " MB/s in turn with it)")

        guard let save = try CatalogSaveLatency.measure(saves: saves, corpus: corpus) else { return 1 }
        print("save -> reload, \(saves) saves of each, interleaved (ms): from the start of the writing, and from the "
              + "rename that completes the save (the writer's work done: what the watcher and the store cost)")
        print("  " + ["", "p50", "p90", "p99"].map { Format.cell($0, 10, right: true) }.joined())
        let rows = [("strings", save.strings), ("catalog", save.catalog),
                    ("strings from rename", save.stringsFromRename), ("catalog from rename", save.catalogFromRename)]
        for (label, samples) in rows {
            let row = [0.5, 0.9, 0.99].map {
                Format.cell(String(format: "%.3f", WatchSuite.percentile(samples, $0) * 1e3), 10, right: true)
            }
            print("  " + Format.cell(label, 20) + row.joined())
        }
        print(String(format: "  of which writing the catalog's file (temporary file, rename) p50 %.3f ms",
                     WatchSuite.percentile(save.catalogWrites, 0.5) * 1e3))
        let withWriting = WatchSuite.percentile(save.catalog, 0.5) / WatchSuite.percentile(save.strings, 0.5)
        let ratio = WatchSuite.percentile(save.catalogFromRename, 0.5)
            / WatchSuite.percentile(save.stringsFromRename, 0.5)
        print("  catalog / strings at p50: " + Format.ratio(ratio) + " from the rename, "
              + Format.ratio(withWriting) + " with the writing")
        print("bar catalog save <= \(Int(saveBar))x a .strings save at p50 (from the rename): "
              + (ratio <= saveBar ? "PASS" : "FAIL"))
        return ratio <= saveBar ? 0 : 1
    }
}
