import Foundation
import Testing
@testable import StringsFormat

/// XML property lists against Foundation's `PropertyListSerialization`, and bad input.
@Suite struct XMLPropertyListTests {
    /// Every `.stringsdict` of the shared corpus.
    static func stringsdictFiles() throws -> [URL] {
        guard let root = CorpusConformanceTests.corpusRoot,
              let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else {
            try Test.cancel("the shared corpus folder is absent")
        }
        return enumerator.compactMap { $0 as? URL }.filter { $0.pathExtension == "stringsdict" }
            .sorted { $0.path < $1.path }
    }

    /// Foundation's object as our value; `nil` for a type a property list cannot hold.
    static func value(ofFoundation object: Any) -> PropertyListValue? {
        switch object {
        case let string as String: return .string(string)
        case let dictionary as [String: Any]:
            var entries: [String: PropertyListValue] = [:]
            for (key, element) in dictionary {
                guard let value = value(ofFoundation: element) else { return nil }
                entries[key] = value
            }
            return .dictionary(entries)
        case let array as [Any]:
            let values = array.compactMap { value(ofFoundation: $0) }
            return values.count == array.count ? .array(values) : nil
        case let date as Date: return .date(date.timeIntervalSinceReferenceDate)
        case let data as Data: return .data(Array(data))
        case let number as NSNumber:
            switch String(cString: number.objCType) {
            case "c", "B": return .boolean(number.boolValue)
            case "f", "d": return .real(number.doubleValue)
            default: return .integer(number.int64Value)
            }
        default: return nil
        }
    }

    static func foundation(_ bytes: [UInt8]) -> PropertyListValue? {
        guard let object = try? PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil)
        else { return nil }
        return value(ofFoundation: object)
    }

    @Test func everyCorpusStringsdictMatchesFoundation() throws {
        let files = try Self.stringsdictFiles()
        #expect(files.count >= 40)
        for file in files {
            let bytes = try Array(Data(contentsOf: file))
            #expect(XMLPropertyList.isXMLPropertyList(bytes))
            let ours = try XMLPropertyList.parse(bytes)
            let theirs = try #require(Self.foundation(bytes), "Foundation rejects \(file.path)")
            #expect(ours == theirs, "\(file.path)")
        }
    }

    static let header = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <!-- a comment -->
        <dict>

        """

    /// Dictionary entries of every type; each is checked alone so that a divergence names its construct.
    static let entries = [
        "<key>string</key><string>a &amp; b &lt;c&gt; &quot;d&quot; &apos;e&apos; é</string>",
        "<key>numeric</key><string>&#233; &#x1F600;</string>",
        "<key>cdata</key><string><![CDATA[<raw & text>]]></string>",
        "<key>empty</key><string/>",
        "<key>emptyText</key><string></string>",
        "<key>spaces</key><string>  kept  </string>",
        "<key>integers</key><array><integer>42</integer><integer>-7</integer></array>",
        "<key>limits</key><array><integer>9223372036854775807</integer><integer>-9223372036854775808</integer></array>",
        "<key>reals</key><array><real>1.5</real><real>-0.25</real><real>3</real><real>1e10</real></array>",
        "<key>booleans</key><array><true/><false/></array>",
        "<key>date</key><date>2024-02-29T12:34:56Z</date>",
        "<key>oldDate</key><date>1969-07-20T20:17:40Z</date>",
        "<key>data</key><data>SGVsbG8s\n    IHdvcmxk</data>",
        "<key>emptyData</key><data></data>",
        "<key>nested</key><dict><key>deeper</key><array><dict/><array/></array></dict>",
        "<key>duplicate</key><string>first</string><key>duplicate</key><string>second</string>",
        "<key></key><string>empty key</string>",
    ]

    @Test(arguments: entries)
    func everyTypeMatchesFoundation(entry: String) throws {
        let bytes = Array((Self.header + entry + "\n</dict>\n</plist>\n").utf8)
        let ours = try XMLPropertyList.parse(bytes)
        let theirs = try #require(Self.foundation(bytes), "Foundation rejects \(entry)")
        #expect(ours == theirs)
    }

    @Test func dataAndDuplicateKeysReadAsFoundationReadsThem() throws {
        let text = Self.header + Self.entries.joined(separator: "\n") + "</dict></plist>"
        let ours = try XMLPropertyList.parse(Array(text.utf8))
        #expect(ours.dictionaryValue?["data"] == .data(Array("Hello, world".utf8)))
        #expect(ours.dictionaryValue?["duplicate"] == .string("second"))
        #expect(ours.dictionaryValue?["numeric"] == .string("é 😀"))
    }

    @Test(arguments: [
        "<plist><string>bare</string></plist>", "<string>no plist wrapper</string>", "<plist><array/></plist>",
        "\u{FEFF}<plist><string>bom</string></plist>", "<plist>\r\n<string>a\r\nb</string>\r\n</plist>",
        "<?xml version=\"1.0\"?><plist version=\"1.0\"><dict><key>k</key><true></true></dict></plist>",
        // The tags read with one eight-byte load, written otherwise, and at the very end of the input.
        "<plist><dict ><key a=\"1\">k</key><true /><key>l</key><false/><key>m</key><dict/></dict ></plist>",
        "<plist><array ><array/><array></array ><string/><real>1.5</real><date>2001-01-01T00:00:00Z</date></array></plist>",
        "<array><true/></array>", "<dict/>", "<true/>",
    ])
    func smallDocumentsMatchFoundation(text: String) throws {
        let bytes = Array(text.utf8)
        #expect(try XMLPropertyList.parse(bytes) == Self.foundation(bytes))
    }

    @Test(arguments: [
        ("<plist><dict><key>a</key></dict></plist>", "key 'a' has no value", 1, 14),
        ("<plist><dict><string>v</string></dict></plist>", "a string where a <key> is expected", 1, 14),
        ("<plist><string>a &nbsp; b</string></plist>", "unknown entity &nbsp;", 1, 18),
        ("<plist>\n  <dict>\n    <key>x</key><foo/>\n</dict></plist>", "unknown element <foo/>", 3, 17),
        ("<plist><array></dict></plist>", "</dict> closes <array>", 1, 15),
        ("<plist><string>é<b></b></string></plist>", "<b> inside <string>", 1, 17),
        ("<plist><integer>12x</integer></plist>", "'12x' is not a 64-bit integer", 1, 17),
        ("<plist><integer>9223372036854775808</integer></plist>", "is not a 64-bit integer", 1, 17),
        ("<plist><integer> 12 </integer></plist>", "' 12 ' is not a 64-bit integer", 1, 17),
        ("<plist><real>abc</real></plist>", "'abc' is not a number", 1, 14),
        ("<plist><date>yesterday</date></plist>", "is not YYYY-MM-DDTHH:MM:SSZ", 1, 14),
        ("<plist><data>#!</data></plist>", "is not Base64", 1, 14),
        ("<plist><string>&#0;</string></plist>", "&#0; is not a Unicode scalar", 1, 16),
        ("<plist><string>&#xD800;</string></plist>", "is not a Unicode scalar", 1, 16),
        ("<plist><string>a & b</string></plist>", "'&' that does not start a reference", 1, 18),
        ("<plist><string>x</string></plist>trailing", "unexpected text after the end", 1, 34),
        ("", "empty property list", 1, 1),
        ("<plist/>", "empty <plist/>", 1, 1),
        ("<plist><string>x</string><string>y</string></plist>", "expected </plist>", 1, 26),
        ("<plist><dict>", "the input ends inside <dict>", 1, 14),
        ("<plist><string>unterminated", "the input ends inside <string>", 1, 16),
        ("<plist><!-- open", "unterminated comment", 1, 8),
        ("<plist><key>k</key></plist>", "<key> outside a <dict>", 1, 8),
        ("<plist><dict><key>k</key><strings>v</strings></dict></plist>", "unknown element <strings>", 1, 26),
        ("<plist><keys>k</keys></plist>", "unknown element <keys>", 1, 8),
        ("<plist><dict><key>k</key><true/></dicts></plist>", "</dicts> closes <dict>", 1, 33),
    ])
    func badInputIsAnErrorAtItsPlace(text: String, reason: String, line: Int, column: Int) {
        do {
            let value = try XMLPropertyList.parse(Array(text.utf8))
            Issue.record("parsed \(value) from \(text)")
        } catch {
            #expect(error.reason.contains(reason), "\(error.reason)")
            #expect(error.line == line && error.column == column, "\(error)")
        }
    }

    @Test func anEntityBombInADTDIsRefusedUnexpanded() {
        let bomb = """
            <?xml version="1.0"?>
            <!DOCTYPE plist [
              <!ENTITY a "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa">
              <!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">
              <!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">
            ]>
            <plist><string>&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;</string></plist>
            """
        #expect {
            try XMLPropertyList.parse(Array(bomb.utf8))
        } throws: { error in
            let error = error as? ParseError
            return error?.reason.contains("DTD internal subset") == true && error?.line == 2 && error?.column == 17
        }
        let undeclared = "<plist><string>&c;</string></plist>"
        #expect(throws: ParseError.self) { try XMLPropertyList.parse(Array(undeclared.utf8)) }
    }

    @Test func tenThousandNestedArraysAreAnErrorNotAStackOverflow() {
        let depth = 10_000
        let text = "<plist>" + String(repeating: "<array>", count: depth) + String(repeating: "</array>", count: depth)
            + "</plist>"
        #expect {
            try XMLPropertyList.parse(Array(text.utf8))
        } throws: { error in
            (error as? ParseError)?.reason.contains("nesting deeper than 512") == true
        }
        let allowed = XMLPropertyList.maximumDepth
        let deep = String(repeating: "<array>", count: allowed) + String(repeating: "</array>", count: allowed)
        #expect(throws: Never.self) { try XMLPropertyList.parse(Array(deep.utf8)) }
    }

    @Test func sixteenMebibytesOfGarbageAreAnError() {
        var generator = SystemRandomNumberGenerator()
        let garbage = (0..<(16 << 20)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        #expect(throws: ParseError.self) { try XMLPropertyList.parse(garbage) }
        let ascii = [UInt8](repeating: UInt8(ascii: "<"), count: 16 << 20)
        #expect(throws: ParseError.self) { try XMLPropertyList.parse(ascii) }
        let text = Array("<plist><string>".utf8) + [UInt8](repeating: UInt8(ascii: "&"), count: 16 << 20)
        #expect(throws: ParseError.self) { try XMLPropertyList.parse(text) }
    }

    @Test func everyTruncationOfACorpusFileIsAnErrorNeverACrash() throws {
        let file = try #require(try Self.stringsdictFiles().first { $0.path.contains("/en.lproj/") })
        let bytes = try Array(Data(contentsOf: file))
        for length in stride(from: 0, to: bytes.count - 1, by: max(1, bytes.count / 500)) {
            let prefix = Array(bytes[..<length])
            #expect(throws: ParseError.self, "prefix of \(length) bytes") { try XMLPropertyList.parse(prefix) }
        }
    }
}
