// Differential fuzz target: StringsFile.parse against Foundation's PropertyListSerialization.
//
// Built by Fuzz/run.sh together with the StringsFormat sources in one module (so no `import StringsFormat`):
//   swiftc -sanitize=fuzzer,address -parse-as-library -O Sources/StringsFormat/*.swift Fuzz/*.swift
// Every input is parsed by both. When both succeed and Foundation returned a strings table, the two tables
// must be equal scalar for scalar. When exactly one side succeeds (or Foundation returns something that is
// not a table of strings), the case must match one of the intentional divergences in Divergences.swift;
// anything else stops the fuzzer with both results printed, and libFuzzer saves the input as a crash file.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    let fuzzCase = FuzzCase(bytes: bytes)
    if let problem = fuzzCase.unexplainedDifference() {
        FuzzCase.report(problem, for: fuzzCase)
        fatalError("differential mismatch: \(problem)")
    }
    if explainsOutcomes { FileHandle.standardError.write(Data((fuzzCase.outcome + "\n").utf8)) }
    return 0
}

/// `HOTSTRINGS_FUZZ_EXPLAIN=1` prints how each input was judged (for running the target on a few files).
let explainsOutcomes = ["1", "2"].contains(ProcessInfo.processInfo.environment["HOTSTRINGS_FUZZ_EXPLAIN"])

/// What Foundation made of an input.
enum FoundationOutcome {
    /// Not asked: the input is known to hang or crash Foundation (see `FoundationHazards`).
    case skipped(reason: String)
    /// `PropertyListSerialization` threw.
    case failed(String)
    /// A dictionary whose keys and values are all strings: a strings table.
    case table([String: String])
    /// Anything else: a dictionary holding non-string values, or a top-level string, array or data.
    case other(Any)
}

/// One input with both parsers' results.
struct FuzzCase {
    let bytes: [UInt8]
    let ours: Result<StringsTable, ParseError>
    let foundation: FoundationOutcome

    init(bytes buffer: UnsafeRawBufferPointer) {
        bytes = Array(buffer)
        ours = Result { () throws(ParseError) in try StringsFile.parse(buffer) }
        if let reason = FoundationHazards.reasonToSkip(bytes) {
            foundation = .skipped(reason: reason)
            return
        }
        do {
            let data = Data(Self.foundationBytes(for: bytes))
            let plist = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
            if let table = plist as? [String: String] {
                foundation = .table(table)
            } else {
                foundation = .other(plist)
            }
        } catch {
            foundation = .failed("\(error)")
        }
    }

    /// A case with results already known (to judge an edited input against the same Foundation outcome).
    init(bytes: [UInt8], ours: Result<StringsTable, ParseError>, foundation: FoundationOutcome) {
        self.bytes = bytes
        self.ours = ours
        self.foundation = foundation
    }

    /// The bytes Foundation is given: the input, or for UTF-16 without a byte order mark, the input after one.
    ///
    /// CoreFoundation on Darwin (and we) read text whose first or second byte is zero as UTF-16 without a
    /// BOM; Foundation on Linux does not (it fails, or reads the bytes as something else entirely), so it
    /// is no oracle for such input. With the BOM we infer in front (the byte order from where the zeros fall
    /// in the first 256 bytes), it is: the tables must then be equal like any others.
    static func foundationBytes(for bytes: [UInt8]) -> [UInt8] {
        let byteOrderMarks: [[UInt8]] = [[0xEF, 0xBB, 0xBF], [0xFF, 0xFE], [0xFE, 0xFF]]
        if byteOrderMarks.contains(where: { bytes.starts(with: $0) }) { return bytes }
        guard bytes.count >= 2, bytes[0] == 0 || bytes[1] == 0 else { return bytes }
        let head = bytes.prefix(256).enumerated().filter { $0.element == 0 }
        let zerosAtEven = head.filter { $0.offset % 2 == 0 }.count
        let bigEndian = zerosAtEven > head.count - zerosAtEven
        return (bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]) + bytes
    }

    var ourError: ParseError? {
        if case .failure(let error) = ours { return error }
        return nil
    }

    var ourTable: StringsTable? {
        if case .success(let table) = ours { return table }
        return nil
    }

    var foundationTable: [String: String]? {
        if case .table(let table) = foundation { return table }
        return nil
    }

    var foundationFailed: Bool {
        if case .failed = foundation { return true }
        return false
    }

    /// Why this case is a finding, or nil when the parsers agree or differ in a documented way.
    func unexplainedDifference() -> String? {
        switch (ours, foundation) {
        case (_, .skipped):
            return nil
        case (.failure, .failed):
            return nil
        case (.success(let table), .table(let theirs)):
            if let difference = Self.difference(table.dictionary, theirs) {
                return Divergence.explaining(self) == nil ? "tables differ: \(difference)" : nil
            }
            return nil
        case (.success, .failed), (.failure, .table), (.failure, .other), (.success, .other):
            return Divergence.explaining(self) == nil ? "only one parser accepted the input" : nil
        }
    }

    /// One line saying what each parser did and which divergence, if any, explains the difference.
    var outcome: String {
        let ourSide = ourTable.map { "ours: \($0.count) entries (\($0.encoding.rawValue))" }
            ?? "ours: threw \(ourError!)"
        let theirSide: String
        switch foundation {
        case .skipped(let reason): theirSide = "Foundation: skipped (\(reason))"
        case .failed: theirSide = "Foundation: failed"
        case .table(let table): theirSide = "Foundation: \(table.count) entries"
        case .other(let value): theirSide = "Foundation: \(type(of: value))"
        }
        let verdict = Divergence.explaining(self).map { "divergence: \($0.name)" } ?? "agree"
        return "\(ourSide); \(theirSide); \(verdict)"
    }

    /// Compares two tables exactly (Unicode scalars, not canonical equivalence); nil when they are equal.
    static func difference(
        _ ours: [String: String], _ theirs: [String: String], ignoringValuesOf ignored: Set<String> = []
    ) -> String? {
        let ourKeys = Set(ours.keys.map { Array($0.unicodeScalars) })
        let theirKeys = Set(theirs.keys.map { Array($0.unicodeScalars) })
        if ourKeys != theirKeys {
            let onlyOurs = ourKeys.subtracting(theirKeys).map { String(String.UnicodeScalarView($0)) }
            let onlyTheirs = theirKeys.subtracting(ourKeys).map { String(String.UnicodeScalarView($0)) }
            return "keys only in ours: \(onlyOurs.sorted().prefix(5)), "
                + "only in Foundation: \(onlyTheirs.sorted().prefix(5))"
        }
        for (key, value) in ours {
            guard let other = theirs[key] else { return "key \(key.debugDescription) missing in Foundation" }
            if ignored.contains(key) { continue }
            if !value.unicodeScalars.elementsEqual(other.unicodeScalars) {
                return "value of \(key.debugDescription): ours \(scalars(value)), Foundation \(scalars(other))"
            }
        }
        return nil
    }

    static func scalars(_ text: String) -> String {
        text.debugDescription + " [" + text.unicodeScalars.prefix(16).map { String($0.value, radix: 16) }
            .joined(separator: " ") + "]"
    }

    /// Prints both results so that the crash log alone explains the finding.
    static func report(_ problem: String, for fuzzCase: FuzzCase) {
        var lines = ["", "==== HotStrings differential finding: \(problem)"]
        lines.append("input (\(fuzzCase.bytes.count) bytes): \(FuzzText.escaped(fuzzCase.bytes.prefix(600)))")
        switch fuzzCase.ours {
        case .success(let table):
            lines.append("ours: \(table.count) entries, encoding \(table.encoding.rawValue)")
            for entry in table.entries.prefix(10) {
                lines.append("  \(scalars(entry.key)) = \(scalars(entry.value))")
            }
        case .failure(let error):
            lines.append("ours: threw \(error) (byte offset \(error.byteOffset))")
        }
        switch fuzzCase.foundation {
        case .skipped(let reason): lines.append("Foundation: skipped (\(reason))")
        case .failed(let error): lines.append("Foundation: threw \(error)")
        case .table(let table):
            lines.append("Foundation: \(table.count) entries")
            for (key, value) in table.sorted(by: { $0.key < $1.key }).prefix(10) {
                lines.append("  \(scalars(key)) = \(scalars(value))")
            }
        case .other(let value): lines.append("Foundation: \(type(of: value)): \(String(describing: value).prefix(300))")
        }
        lines.append("Save the crash file under Tests/StringsFormatTests/Fixtures/fuzz/ and report it.")
        FileHandle.standardError.write(Data((lines.joined(separator: "\n") + "\n").utf8))
    }
}
