import Foundation
import HotStringsTestSupport
import Testing

@testable import StringsFormat

/// Builds a binary property list by hand, so tests can write what Foundation never would.
struct PlistBuilder {
    var objects: [[UInt8]]
    var top: UInt64 = 0
    var offsetSize = 1
    var referenceSize = 1
    var header = Array("bplist00".utf8)

    /// Offsets of the objects, the offset table and the trailer in `bytes()`.
    var objectOffsets: [Int] {
        var offsets: [Int] = []
        var position = header.count
        for object in objects {
            offsets.append(position)
            position += object.count
        }
        return offsets
    }

    func bytes() -> [UInt8] {
        var bytes = header
        for object in objects { bytes += object }
        let offsetTable = bytes.count
        for offset in objectOffsets { bytes += bigEndian(UInt64(offset), size: offsetSize) }
        bytes += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(referenceSize)]
        bytes += bigEndian(UInt64(objects.count), size: 8) + bigEndian(top, size: 8)
        bytes += bigEndian(UInt64(offsetTable), size: 8)
        return bytes
    }
}

private func bigEndian(_ value: UInt64, size: Int) -> [UInt8] {
    (0..<size).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
}

/// `bytes` with `replacement` written at `offset` (negative offsets count from the end).
private func patched(_ bytes: [UInt8], at offset: Int, _ replacement: [UInt8]) -> [UInt8] {
    var result = bytes
    let start = offset < 0 ? bytes.count + offset : offset
    result.replaceSubrange(start..<(start + replacement.count), with: replacement)
    return result
}

private func foundationPlist(_ dictionary: [String: String]) throws -> [UInt8] {
    Array(try PropertyListSerialization.data(fromPropertyList: dictionary, format: .binary, options: 0))
}

/// What Foundation (CoreFoundation's reader) makes of `bytes`, when it is a dictionary of strings.
private func foundationDictionary(_ bytes: [UInt8]) -> [String: String]? {
    let plist = try? PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil)
    return plist as? [String: String]
}

private func parseError(_ bytes: [UInt8]) -> ParseError? {
    let result = bytes.withUnsafeBytes { buffer in
        Result { () throws(ParseError) in try BinaryPropertyList.parseStringsTable(buffer) }
    }
    if case .failure(let error) = result { return error }
    return nil
}

/// The invariants of every binary error: line 1, column 1, the offset in range and in the reason.
private func expectWellFormed(_ error: ParseError, in bytes: [UInt8]) {
    #expect(error.line == 1 && error.column == 1)
    #expect((0...bytes.count).contains(error.byteOffset))
    #expect(error.reason.hasPrefix("binary property list: "))
    #expect(error.reason.hasSuffix(" at byte offset \(error.byteOffset)"), "\(error.reason)")
}

// MARK: - Round trips through Foundation's writer

struct BinaryPlistRoundTrip: Sendable, CustomTestStringConvertible {
    var testDescription: String
    var dictionary: [String: String]

    init(_ name: String, _ dictionary: [String: String]) {
        self.testDescription = name
        self.dictionary = dictionary
    }
}

private let manyKeys = Dictionary(uniqueKeysWithValues: (0..<300).map { ("key \($0)", "value \($0)") })
private let hugeKeys = Dictionary(uniqueKeysWithValues: (0..<40_000).map { ("k\($0)", "v\($0) é") })
private let sharedValues = Dictionary(uniqueKeysWithValues: (0..<100).map { ("k\($0)", "same") })

@Suite("BinaryPropertyList")
struct BinaryPropertyListTests {
    @Test(arguments: [
        BinaryPlistRoundTrip("empty", [:]),
        BinaryPlistRoundTrip("ASCII", ["greeting": "Hello", "farewell": "Goodbye, %@!"]),
        BinaryPlistRoundTrip("non-ASCII", ["café": "Crème brûlée", "日本語": "にほんご", "Ελληνικά": "ελληνικά"]),
        BinaryPlistRoundTrip("emoji", ["👋": "🌍🚀", "flag": "🇨🇭", "family": "👨‍👩‍👧‍👦 ok"]),
        BinaryPlistRoundTrip("empty strings", ["": "empty key", "empty value": ""]),
        BinaryPlistRoundTrip("controls", ["tab\tnew\nline": "nul\u{0}quote\"back\\slash", "\u{FEFF}": "\r\n"]),
        BinaryPlistRoundTrip("long", [
            "ASCII": String(repeating: "x", count: 70_000), "UTF-16": String(repeating: "é", count: 70_000),
            "sixteen chars!!!": "fifteen chars!!",
        ]),
        BinaryPlistRoundTrip("shared values", sharedValues),
        BinaryPlistRoundTrip("key equals value", ["OK": "OK", "Cancel": "Cancel"]),
        BinaryPlistRoundTrip("300 keys", manyKeys),
        BinaryPlistRoundTrip("40000 keys", hugeKeys),
    ])
    func roundTrip(_ example: BinaryPlistRoundTrip) throws {
        let bytes = try foundationPlist(example.dictionary)
        #expect(bytes.withUnsafeBytes { BinaryPropertyList.isBinaryPropertyList($0) })
        let table = try StringsFile.parse(bytes)
        #expect(table.encoding == .binaryPropertyList)
        #expect(table.dictionary == example.dictionary)
        #expect(table.count == example.dictionary.count)
        #expect(table.duplicates.isEmpty)
        #expect(table.entries.allSatisfy { $0.location == nil && $0.comment == nil })
    }

    @Test func referenceSizeGrowsWithTheObjectCount() throws {
        // Foundation widens references past 255 and 65,535 objects; both must still read.
        let medium = try foundationPlist(manyKeys)
        let large = try foundationPlist(hugeKeys)
        #expect(medium[medium.count - 25] == 2)
        #expect(large[large.count - 25] >= 3)
        #expect(try StringsFile.parse(large).count == hugeKeys.count)
    }

    @Test func keepsTheStoredOrder() throws {
        let ascii: [[UInt8]] = [[0x51, 0x62], [0x51, 0x61], [0x51, 0x63], [0x51, 0x31], [0x51, 0x32], [0x51, 0x33]]
        let plist = PlistBuilder(objects: [[0xD3, 1, 2, 3, 4, 5, 6]] + ascii).bytes()
        let table = try StringsFile.parse(plist)
        #expect(table.keys == ["b", "a", "c"])
        #expect(table.entries.map(\.value) == ["1", "2", "3"])
    }

    @Test func acceptsUnusualButValidEncodings() throws {
        let sixteenByteLength: [UInt8] = [0x5F, 0x14] + Array(repeating: 0, count: 15) + [1, 0x62]
        let cases: [(PlistBuilder, [String: String])] = [
            // A surrogate pair written by hand.
            (PlistBuilder(objects: [[0xD1, 1, 2], [0x51, 0x61], [0x62, 0xD8, 0x3D, 0xDE, 0x00]]), ["a": "😀"]),
            // One object as both key and value.
            (PlistBuilder(objects: [[0xD1, 1, 1], [0x51, 0x61]]), ["a": "a"]),
            // Wider references and offsets than needed, and the top object not first.
            (PlistBuilder(objects: [[0x51, 0x61], [0xD1, 0, 0, 0, 2], [0x51, 0x62]], top: 1, offsetSize: 8,
                          referenceSize: 2), ["a": "b"]),
            // Long-form lengths where a nibble would do, one of them a 16-byte integer.
            (PlistBuilder(objects: [[0xD1, 1, 2], [0x51, 0x61], sixteenByteLength]), ["a": "b"]),
            (PlistBuilder(objects: [[0xD1, 1, 2], [0x5F, 0x10, 0x01, 0x61], [0x6F, 0x10, 0x01, 0x00, 0xE9]]),
             ["a": "é"]),
            // Any "bplist0?" version, as CoreFoundation reads.
            (PlistBuilder(objects: [[0xD1, 1, 1], [0x50]], header: Array("bplist01".utf8)), ["": ""]),
        ]
        for (builder, expected) in cases {
            let bytes = builder.bytes()
            #expect(try StringsFile.parse(bytes).dictionary == expected)
            #expect(foundationDictionary(bytes) == expected, "Foundation agrees")
        }
    }

    @Test(arguments: [
        ("", false), ("bplist0", true), ("bplist00", true), ("bplist01", true), ("bplist1", false), ("bplist", false),
        ("\"bplist00\" = \"x\";", false), ("Bplist00", false),
    ])
    func recognizesTheSignature(text: String, expected: Bool) {
        let bytes = Array(text.utf8)
        #expect(bytes.withUnsafeBytes { BinaryPropertyList.isBinaryPropertyList($0) } == expected)
    }
}

// MARK: - Errors

struct MalformedBinaryPlist: Sendable, CustomTestStringConvertible {
    var testDescription: String
    var bytes: [UInt8]
    var reason: String
    var offset: Int
}

private func malformed(_ name: String, _ bytes: [UInt8], _ reason: String, at offset: Int) -> MalformedBinaryPlist {
    MalformedBinaryPlist(testDescription: name, bytes: bytes, reason: reason, offset: offset)
}

/// `{"a": "b"}`: the dictionary at 8, "a" at 11, "b" at 13, the offset table at 15, the trailer at 18.
private let valid = PlistBuilder(objects: [[0xD1, 1, 2], [0x51, 0x61], [0x51, 0x62]]).bytes()

private func plist(_ objects: [UInt8]...) -> [UInt8] { PlistBuilder(objects: objects).bytes() }

/// `{"a": value}` with the value object at 13.
private func withValue(_ value: [UInt8]) -> [UInt8] { plist([0xD1, 1, 2], [0x51, 0x61], value) }

/// 256 objects ending at 268; with 2-byte offsets the trailer starts at 268 + 512 = 780.
private let paddedObjects: [[UInt8]] = [[0xD1, 1, 2], [0x51, 0x61], [0x51, 0x62]] + Array(repeating: [0x00], count: 253)
/// 304 bytes of data: with it the objects end at 319, past what a 1-byte offset reaches; the trailer is at 323.
private let longData: [UInt8] = [0x4F, 0x11, 0x01, 0x2C] + Array(repeating: 0xAA, count: 300)
private let maxInt64: [UInt8] = [0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
private let surrogate = "invalid UTF-16 (lone surrogate) in string"

private let malformedPlists: [MalformedBinaryPlist] = [
    malformed("top array", plist([0xA1, 1], [0x51, 0x61]), "top object is an array, not a dictionary", at: 8),
    malformed("top string", plist([0x51, 0x61]), "top object is an ASCII string, not a dictionary", at: 8),
    malformed("value array", withValue([0xA0]), "value for key 'a' is an array, not a string", at: 13),
    malformed("value integer", withValue([0x10, 5]), "value for key 'a' is an integer, not a string", at: 13),
    malformed("value boolean", withValue([0x09]), "value for key 'a' is a boolean, not a string", at: 13),
    malformed("value data", withValue([0x41, 0x00]), "value for key 'a' is data, not a string", at: 13),
    malformed("value null", withValue([0x00]), "value for key 'a' is null, not a string", at: 13),
    malformed("value UTF-8", withValue([0x71, 0x62]), "is a UTF-8 string (marker 0x7X is not part of bplist00)",
              at: 13),
    malformed("key integer", plist([0xD1, 1, 2], [0x10, 5], [0x51, 0x61]), "key 0 is an integer, not a string",
              at: 11),
    malformed("value is the dictionary itself", plist([0xD1, 1, 0], [0x51, 0x61]),
              "value for key 'a' is a dictionary, not a string", at: 8),
    malformed("key is the dictionary itself", plist([0xD1, 0, 1], [0x51, 0x61]),
              "key 0 is a dictionary, not a string", at: 8),
    malformed("reference out of range", plist([0xD1, 1, 7], [0x51, 0x61]),
              "object reference 7 out of range (2 objects)", at: 10),
    malformed("lone high surrogate", withValue([0x61, 0xD8, 0x3D]), surrogate, at: 14),
    malformed("lone low surrogate", withValue([0x62, 0x00, 0x41, 0xDC, 0x00]), surrogate, at: 16),
    malformed("two low surrogates", withValue([0x62, 0xDC, 0x00, 0xDC, 0x00]), surrogate, at: 14),
    malformed("high surrogate, then a letter", withValue([0x62, 0xD8, 0x3D, 0x00, 0x41]), surrogate, at: 14),
    malformed("empty UTF-16 string", withValue([0x60]), "empty UTF-16 string, which CoreFoundation rejects", at: 13),
    malformed("non-ASCII byte", withValue([0x52, 0x61, 0xE9]), "non-ASCII byte 0xE9 in an ASCII string", at: 15),
    malformed("duplicate key", plist([0xD2, 1, 2, 3, 3], [0x51, 0x61], [0x51, 0x61], [0x51, 0x62]),
              "key 'a' appears twice", at: 10),
    malformed("huge dictionary count", plist([0xDF, 0x13] + maxInt64),
              "the dictionary claims 9223372036854775807 entries", at: 8),
    malformed("negative dictionary count", plist([0xDF, 0x13] + Array(repeating: 0xFF, count: 8)),
              "length 18446744073709551615 is negative or too large", at: 9),
    malformed("huge string length", withValue([0x6F, 0x12, 0x7F, 0xFF, 0xFF, 0xFF]),
              "string of 2147483647 characters runs past the object data", at: 13),
    malformed("length not an integer", withValue([0x5F, 0x51]),
              "the length of the object at byte offset 13 is an ASCII string, not an integer", at: 14),
    malformed("truncated length integer", withValue([0x5F, 0x12, 0x00]), "truncated 4-byte length integer", at: 14),
    malformed("length beyond 64 bits", withValue([0x5F, 0x14, 1] + Array(repeating: 0, count: 15)),
              "length integer does not fit in 64 bits", at: 14),
    malformed("length marker at the end", withValue([0x5F]), "truncated length of the object at byte offset 13",
              at: 14),
    malformed("too short", Array("bplist00".utf8) + [0xD0] + Array(repeating: 0, count: 31),
              "truncated trailer: 40 bytes", at: 40),
    malformed("offset size 0", patched(valid, at: -26, [0]), "offset integer size 0 in the trailer is not 1 to 8",
              at: 24),
    malformed("offset size 9", patched(valid, at: -26, [9]), "offset integer size 9 in the trailer is not 1 to 8",
              at: 24),
    malformed("reference size 0", patched(valid, at: -25, [0]),
              "object reference size 0 in the trailer is not 1 to 8", at: 25),
    malformed("no objects", patched(valid, at: -24, bigEndian(0, size: 8)), "the trailer claims no objects", at: 26),
    malformed("too many objects", patched(valid, at: -24, bigEndian(4, size: 8)),
              "the trailer claims 4 objects of 1-byte offsets, but the offset table at byte offset 15 has 3 bytes",
              at: 26),
    malformed("2^64-1 objects", patched(valid, at: -24, bigEndian(.max, size: 8)),
              "the trailer claims 18446744073709551615 objects", at: 26),
    malformed("top object out of range", patched(valid, at: -16, bigEndian(3, size: 8)),
              "top object 3 out of range (3 objects)", at: 34),
    malformed("top object 2^64-1", patched(valid, at: -16, bigEndian(.max, size: 8)),
              "top object 18446744073709551615 out of range", at: 34),
    malformed("offset table at 0", patched(valid, at: -8, bigEndian(0, size: 8)),
              "offset table offset 0 in the trailer is outside the file", at: 42),
    malformed("offset table at 2^64-1", patched(valid, at: -8, bigEndian(.max, size: 8)),
              "offset table offset 18446744073709551615 in the trailer is outside the file", at: 42),
    malformed("offset table in the trailer", patched(valid, at: -8, bigEndian(19, size: 8)),
              "offset table offset 19 in the trailer is outside the file", at: 42),
    malformed("offset table misplaced", patched(valid, at: -8, bigEndian(14, size: 8)),
              "the offset table at byte offset 14 has 4 bytes", at: 26),
    malformed("offset entry past the objects", patched(valid, at: 16, [200]),
              "offset table entry 1 points to 200, outside the object data (8..<15)", at: 16),
    malformed("offset entry in the header", patched(valid, at: 17, [3]),
              "offset table entry 2 points to 3, outside the object data", at: 17),
    malformed("offset entry at the offset table", patched(valid, at: 15, [15]), "offset table entry 0 points to 15",
              at: 15),
    malformed("a byte between the table and the trailer", Array(valid[..<18]) + [0] + Array(valid[18...]),
              "the offset table at byte offset 15 has 4 bytes", at: 27),
    malformed("references too narrow", PlistBuilder(objects: paddedObjects, offsetSize: 2).bytes(),
              "object reference size 1 cannot address 256 objects", at: 780 + 7),
    malformed("offsets too narrow", plist([0xD1, 1, 2], [0x51, 0x61], [0x51, 0x62], longData),
              "offset integer size 1 cannot reach the offset table at 319", at: 323 + 6),
    malformed("missing signature", Array("bplis".utf8), "missing the 'bplist0' signature", at: 0),
]

extension BinaryPropertyListTests {
    @Test(arguments: malformedPlists)
    func rejects(_ example: MalformedBinaryPlist) throws {
        let error = try #require(parseError(example.bytes))
        #expect(error.reason.contains(example.reason), "\(error.reason)")
        #expect(error.byteOffset == example.offset, "\(error.reason)")
        expectWellFormed(error, in: example.bytes)
    }

    @Test func rejectsOverlappingStrings() throws {
        // 200 values, each a different offset into one run of 0x5E bytes: every offset starts a
        // 14-character string, so decoding them all would read 14 times the bytes the file has.
        let dictionary: [UInt8] = [0xDF, 0x11, 0x00, 0xC8] + (1...400).flatMap { bigEndian(UInt64($0), size: 2) }
        let keys = (1000..<1200).map { [0x54] + Array(String($0).utf8) }
        let run = (0..<200).map { $0 == 199 ? [UInt8](repeating: 0x5E, count: 15) : [0x5E] }
        let bytes = PlistBuilder(objects: [dictionary] + keys + run, offsetSize: 2, referenceSize: 2).bytes()
        #expect(foundationDictionary(bytes)?.count == 200, "CoreFoundation reads it, at quadratic cost")
        let error = try #require(parseError(bytes))
        #expect(error.reason.contains("string objects overlap"), "\(error.reason)")
        expectWellFormed(error, in: bytes)
    }

    @Test func rejectsEveryTruncation() throws {
        let dictionary = ["greeting": "Hello", "name": "Zoë", "long": String(repeating: "z", count: 40)]
        let bytes = try foundationPlist(dictionary)
        #expect(try StringsFile.parse(bytes).count == 3)
        for length in 0..<bytes.count {
            let prefix = Array(bytes[..<length])
            let error = try #require(parseError(prefix), "prefix of \(length) bytes")
            expectWellFormed(error, in: prefix)
            if length >= 7 { #expect(throws: ParseError.self) { try StringsFile.parse(prefix) } }
        }
        #expect(parseError(bytes + [0]) != nil, "a byte after the trailer")
    }

    @Test func survivesMutations() throws {
        let original = try foundationPlist([
            "greeting": "Hello", "name": "Zoë 👋", "long": String(repeating: "z", count: 40), "": "empty key",
            "same": "same",
        ])
        var random = SplitMix64(seed: 0x5EED)
        let interesting: [UInt8] = [0x00, 0x01, 0x08, 0x0F, 0x10, 0x13, 0x1F, 0x5F, 0x6F, 0x7F, 0x80, 0xD8, 0xDF, 0xFF]
        var (accepted, rejected) = (0, 0)
        for _ in 0..<3_000 {
            var bytes = original
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                // Half the mutations hit the offset table and trailer, where one byte moves everything.
                let index = Bool.random(using: &random)
                    ? Int.random(in: 8..<bytes.count, using: &random)
                    : Int.random(in: max(8, bytes.count - 48)..<bytes.count, using: &random)
                bytes[index] = Bool.random(using: &random) ? .random(in: 0...255, using: &random)
                    : interesting.randomElement(using: &random)!
            }
            checkAgainstFoundation(bytes, accepted: &accepted, rejected: &rejected)
        }
        #expect(accepted > 0 && rejected > 0)
    }

    @Test func survivesRandomBytes() {
        var random = SplitMix64(seed: 0xB1157)
        var (accepted, rejected) = (0, 0)
        for round in 0..<4_000 {
            var bytes = Array("bplist00".utf8)
            if round % 4 == 0 {
                let count = Int.random(in: 0...120, using: &random)
                bytes += (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
            } else {
                // Plausible objects under a consistent trailer, so the walk gets past the first object;
                // now and then an offset points into the middle of an object.
                let count = Int.random(in: 1...8, using: &random)
                var offsets: [Int] = []
                for index in 0..<count {
                    offsets.append(bytes.count)
                    bytes += randomObject(&random, references: count, dictionary: index == 0 && round % 4 != 1)
                }
                if Int.random(in: 0..<8, using: &random) == 0 {
                    offsets[Int.random(in: 0..<count, using: &random)] = Int.random(in: 8..<bytes.count, using: &random)
                }
                let table = bytes.count
                bytes += offsets.map { UInt8($0) } + [0, 0, 0, 0, 0, 0, 1, 1] + bigEndian(UInt64(count), size: 8)
                bytes += bigEndian(0, size: 8) + bigEndian(UInt64(table), size: 8)
            }
            checkAgainstFoundation(bytes, accepted: &accepted, rejected: &rejected)
        }
        #expect(accepted > 100 && rejected > 100)
    }

    /// A random object of the kinds this reader walks, with references up to `limit` (one past the last).
    private func randomObject(_ random: inout SplitMix64, references limit: Int, dictionary: Bool) -> [UInt8] {
        let count = Int.random(in: 0...3, using: &random)
        let units: [[UInt8]] = [[0x00, 0x61], [0x00, 0x62], [0xD8, 0x3D], [0xDE, 0x00], [0x00, 0xE9], [0x4E, 0x2D]]
        switch dictionary ? 0 : Int.random(in: 0..<6, using: &random) {
        case 0:
            return [0xD0 | UInt8(count)] + (0..<2 * count).map { _ in .random(in: 0...UInt8(limit), using: &random) }
        case 1: return [0x50 | UInt8(count)] + (0..<count).map { _ in .random(in: 0x61...0x63, using: &random) }
        case 2: return [0x60 | UInt8(count)] + (0..<count).flatMap { _ in units.randomElement(using: &random)! }
        case 3: return [0x5F, 0x10, UInt8(count)] + Array(repeating: 0x7A, count: count)
        default: return (0...count).map { _ in .random(in: 0...255, using: &random) }
        }
    }

    /// Parses `bytes`; an error must be well formed, and a table must be what Foundation reads too
    /// (this reader is stricter than CoreFoundation, never more lenient).
    private func checkAgainstFoundation(_ bytes: [UInt8], accepted: inout Int, rejected: inout Int) {
        do {
            let table = try StringsFile.parse(bytes)
            accepted += 1
            #expect(table.encoding == .binaryPropertyList)
            #expect(foundationDictionary(bytes) == table.dictionary, "\(bytes)")
        } catch {
            rejected += 1
            expectWellFormed(error, in: bytes)
        }
    }
}
