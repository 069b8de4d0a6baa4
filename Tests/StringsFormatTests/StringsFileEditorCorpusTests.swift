import Foundation
import HotStringsTestSupport
import HotStringsTestTraits
import Testing
@testable import StringsFormat

/// Every `.strings` file of the shared corpus, edited: three keys set to hard values, one removed, one added.
/// Only the value's bytes change, and our parser and Foundation's read the expected table.
@Suite struct StringsFileEditorCorpusTests {
    @Test(.needsCorpus)
    func everyCorpusFileKeepsEveryOtherByte() throws {
        let files = CorpusConformanceTests.stringsFiles()
        #expect(files.count > 100)
        var generator = SplitMix64(seed: 22)
        var failures: [String] = []
        var edits = 0
        for file in files {
            let bytes = Array(try Data(contentsOf: file))
            let name = file.lastPathComponent
            guard let table = try? StringsFile.parse(bytes) else { continue }
            if table.encoding == .binaryPropertyList {
                if (try? StringsFileEditor.setting("k", to: "v", in: bytes)) != nil {
                    failures.append("\(file.path): edited a binary property list")
                }
                continue
            }
            let old = table.dictionary
            var current = bytes
            var expected = old
            let keys = table.keys
            for _ in 0..<(keys.isEmpty ? 0 : 3) {
                let key = keys.randomElement(using: &generator)!
                let value = StringsFileEditorTests.hardValues.randomElement(using: &generator)!
                let edited = try StringsFileEditor.setting(key, to: value, in: current)
                expected[key] = value
                if let problem = Self.spliceProblem(before: current, after: edited, key: key, value: value) {
                    failures.append("\(file.path) \(key): \(problem)")
                }
                current = edited
                edits += 1
            }
            failures += Self.problems(current, expected: expected, file: "\(name) after sets", encoding: table.encoding)
            if let key = keys.randomElement(using: &generator) {
                let removed = try StringsFileEditor.removing(key, in: current)
                var afterRemoval = expected
                afterRemoval[key] = nil
                failures += Self.problems(removed, expected: afterRemoval, file: "\(file.path) removing \(key)",
                                          encoding: table.encoding)
                let kept = try StringsFile.parse(removed).entries.map { [$0.key, $0.value, $0.comment ?? "-"] }
                let before = try StringsFile.parse(current).entries.filter { $0.key != key }
                    .map { [$0.key, $0.value, $0.comment ?? "-"] }
                if kept != before { failures.append("\(file.path) removing \(key): other entries changed") }
            }
            let added = try StringsFileEditor.setting("hotstrings.new", to: "Ново 🎉 %1$@", comment: "Added by a test",
                                                      in: current)
            // Appending keeps the whole old file as a prefix in every encoding (no braced tables in the corpus).
            if !added.starts(with: current) { failures.append("\(file.path): adding changed the old bytes") }
            failures += Self.problems(added, expected: expected.merging(["hotstrings.new": "Ново 🎉 %1$@"]) { $1 },
                                      file: "\(file.path) adding", encoding: table.encoding)
        }
        print("strings editor corpus: \(edits) values set in \(files.count) files")
        #expect(edits > 1000)
        #expect(failures.isEmpty, "\(failures.count) failures:\n\(failures.prefix(20).joined(separator: "\n"))")
    }

    /// Why `after` is not `before` with the value of `key`'s served entry replaced by `value` quoted, or `nil`.
    static func spliceProblem(before: [UInt8], after: [UInt8], key: String, value: String) -> String? {
        guard let old = try? EditableStringsText(before), let new = try? EditableStringsText(after) else {
            return "does not read back"
        }
        guard old.encoding == new.encoding else { return "encoding \(old.encoding) became \(new.encoding)" }
        guard let span = old.spans.last(where: { $0.key == key }) else { return "key not found" }
        // Independent of the spans: the bytes that differ must lie inside the old value's quotes.
        let prefix = zip(old.text, new.text).prefix { $0 == $1 }.count
        let suffix = zip(old.text.reversed(), new.text.reversed()).prefix { $0 == $1 }.count
        let range = span.value ?? span.keyEnd..<span.keyEnd
        if prefix < range.lowerBound || old.text.count - suffix > range.upperBound {
            return "bytes outside the value changed (\(prefix)..<\(old.text.count - suffix) vs \(range))"
        }
        return nil
    }

    /// Our parse and Foundation's of `bytes` must both be `expected`, in the old encoding.
    static func problems(
        _ bytes: [UInt8], expected: [String: String], file: String, encoding: StringsEncoding
    ) -> [String] {
        var problems: [String] = []
        do {
            let ours = try StringsFile.parse(bytes)
            if ours.dictionary != expected { problems.append("\(file): our parse differs") }
            if ours.encoding != encoding { problems.append("\(file): \(encoding) became \(ours.encoding)") }
        } catch {
            problems.append("\(file): we cannot read the result: \(error)")
        }
        guard !expected.isEmpty else { return problems }
        let foundation = try? PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil)
        if foundation as? [String: String] != expected {
            let differing = (foundation as? [String: String]).map { dictionary in
                Array(expected.filter { dictionary[$0.key] != $0.value }.keys.prefix(3))
            }
            problems.append("\(file): Foundation reads it differently (\(differing ?? ["not a table"]))")
        }
        return problems
    }
}
