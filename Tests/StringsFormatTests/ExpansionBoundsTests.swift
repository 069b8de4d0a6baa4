import Foundation
import Testing
@testable import StringsFormat

/// Variables that nest or expand without bound are parse errors naming their key (issue 20, finding 2): eight
/// `%#@a@` in `a`'s `other` made one `get` return 84 MB.
@Suite struct ExpansionBoundsTests {
    static func fixture(_ name: String) throws -> [UInt8] {
        let url = try #require(Bundle.module.url(forResource: "Fixtures/expansion/\(name)", withExtension: nil))
        return Array(try Data(contentsOf: url))
    }

    static let header = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n<plist version=\"1.0\">\n<dict>\n"

    /// A `.stringsdict` with one entry `key` whose format is `format` and whose plural variables have an `other`.
    static func stringsdict(format: String, _ variables: [(String, String)], key: String = "k") -> String {
        var text = header + "<key>\(key)</key>\n<dict>\n"
            + "<key>NSStringLocalizedFormatKey</key><string>\(format)</string>\n"
        for (name, other) in variables {
            text += "<key>\(name)</key><dict><key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType"
                + "</string><key>other</key><string>\(other)</string></dict>\n"
        }
        return text + "</dict>\n</dict>\n</plist>\n"
    }

    @Test func theStringsdictBombIsAParseErrorAtItsKey() throws {
        let error = try #require(throws: ParseError.self) {
            try StringsdictFile.parse(try Self.fixture("plural-bomb.stringsdict"))
        }
        #expect(error.reason == "entry 'bomb': variable 'a' nests more than 8 deep (does it refer to itself?)")
        #expect(error.line == 4 && error.column == 3)
    }

    @Test func theCatalogBombIsAParseErrorAtItsKeyAndLanguage() throws {
        let error = try #require(throws: ParseError.self) {
            try StringCatalog.parse(try Self.fixture("catalog-bomb.xcstrings"))
        }
        #expect(error.reason.hasPrefix("key 'bomb', language 'en': variable 'a' nests more than 8 deep"), "\(error)")
        #expect(error.line == 1)
    }

    @Test func eightLevelsParseAndNineDoNot() throws {
        func chain(_ levels: Int) -> String {
            let variables = (1...levels).map { ("v\($0)", $0 == levels ? "%d end" : "(%#@v\($0 + 1)@)") }
            return Self.stringsdict(format: "%#@v1@", variables)
        }
        let table = try StringsdictFile.parse(text: chain(8))
        #expect(table["k"]?.plainText == "(((((((%d end)))))))")
        let formatted = try StringsdictFormatter().format(try #require(table["k"]), language: "en",
                                                          arguments: Array(repeating: .int(3), count: 8))
        #expect(formatted == "(((((((3 end)))))))")
        let error = try #require(throws: ParseError.self) { try StringsdictFile.parse(text: chain(9)) }
        #expect(error.reason == "entry 'k': variable 'v9' nests more than 8 deep (does it refer to itself?)")
    }

    @Test func aVariableThatReachesTheLimitThroughAnotherPathIsStillTooDeep() throws {
        // `v1` is measured first from the format at level 1 (depth 7 below it), then met again at level 2.
        var variables = (1...7).map { ("v\($0)", "%#@v\($0 + 1)@") } + [("v8", "x")]
        variables.append(("w", "%#@v1@"))
        let error = try #require(throws: ParseError.self) {
            try StringsdictFile.parse(text: Self.stringsdict(format: "%#@v1@ %#@w@", variables))
        }
        #expect(error.reason.contains("nests more than 8 deep"), "\(error)")
    }

    @Test func theWorstCaseSizeIsBoundedWithoutExpanding() throws {
        let large = String(repeating: "x", count: 10_000)
        // 6 × 10,000 bytes fits in 64 KiB; 7 × does not, whichever form a formatter would pick.
        let fits = Self.stringsdict(format: String(repeating: "%1$#@a@", count: 6), [("a", large)])
        #expect(try StringsdictFile.parse(text: fits)["k"]?.plainText.utf8.count == 60_000)
        let tooLarge = Self.stringsdict(format: String(repeating: "%1$#@a@", count: 7), [("a", large)])
        let error = try #require(throws: ParseError.self) { try StringsdictFile.parse(text: tooLarge) }
        #expect(error.reason
            == "entry 'k': its variables expand to more than 65536 bytes in the worst case (the limit)")
        // Wide and shallow: 8 references of 8 references of … 5 levels down is 32,768 copies of the leaf.
        let wide = (1...5).map { ("v\($0)", String(repeating: "%1$#@v\($0 + 1)@", count: 8)) } + [("v6", "leaf")]
        #expect(throws: ParseError.self) { try StringsdictFile.parse(text: Self.stringsdict(format: "%#@v1@", wide)) }
    }

    @Test func anEntryMadeInCodeStaysBoundedInPlainTextAndFormatting() throws {
        // Not read from a file, so never checked: the plain text and the formatter bound it on their own.
        let other = String(repeating: "%1$#@a@", count: 8) + "x"
        let bomb = StringsdictEntry(format: "%1$#@a@",
                                    variables: ["a": .plural(valueType: "d", forms: [.other: other])])
        #expect(throws: FormatError.self) { try bomb.checkExpansionBounds() }
        #expect(bomb.plainText.utf8.count < 2 * StringsdictEntry.maximumExpandedSize)
        #expect(throws: FormatError.self) {
            try StringsdictFormatter().format(bomb, language: "en", arguments: [.int(2)])
        }
    }

    @Test func devicesAreCheckedEach() throws {
        let variable = "<key>a</key><dict><key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>"
            + "<key>other</key><string>%#@a@</string></dict>"
        let text = Self.header + "<key>k</key><dict><key>NSStringDeviceSpecificRuleType</key><dict>"
            + "<key>mac</key><string>plain</string><key>iphone</key><dict><key>NSStringLocalizedFormatKey</key>"
            + "<string>%#@a@</string>\(variable)</dict></dict></dict>\n</dict>\n</plist>\n"
        let error = try #require(throws: ParseError.self) { try StringsdictFile.parse(text: text) }
        #expect(error.reason.hasPrefix("entry 'k' device 'iphone': variable 'a' nests"), "\(error)")
    }
}
