import Foundation

/// One file of a benchmark input.
struct InputFile: Sendable {
    /// The path shown in mismatch reports (relative to the corpus, or a made-up name).
    var path: String
    var bytes: Data
}

/// One benchmark input: files parsed one by one, in one encoding.
struct ParseInput: Sendable {
    /// What the bytes are, e.g. `element-ios` or `generated 100k`.
    var name: String
    /// `UTF-8` or `UTF-16LE+BOM`.
    var encoding: String
    var files: [InputFile]

    /// A file-name-safe identifier such as `element-ios-utf8`.
    var identifier: String {
        let text = "\(name)-\(encoding)".lowercased()
        return String(text.map { $0.isLetter || $0.isNumber ? $0 : "-" })
    }

    var isUTF8: Bool { encoding == ParseInput.utf8 }
    var totalBytes: Int { files.reduce(0) { $0 + $1.bytes.count } }

    static let utf8 = "UTF-8"
    static let utf16 = "UTF-16LE+BOM"

    /// The same text transcoded to UTF-16LE with a byte order mark.
    func transcodedToUTF16() -> ParseInput {
        ParseInput(name: name, encoding: ParseInput.utf16, files: files.map {
            InputFile(path: $0.path, bytes: Transcode.utf16LittleEndianWithBOM($0.bytes))
        })
    }
}

/// Finds and loads the inputs of the parse benchmark.
enum ParseInputs {
    /// The corpus folder: `--corpus`, else `$HOTSTRINGS_CORPUS`, else `../shared/corpus` beside the package
    /// (found from this source file's path, then from the current directory).
    static func corpusDirectory(option: String?) -> String? {
        if let option { return option }
        if let environment = ProcessInfo.processInfo.environment["HOTSTRINGS_CORPUS"], !environment.isEmpty {
            return environment
        }
        let packageRoot = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let candidates = [
            packageRoot.appendingPathComponent("../shared/corpus").standardized.path,
            URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
                .appendingPathComponent("../shared/corpus").standardized.path,
        ]
        return candidates.first { FileManager.default.fileExists(atPath: $0) } ?? candidates.first
    }

    /// Every `.strings` file under `corpus/element-ios`, sorted by path; nil (with a message) when absent.
    static func elementCorpus(in corpus: String?) throws -> ParseInput? {
        guard let corpus else { return nil }
        let root = URL(fileURLWithPath: corpus).appendingPathComponent("element-ios").path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory), isDirectory.boolValue else {
            printError("note: skipping the element-ios input: \(root) does not exist "
                + "(pass --corpus DIR or set HOTSTRINGS_CORPUS)")
            return nil
        }
        guard let enumerator = FileManager.default.enumerator(atPath: root) else { return nil }
        var paths: [String] = []
        for case let relative as String in enumerator where relative.hasSuffix(".strings") {
            paths.append(relative)
        }
        paths.sort()
        guard !paths.isEmpty else {
            printError("note: skipping the element-ios input: no .strings files under \(root)")
            return nil
        }
        let files = try paths.map { relative in
            InputFile(path: "element-ios/" + relative,
                      bytes: try Data(contentsOf: URL(fileURLWithPath: root).appendingPathComponent(relative)))
        }
        return ParseInput(name: "element-ios", encoding: ParseInput.utf8, files: files)
    }

    /// The generated 100k-entry table as one UTF-8 file.
    static func generated(entries: Int) -> ParseInput {
        let text = GeneratedStrings.make(entries: entries)
        let name = entries % 1000 == 0 ? "generated \(entries / 1000)k" : "generated \(entries)"
        return ParseInput(name: name, encoding: ParseInput.utf8,
                          files: [InputFile(path: "generated.strings", bytes: Data(text.utf8))])
    }
}

/// Byte-level transcoding for the UTF-16 inputs.
enum Transcode {
    /// Re-encodes UTF-8 bytes (a leading UTF-8 BOM dropped) as UTF-16LE after an `FF FE` byte order mark;
    /// bytes that already start with a UTF-16 byte order mark are returned unchanged.
    static func utf16LittleEndianWithBOM(_ utf8: Data) -> Data {
        if utf8.starts(with: [0xFF, 0xFE]) || utf8.starts(with: [0xFE, 0xFF]) { return utf8 }
        let body = utf8.starts(with: [0xEF, 0xBB, 0xBF]) ? utf8.dropFirst(3) : utf8[...]
        let text = String(decoding: body, as: UTF8.self)
        var bytes: [UInt8] = [0xFF, 0xFE]
        bytes.reserveCapacity(2 + 2 * text.utf16.count)
        for unit in text.utf16 {
            bytes.append(UInt8(truncatingIfNeeded: unit))
            bytes.append(UInt8(truncatingIfNeeded: unit >> 8))
        }
        return Data(bytes)
    }
}
