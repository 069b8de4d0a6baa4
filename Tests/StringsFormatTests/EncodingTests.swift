import Foundation
import Testing
@testable import StringsFormat

@Suite struct EncodingTests {
    static let source = "/* Greeting */\n\"greeting\" = \"Grüß dich 👋\";\n\"中文\" = \"\\U00e9\";\n"
    static let expected = ["greeting": "Grüß dich 👋", "中文": "é"]

    static let encodings: [(name: String, bytes: [UInt8], encoding: StringsEncoding, foundationReads: Bool)] = [
        ("UTF-8", Array(source.utf8), .utf8, true),
        ("UTF-8 with BOM", [0xEF, 0xBB, 0xBF] + Array(source.utf8), .utf8WithBOM, true),
        ("UTF-16LE with BOM", [0xFF, 0xFE] + utf16LE(source), .utf16LittleEndianWithBOM, true),
        ("UTF-16BE with BOM", [0xFE, 0xFF] + utf16BE(source), .utf16BigEndianWithBOM, true),
        // Foundation on Linux cannot read UTF-16 without a BOM in either byte order; we detect it.
        ("UTF-16LE without BOM", utf16LE(source), .utf16LittleEndian, false),
        ("UTF-16BE without BOM", utf16BE(source), .utf16BigEndian, false),
    ]

    @Test(arguments: encodings)
    func readsEveryEncoding(_ example: (name: String, bytes: [UInt8], encoding: StringsEncoding, foundationReads: Bool))
        throws {
        let table = try StringsFile.parse(example.bytes)
        #expect(table.dictionary == Self.expected)
        #expect(table.encoding == example.encoding)
        #expect(table.entry(forKey: "greeting")?.comment == "Greeting")
        #expect(table.entry(forKey: "中文")?.location == SourceLocation(line: 3, column: 1))
        let foundation = try? PropertyListSerialization.propertyList(from: Data(example.bytes), options: [], format: nil)
        if example.foundationReads {
            #expect(foundation as? [String: String] == Self.expected)
        } else {
            #expect(foundation == nil, "Foundation now reads BOM-less UTF-16: update docs/FORMAT.md")
        }
    }

    @Test func genstringsOutputInTheCorpusIsUTF16() throws {
        guard let root = CorpusConformanceTests.corpusRoot else { return }
        let file = root.appendingPathComponent("simplenote-ios/Simplenote/en.lproj/Localizable.strings")
        let table = try StringsFile.parse(Array(try Data(contentsOf: file)))
        #expect(table.encoding == .utf16LittleEndianWithBOM)
        #expect(table.count > 100)
    }

    @Test func utf16BOMWithOnlyAComment() throws {
        let table = try StringsFile.parse([0xFF, 0xFE] + utf16LE("/* No strings yet */\n"))
        #expect(table.isEmpty)
    }

    @Test func utf16ErrorsReportLinesOfTheText() {
        #expect {
            try StringsFile.parse([0xFF, 0xFE] + utf16LE("a = b;\nc = d\n"))
        } throws: { error in
            let error = error as? ParseError
            return error?.line == 3 && error?.column == 1 && error?.reason.contains("missing ';'") == true
        }
    }
}
