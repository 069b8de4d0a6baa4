import Foundation
import HotStringsTestSupport
import LinuxSystem
import Testing
@testable import HotStringsRelease

/// Manifests and install records through the project's one JSON reader and writer: the bytes `publish` writes
/// stay those it always wrote (readable by installs of earlier hotstrings, which read them with Foundation), and
/// bad input is refused with a reason (the line and column of a syntax error).
@Suite struct ManifestJSONTests {
    static let digest = String(repeating: "ab", count: 32)

    static let manifest = ReleaseManifest(release: "20260101T000000Z-0123456789ab", created: "2026-01-01T00:00:00Z",
                                          files: [
                                              .init(path: "de.lproj/Localizable.strings", size: 12, sha256: digest),
                                              .init(path: "Settings.xcstrings", size: 0, sha256: digest),
                                              .init(path: "fr.lproj/Grüße \"q\".strings", size: 7, sha256: digest),
                                          ])

    /// A manifest whose file entry is `entry` (JSON members without braces).
    static func manifest(entry: String) -> [UInt8] {
        Array(#"{"format": 1, "release": "r1", "created": "now", "files": [{\#(entry)}]}"#.utf8)
    }

    /// The reason `decode` refuses `bytes` with.
    static func refusal(_ bytes: [UInt8]) -> String? {
        do {
            _ = try ReleaseManifest.decode(bytes)
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test func theBytesArePinnedAndRoundTrip() throws {
        let expected = """
            {
              "format": 1,
              "release": "20260101T000000Z-0123456789ab",
              "created": "2026-01-01T00:00:00Z",
              "files": [
                {"path": "Settings.xcstrings", "size": 0, "sha256": "\(Self.digest)"},
                {"path": "de.lproj/Localizable.strings", "size": 12, "sha256": "\(Self.digest)"},
                {"path": "fr.lproj/Grüße \\"q\\".strings", "size": 7, "sha256": "\(Self.digest)"}
              ]
            }

            """
        #expect(String(decoding: Self.manifest.json, as: UTF8.self) == expected)
        #expect(try ReleaseManifest.decode(Self.manifest.json) == Self.manifest)
        let empty = ReleaseManifest(release: "r1", created: "now", files: [])
        #expect(String(decoding: empty.json, as: UTF8.self)
            == "{\n  \"format\": 1,\n  \"release\": \"r1\",\n  \"created\": \"now\",\n  \"files\": []\n}\n")
        #expect(try ReleaseManifest.decode(empty.json) == empty)
    }

    /// Installs of earlier hotstrings read manifests with `JSONSerialization`: what we write reads the same there.
    @Test func foundationReadsTheWrittenManifestAlike() throws {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(Self.manifest.json)) as? [String: Any])
        #expect(object["format"] as? Int == 1)
        #expect(object["release"] as? String == Self.manifest.release)
        let files = try #require(object["files"] as? [[String: Any]])
        #expect(files.compactMap { $0["path"] as? String } == Self.manifest.files.map(\.path))
        #expect(files.compactMap { $0["size"] as? Int } == Self.manifest.files.map(\.size))
    }

    @Test func manifestsFromOtherWritersRead() throws {
        // Escaped slashes (Foundation's default), \u escapes, a byte order mark, other whitespace and member order.
        let json = "\u{FEFF}{ \"files\" : [ { \"sha256\" : \"\(Self.digest)\", \"size\" : 3,"
            + " \"path\" : \"de.lproj\\/L\\u00e4nder.strings\" } ] ,\r\n\t\"created\":\"now\",\"release\":\"r1\","
            + "\"format\":1}"
        let manifest = try ReleaseManifest.decode(Array(json.utf8))
        #expect(manifest.files == [.init(path: "de.lproj/Länder.strings", size: 3, sha256: Self.digest)])
        #expect(manifest.release == "r1" && manifest.created == "now")
    }

    @Test(arguments: [
        ("", "not JSON: unexpected end of input at line 1, column 1"),
        (#"{"format": 1, "release": "#, "not JSON: unexpected end of input at line 1, column 26"),
        ("{\n  \"format\": 1,\n  \"release\": 'r1'\n}", "not JSON: unexpected character at line 3, column 14"),
        ("{\"format\": 1,}", "not JSON: expected a member name at line 1, column 14"),
        ("{\"format\": 01}", "not JSON: leading zero in number at line 1, column 13"),
        ("{} {}", "not JSON: unexpected content after the value at line 1, column 4"),
        ("[1]", "not a JSON object"),
        ("\"manifest\"", "not a JSON object"),
    ] as [(String, String)])
    func garbageIsRefusedNamingLineAndColumn(text: String, reason: String) {
        #expect(Self.refusal(Array(text.utf8)) == "invalid manifest: " + reason)
    }

    @Test func deepNestingIsRefusedAtTheReadersDepth() {
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        let reason = Self.refusal(Array(#"{"format": 1, "extra": \#(deep)}"#.utf8))
        #expect(reason?.hasPrefix("invalid manifest: not JSON: nesting deeper than 128 at line 1, column ") == true,
                "\(reason ?? "accepted")")
        // Nesting within the limit is read (and an unknown member ignored).
        let nested = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        let json = #"{"format": 1, "release": "r1", "created": "now", "files": [], "extra": \#(nested)}"#
        #expect(Self.refusal(Array(json.utf8)) == nil)
    }

    @Test func aMemberGivenTwiceIsRefused() {
        let twice = #"{"format": 1, "release": "r1", "release": "r2", "created": "now", "files": []}"#
        #expect(Self.refusal(Array(twice.utf8)) == #"invalid manifest: manifest: member "release" is given twice"#)
        let entry = #""path": "de.lproj/a.strings", "size": 1, "sha256": "\#(Self.digest)", "size": 2"#
        #expect(Self.refusal(Self.manifest(entry: entry))
            == "invalid manifest: files[0] needs a string path, an integer size and a string sha256")
    }

    @Test func bytesThatAreNotUTF8AreRefused() throws {
        var bytes = Self.manifest(entry: #""path": "de.lproj/X.strings", "size": 1, "sha256": "\#(Self.digest)""#)
        let index = try #require(bytes.firstIndex(of: UInt8(ascii: "X")))
        let invalid = "invalid manifest: not JSON: invalid UTF-8 in string at line 1"
        bytes[index] = 0xFF
        #expect(Self.refusal(bytes)?.hasPrefix(invalid) == true)
        bytes[index] = 0xC3  // a lead byte whose continuation is missing
        #expect(Self.refusal(bytes)?.hasPrefix(invalid) == true)
        // Outside a string, a non-ASCII byte is no JSON at all.
        #expect(Self.refusal([0xFF] + Array("{}".utf8))
            == "invalid manifest: not JSON: unexpected character at line 1, column 1")
    }

    @Test(arguments: ["1e400", "99999999999999999999", "-1", "1.0", "1e2", "\"1\"", "null"])
    func aSizeThatIsNotAnIntegerInRangeIsRefused(size: String) {
        let entry = #""path": "de.lproj/a.strings", "size": \#(size), "sha256": "\#(Self.digest)""#
        let reason = Self.refusal(Self.manifest(entry: entry))
        #expect(reason != nil)
        #expect(reason?.contains("integer size") == true || reason?.contains("over the cap") == true, "\(reason ?? "")")
    }

    @Test(arguments: ["1.0", "1e0", "18446744073709551617", "\"1\""])
    func aFormatThatIsNotTheIntegerOneIsRefused(format: String) {
        let json = #"{"format": \#(format), "release": "r1", "created": "now", "files": []}"#
        let reason = Self.refusal(Array(json.utf8))
        #expect(reason == #"invalid manifest: no integer "format""#)
        #expect(Self.refusal(Array(#"{"format": 2, "release": "r1", "created": "now", "files": []}"#.utf8))
            == "invalid manifest: format 2 is not supported (this hotstrings reads format 1)")
    }

    // MARK: Install records

    @Test func anInstallRecordIsWrittenAsOneSortedLineAndReadBack() throws {
        let folder = try FileSystem.makeTemporaryDirectory(prefix: "hs-record-")
        defer { try? FileSystem.removeRecursively(atPath: folder) }
        var release = InstalledRelease(manifest: Self.manifest, installedAt: 1_767_225_600_000_001,
                                       entityTag: "\"abc\"", lastModified: "Thu, 01 Jan 2026 00:00:00 GMT",
                                       source: "https://cdn.example.com/app/manifest.json")
        release.folderName = String(folder.split(separator: "/").last!)
        #expect(String(decoding: release.recordJSON, as: UTF8.self) == #"{"etag":"\"abc\"","installedAt":"#
            + #"1767225600000001,"lastModified":"Thu, 01 Jan 2026 00:00:00 GMT","release":"#
            + #""20260101T000000Z-0123456789ab","source":"https://cdn.example.com/app/manifest.json"}"# + "\n")
        try FileSystem.writeFile(Self.manifest.json, toPath: folder + "/" + InstalledRelease.manifestName)
        try FileSystem.writeFile(release.recordJSON, toPath: folder + "/" + InstalledRelease.recordName)
        #expect(InstalledRelease.read(folder: folder) == release)

        // A record an earlier hotstrings wrote with Foundation (slashes escaped, no validators) reads too.
        let old = #"{"installedAt":7,"release":"20260101T000000Z-0123456789ab","source":"https:\/\/cdn\/m.json"}"#
        try FileSystem.writeFile(Array(old.utf8) + [0x0A], toPath: folder + "/" + InstalledRelease.recordName)
        let read = try #require(InstalledRelease.read(folder: folder))
        #expect(read.installedAt == 7 && read.source == "https://cdn/m.json" && read.entityTag == nil)

        // A broken or ambiguous record is a leftover, not a release.
        for broken in [#"{"installedAt":7"#, #"{"installedAt":7,"installedAt":8}"#, #"{"installedAt":7.5}"#, "[]"] {
            try FileSystem.writeFile(Array(broken.utf8), toPath: folder + "/" + InstalledRelease.recordName)
            #expect(InstalledRelease.read(folder: folder) == nil, "\(broken)")
        }
    }
}
