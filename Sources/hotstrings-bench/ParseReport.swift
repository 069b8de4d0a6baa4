import Foundation

/// Everything measured for one input.
struct ParseInputResult: Sendable {
    var input: ParseInput
    var throughput: [ParserKind: ThroughputResult]
    var memory: [ParserKind: MemoryResult]
    var mismatches: [Mismatch]

    var ours: ThroughputResult { throughput[.ours]! }
    var foundation: ThroughputResult { throughput[.foundation]! }
    /// Our throughput over Foundation's.
    var ratio: Double { ours.megabytesPerSecond / foundation.megabytesPerSecond }
    var label: String { "\(input.name) \(input.encoding)" }
}

/// A performance bar from DESIGN.md and whether this run met it.
struct Bar: Codable, Sendable {
    var name: String
    var passed: Bool
    var value: Double
    var input: String
}

/// The parse suite's printed table and JSON document.
struct ParseReport {
    var corpus: String?
    var iterations: Int
    var results: [ParseInputResult]

    var bars: [Bar] {
        var bars: [Bar] = []
        let utf8Results = results.filter(\.input.isUTF8)
        if let slowest = utf8Results.min(by: { $0.ours.megabytesPerSecond < $1.ours.megabytesPerSecond }) {
            bars.append(Bar(name: "UTF-8 throughput >= \(Int(ParseSuite.utf8Bar)) MB/s",
                            passed: slowest.ours.megabytesPerSecond >= ParseSuite.utf8Bar,
                            value: slowest.ours.megabytesPerSecond, input: slowest.label))
        }
        if let lowest = results.min(by: { $0.ratio < $1.ratio }) {
            bars.append(Bar(name: "ours / Foundation >= \(Int(ParseSuite.ratioBar))x",
                            passed: lowest.ratio >= ParseSuite.ratioBar, value: lowest.ratio, input: lowest.label))
        }
        return bars
    }

    var table: String {
        var lines: [String] = []
        lines.append("")
        lines.append("Parse benchmark: median of \(iterations) runs after a warm-up; MB = 10^6 bytes; "
            + "corpus: \(corpus ?? "none")")
        lines.append("")
        let header = [Format.cell("input", 28), Format.cell("files", 6, right: true),
                      Format.cell("size", 11, right: true),
                      Format.cell("keys", 8, right: true), Format.cell("ours MB/s", 10, right: true),
                      Format.cell("Foundation MB/s", 16, right: true), Format.cell("ratio", 8, right: true),
                      Format.cell("ours peak", 11, right: true), Format.cell("Foundation peak", 16, right: true)]
        lines.append(header.joined(separator: " "))
        lines.append(String(repeating: "-", count: header.joined(separator: " ").count))
        for result in results {
            let errors = result.ours.failures + result.foundation.failures
            let row = [
                Format.cell(result.label, 28), Format.cell("\(result.input.files.count)", 6, right: true),
                Format.cell(Format.megabytes(result.input.totalBytes), 11, right: true),
                Format.cell("\(result.ours.keys)", 8, right: true),
                Format.cell(Format.rate(result.ours.megabytesPerSecond), 10, right: true),
                Format.cell(Format.rate(result.foundation.megabytesPerSecond), 16, right: true),
                Format.cell(Format.ratio(result.ratio), 8, right: true),
                Format.cell(memory(result.memory[.ours]), 11, right: true),
                Format.cell(memory(result.memory[.foundation]), 16, right: true),
            ]
            var line = row.joined(separator: " ")
            if errors > 0 {
                line += "  (files rejected: ours \(result.ours.failures), Foundation \(result.foundation.failures))"
            }
            if !result.mismatches.isEmpty { line += "  MISMATCH in \(result.mismatches.count) files" }
            lines.append(line)
        }
        lines.append("")
        lines.append("peak = VmHWM after parsing every file (results kept) minus VmRSS before, in a child process")
        if results.contains(where: { $0.ours.keys != $0.foundation.keys }) {
            lines.append("note: key counts differ between the parsers on some inputs (see MISMATCH lines)")
        }
        let mismatched = results.reduce(0) { $0 + $1.mismatches.count }
        lines.append(mismatched == 0
            ? "equivalence: both parsers give the same dictionary for every file"
            : "MISMATCH: the parsers disagree on \(mismatched) files (listed above)")
        lines.append("")
        for bar in bars {
            let value = bar.name.hasPrefix("UTF-8") ? "\(Format.rate(bar.value)) MB/s" : Format.ratio(bar.value)
            lines.append("\(bar.name): \(bar.passed ? "PASS" : "FAIL") (\(value), \(bar.input))")
        }
        return lines.joined(separator: "\n")
    }

    private func memory(_ result: MemoryResult?) -> String {
        guard let result else { return "-" }
        return Format.mebibytes(result.parsingBytes)
    }

    /// The figures as a JSON document.
    func json() throws -> Data {
        let document = Document(
            suite: "parse", iterations: iterations, corpus: corpus,
            inputs: results.map { result in
                Document.Input(
                    name: result.input.name, encoding: result.input.encoding, files: result.input.files.count,
                    bytes: result.input.totalBytes, ours: result.ours, foundation: result.foundation,
                    ratio: result.ratio,
                    oursMemory: result.memory[.ours].map(Document.Memory.init),
                    foundationMemory: result.memory[.foundation].map(Document.Memory.init),
                    mismatches: result.mismatches)
            },
            bars: bars)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(document)
    }

    private struct Document: Codable {
        struct Input: Codable {
            var name: String
            var encoding: String
            var files: Int
            var bytes: Int
            var ours: ThroughputResult
            var foundation: ThroughputResult
            var ratio: Double
            var oursMemory: Memory?
            var foundationMemory: Memory?
            var mismatches: [Mismatch]
        }
        struct Memory: Codable {
            var baselineBytes: Int
            var peakBytes: Int
            var parsingBytes: Int
            init(_ result: MemoryResult) {
                baselineBytes = result.baselineBytes
                peakBytes = result.peakBytes
                parsingBytes = result.parsingBytes
            }
        }
        var suite: String
        var iterations: Int
        var corpus: String?
        var inputs: [Input]
        var bars: [Bar]
    }
}
