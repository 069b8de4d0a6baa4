import Foundation
import HotStringsTestSupport
import HotStringsTestTraits
import Testing
@testable import StringsFormat

/// Every `.strings` file of the shared corpus must parse to exactly what Foundation returns.
@Suite struct CorpusConformanceTests {
    /// The shared corpus (`HotStringsTestSupport.corpusRoot`), as a URL to enumerate.
    static let corpusRoot: URL? = HotStringsTestSupport.corpusRoot.map(URL.init(fileURLWithPath:))

    static func stringsFiles() -> [URL] {
        guard let root = corpusRoot,
              let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { return [] }
        return enumerator.compactMap { $0 as? URL }.filter { $0.pathExtension == "strings" }
            .sorted { $0.path < $1.path }
    }

    @Test(.needsCorpus)
    func everyCorpusFileMatchesFoundation() throws {
        let files = Self.stringsFiles()
        #expect(files.count > 100)
        var compared = 0
        var keys = 0
        var mismatches: [String] = []
        for file in files {
            let data = try Data(contentsOf: file)
            let foundation = try? PropertyListSerialization.propertyList(from: data, options: [], format: nil)
            let ours: StringsTable
            do {
                ours = try StringsFile.parse(Array(data))
            } catch {
                mismatches.append("\(file.path): we failed (\(error)) where Foundation gave \(type(of: foundation))")
                continue
            }
            guard let expected = foundation as? [String: String] else {
                // Foundation refuses empty and BOM-only files; we read them as empty tables (docs/FORMAT.md).
                if !ours.isEmpty { mismatches.append("\(file.path): Foundation failed, we read \(ours.count) keys") }
                continue
            }
            if ours.dictionary != expected {
                let differing = Set(expected.keys).symmetricDifference(ours.dictionary.keys).prefix(3)
                mismatches.append("\(file.path): dictionaries differ (e.g. \(Array(differing)))")
            }
            compared += 1
            keys += expected.count
        }
        print("corpus conformance: compared \(compared) of \(files.count) files, \(keys) keys, against Foundation")
        #expect(mismatches.isEmpty, "\(mismatches.count) mismatches:\n\(mismatches.prefix(20).joined(separator: "\n"))")
    }
}
