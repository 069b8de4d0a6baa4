import Foundation
import StringsFormat

/// The two parsers the parse suite compares on the same bytes.
enum ParserKind: String, CaseIterable, Codable, Sendable {
    /// `StringsFile.parse` from StringsFormat.
    case ours
    /// Foundation's `PropertyListSerialization.propertyList(from:options:format:)`.
    case foundation

    var title: String { self == .ours ? "StringsFormat" : "Foundation" }

    /// Parses one file and returns how many keys it had; throws what the parser throws.
    func parseCountingKeys(_ bytes: Data) throws -> Int {
        switch self {
        case .ours:
            return try Self.parseOurs(bytes).count
        case .foundation:
            let plist = try Self.parseFoundation(bytes)
            return (plist as? [AnyHashable: Any])?.count ?? 0
        }
    }

    static func parseOurs(_ bytes: Data) throws -> StringsTable {
        try bytes.withUnsafeBytes { buffer in try StringsFile.parse(buffer) }
    }

    static func parseFoundation(_ bytes: Data) throws -> Any {
        try PropertyListSerialization.propertyList(from: bytes, options: [], format: nil)
    }
}

/// Throughput of one parser on one input.
struct ThroughputResult: Codable, Sendable {
    /// Each timed run (all files of the input once), in seconds.
    var samplesSeconds: [Double]
    var medianSeconds: Double
    /// Input bytes / median time, with MB = 10^6 bytes.
    var megabytesPerSecond: Double
    /// Keys found in one run (a checksum that also keeps the optimizer from dropping the work).
    var keys: Int
    /// Files the parser rejected in one run.
    var failures: Int
}

/// A file on which the two parsers disagree.
struct Mismatch: Codable, Sendable {
    var file: String
    var detail: String
}

/// The timing and equivalence checks of the parse suite.
enum ParseBenchmark {
    /// Times `parser` over every file of `input`: one warm-up run, then `iterations` timed runs.
    static func throughput(of parser: ParserKind, on input: ParseInput, iterations: Int) -> ThroughputResult {
        let files = input.files.map(\.bytes)
        var keys = 0
        var failures = 0
        let samples = Measure.seconds(iterations: iterations) {
            keys = 0
            failures = 0
            for bytes in files {
                do {
                    keys += try parser.parseCountingKeys(bytes)
                } catch {
                    failures += 1
                }
            }
        }
        let median = Measure.median(samples)
        return ThroughputResult(samplesSeconds: samples, medianSeconds: median,
                                megabytesPerSecond: Double(input.totalBytes) / 1e6 / median,
                                keys: keys, failures: failures)
    }

    /// Parses every file with both parsers once and lists the files whose dictionaries differ.
    static func mismatches(in input: ParseInput) -> [Mismatch] {
        input.files.compactMap { file in
            mismatch(ours: Result { try ParserKind.parseOurs(file.bytes) },
                     foundation: Result { try ParserKind.parseFoundation(file.bytes) })
                .map { Mismatch(file: file.path, detail: $0) }
        }
    }

    private static func mismatch(ours: Result<StringsTable, any Error>, foundation: Result<Any, any Error>) -> String? {
        switch (ours, foundation) {
        case (.failure(let ourError), .failure(let theirError)):
            return "both parsers failed: ours: \(ourError); Foundation: \(oneLine(theirError))"
        case (.failure(let error), .success):
            return "ours threw, Foundation parsed it: \(error)"
        case (.success(let table), .failure(let error)):
            return "Foundation failed, ours parsed \(table.count) keys: \(oneLine(error))"
        case (.success(let table), .success(let plist)):
            guard let theirs = plist as? [String: String] else {
                return "Foundation returned \(type(of: plist)), not [String: String]"
            }
            return difference(table.dictionary, theirs)
        }
    }

    /// Describes the first key (in sorted order) on which two dictionaries differ, or nil if they are equal.
    static func difference(_ ours: [String: String], _ theirs: [String: String]) -> String? {
        guard ours != theirs else { return nil }
        let keys = Set(ours.keys).union(theirs.keys).sorted()
        let differing = keys.filter { ours[$0] != theirs[$0] }
        let first = differing.first ?? ""
        return "\(differing.count) keys differ (ours \(ours.count) keys, Foundation \(theirs.count)); first: "
            + "\(quoted(first)): ours \(quoted(ours[first])), Foundation \(quoted(theirs[first]))"
    }

    private static func quoted(_ text: String?) -> String {
        guard let text else { return "(absent)" }
        let shown = text.count > 60 ? String(text.prefix(60)) + "…" : text
        return shown.debugDescription
    }

    private static func oneLine(_ error: any Error) -> String {
        "\(error)".replacingOccurrences(of: "\n", with: " ")
    }
}
