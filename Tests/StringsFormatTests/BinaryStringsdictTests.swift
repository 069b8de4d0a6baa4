import Foundation
import Testing
@testable import StringsFormat

/// Binary `.stringsdict` files (`bplist00`, as Xcode ships them in built products): read to the same structure
/// as their XML, and bad input is an error in linear time.
@Suite struct BinaryStringsdictTests {
    /// `object` written by Foundation as a binary property list.
    static func foundationBinary(_ xml: [UInt8]) throws -> [UInt8] {
        let object = try PropertyListSerialization.propertyList(from: Data(xml), options: [], format: nil)
        return Array(try PropertyListSerialization.data(fromPropertyList: object, format: .binary, options: 0))
    }

    @Test func everyCorpusStringsdictReadsInBinaryAsInXML() throws {
        let files = try XMLPropertyListTests.stringsdictFiles()
        #expect(files.count >= 40)
        for file in files {
            let xml = try Array(Data(contentsOf: file))
            let binary = try Self.foundationBinary(xml)
            #expect(binary.starts(with: Array("bplist00".utf8)))
            #expect(try StringsdictFile.propertyList(binary) == XMLPropertyList.parse(xml), "\(file.path)")
            #expect(try StringsdictFile.parse(binary) == StringsdictFile.parse(xml), "\(file.path)")
        }
    }

    @Test(arguments: XMLPropertyListTests.entries)
    func everyTypeMatchesFoundation(entry: String) throws {
        let xml = Array((XMLPropertyListTests.header + entry + "\n</dict>\n</plist>\n").utf8)
        let binary = try Self.foundationBinary(xml)
        let theirs = try #require(XMLPropertyListTests.foundation(binary), "Foundation rejects its own \(entry)")
        #expect(try StringsdictFile.propertyList(binary) == theirs)
    }

    private static func expectError(_ bytes: [UInt8], _ reason: String) {
        #expect {
            try StringsdictFile.propertyList(bytes)
        } throws: { error in
            guard let error = error as? ParseError else { return false }
            return error.reason.contains(reason) && error.reason.hasPrefix("binary property list:")
        }
    }

    @Test func aDictionaryThatContainsItselfIsAnError() {
        // {"a": <itself>}
        Self.expectError(PlistBuilder(objects: [[0xD1, 1, 0], [0x51, 0x61]]).bytes(), "nesting deeper than 512")
    }

    @Test func sharedObjectsThatExpandExponentiallyAreAnError() {
        // Object i is {"a": i + 1, "b": i + 1}: 2^40 leaves from 43 objects.
        var objects: [[UInt8]] = [[0x51, 0x61], [0x51, 0x62]]
        for level in 0..<40 {
            let child = UInt8(level == 39 ? 0 : 3 + level)
            objects.append([0xD2, 0, 1, child, child])
        }
        var builder = PlistBuilder(objects: objects)
        builder.top = 2
        Self.expectError(builder.bytes(), "shared objects expand to more than 16 objects per input byte")
    }

    @Test(arguments: [
        ([UInt8]([0x14]) + [UInt8](repeating: 1, count: 16), "16-byte integer is not supported"),
        ([0x80, 0x01], "is not supported"), ([0x00], "is not supported"), ([0x13, 0, 0], "truncated 8-byte integer"),
        ([0x4F, 0x10, 0x7F, 0xAA], "data of 127 bytes runs past the object data"),
        ([0xD1, 0x03, 0x01], "key 0 is an integer, not a string"),
    ])
    func badObjectsAreErrors(object: [UInt8], reason: String) {
        // {"a": object}, with the object's own references (if any) pointing at "a" and at itself.
        Self.expectError(PlistBuilder(objects: [[0xD1, 1, 2], [0x51, 0x61], object, [0x10, 0x01]]).bytes(), reason)
    }

    @Test func aKeyWrittenTwiceInANestedDictionaryIsAnError() {
        // {"a": {"a": "a", "a": "a"}}
        Self.expectError(PlistBuilder(objects: [[0xD1, 1, 2], [0x51, 0x61], [0xD2, 1, 1, 1, 1]]).bytes(),
                         "key 'a' appears twice")
    }

    @Test func aBinaryStringsdictIsReadAsEntries() throws {
        let xml = XMLPropertyListTests.header + """
            <key>files</key><dict><key>NSStringLocalizedFormatKey</key><string>%#@n@</string>
            <key>n</key><dict><key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>
            <key>NSStringFormatValueTypeKey</key><string>d</string>
            <key>one</key><string>%d file</string><key>other</key><string>%d files</string></dict></dict>
            </dict></plist>
            """
        let table = try StringsdictFile.parse(Self.foundationBinary(Array(xml.utf8)))
        let entry = try #require(table["files"])
        #expect(try StringsdictFormatter().format(entry, language: "en", arguments: [.int(1)]) == "1 file")
        #expect(try StringsdictFormatter().format(entry, language: "en", arguments: [.int(3)]) == "3 files")
    }
}
