import Foundation
import HotStringsTestSupport
import StringsFormat

/// The peak memory of one parser on one input, measured in a child process.
struct MemoryResult: Codable, Sendable {
    /// `VmRSS` of the child after loading the input, before parsing.
    var baselineBytes: Int
    /// `VmHWM` of the child after parsing every file (the results kept alive).
    var peakBytes: Int
    /// `peakBytes - baselineBytes`: what parsing added at its peak.
    var parsingBytes: Int { max(0, peakBytes - baselineBytes) }
    var keys: Int
}

/// Runs one parser over an input bundle in a fresh process so that its peak RSS is its own.
///
/// The parent writes the input files to a bundle file (each file as a little-endian `UInt64` length and its
/// bytes), then re-executes this binary as `hotstrings-bench parse-memory --parser P --input BUNDLE`; the
/// child prints one JSON `MemoryResult` line.
enum ParseMemory {
    /// Measures each parser on `input` in its own child process.
    static func measure(_ input: ParseInput, parsers: [ParserKind]) throws -> [ParserKind: MemoryResult] {
        let bundle = FileManager.default.temporaryDirectory
            .appendingPathComponent("hotstrings-bench-\(ProcessInfo.processInfo.processIdentifier)-\(input.identifier)")
        var data = Data()
        data.reserveCapacity(input.totalBytes + 8 * input.files.count)
        for file in input.files {
            withUnsafeBytes(of: UInt64(file.bytes.count).littleEndian) { data.append(contentsOf: $0) }
            data.append(file.bytes)
        }
        try data.write(to: bundle)
        defer { try? FileManager.default.removeItem(at: bundle) }
        var results: [ParserKind: MemoryResult] = [:]
        for parser in parsers {
            results[parser] = try runChild(parser: parser, bundle: bundle.path)
        }
        return results
    }

    private static func runChild(parser: ParserKind, bundle: String) throws -> MemoryResult {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        let run = try ProcessRun.tool(executable, [ParseMemoryProbe.name, "--parser", parser.rawValue,
                                                   "--input", bundle], timeout: .seconds(600))
        guard run.code == 0,
              let line = run.stdout.split(separator: "\n").last,
              let result = try? JSONDecoder().decode(MemoryResult.self, from: Data(line.utf8))
        else {
            throw ChildFailure(parser: parser, status: run.code, output: run.stdout)
        }
        return result
    }

    /// Reads a bundle written by `measure` back into its files.
    static func readBundle(at path: String) throws -> [Data] {
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        var files: [Data] = []
        while let header = try handle.read(upToCount: 8), header.count == 8 {
            let length = Int(header.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }.littleEndian)
            let bytes = length == 0 ? Data() : try handle.read(upToCount: length) ?? Data()
            guard bytes.count == length else { throw BundleError(path: path) }
            files.append(bytes)
        }
        return files
    }
}

/// The hidden child mode of the parse suite: parse a bundle with one parser and print memory figures as JSON.
struct ParseMemoryProbe: BenchmarkSuite {
    static let name = "parse-memory"
    static let abstract = "(internal) peak memory of one parser, run as a child of `parse`"
    static let help = "USAGE: hotstrings-bench parse-memory --parser ours|foundation --input BUNDLE"

    static func run(arguments: [String]) throws -> Int32 {
        var options = OptionReader(arguments)
        guard let parserName = try options.value("--parser"), let parser = ParserKind(rawValue: parserName) else {
            throw UsageError("--parser must be ours or foundation")
        }
        guard let path = try options.value("--input") else { throw UsageError("--input BUNDLE is required") }
        try options.finish()

        let files = try ParseMemory.readBundle(at: path)
        let baseline = try ProcessMemory.current()
        var keys = 0
        switch parser {
        case .ours:
            var tables: [StringsTable] = []
            for bytes in files { if let table = try? ParserKind.parseOurs(bytes) { tables.append(table) } }
            keys = tables.reduce(0) { $0 + $1.count }
            withExtendedLifetime(tables) {}
        case .foundation:
            var plists: [Any] = []
            for bytes in files { if let plist = try? ParserKind.parseFoundation(bytes) { plists.append(plist) } }
            keys = plists.reduce(0) { $0 + (($1 as? [AnyHashable: Any])?.count ?? 0) }
            withExtendedLifetime(plists) {}
        }
        let peak = try ProcessMemory.current()
        withExtendedLifetime(files) {}
        let result = MemoryResult(baselineBytes: baseline.residentBytes, peakBytes: peak.peakResidentBytes, keys: keys)
        print(String(decoding: try JSONEncoder().encode(result), as: UTF8.self))
        return 0
    }
}

/// The memory child exited badly or printed no result.
struct ChildFailure: Error, CustomStringConvertible {
    var parser: ParserKind
    var status: Int32
    var output: String
    var description: String { "the \(parser.rawValue) memory child exited with \(status): \(output.prefix(500))" }
}

/// A bundle file ended in the middle of a file.
struct BundleError: Error, CustomStringConvertible {
    var path: String
    var description: String { "\(path) is truncated" }
}
