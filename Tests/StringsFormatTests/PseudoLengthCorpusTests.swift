import HotStringsTestTraits
import Testing
@testable import StringsFormat

/// en-XA makes every text of the shared corpus at least 30 % longer than its source (issue 22's "at least 30 %
/// longer"), counting characters as a person reads them: specifiers, markup and spaces included.
@Suite struct PseudoLengthCorpusTests {
    @Test(.needsCorpus)
    func everyAccentedTextIsAtLeastThirtyPercentLonger() throws {
        var texts = 0
        var short: [String] = []
        for (name, content) in try PseudoLocalizerCorpusTests.tables() {
            for (key, value) in content.entries {
                let sources: [String]
                switch value {
                case .string(let text): sources = [text]
                case .rule(let entry): sources = PseudoLocalizerCorpusTests.texts(of: entry)
                }
                for source in sources {
                    let accented = PseudoLocalizer.accented.transform(source)
                    // Kept as they are: a text without letters, and one ending inside a specifier (not padded).
                    guard accented != source, !PseudoText(source).endsOpen else { continue }
                    texts += 1
                    if 10 * accented.count < 13 * source.count {
                        let lengths = "\(source.count) → \(accented.count)"
                        short.append("\(name) \(key): \(lengths): \(accented.debugDescription)")
                    }
                }
            }
        }
        print("en-XA: \(texts) texts, \(short.count) shorter than 1.3 × their source")
        #expect(texts > 50_000)
        #expect(short.isEmpty, "\(short.count) short:\n\(short.prefix(20).joined(separator: "\n"))")
    }
}
