import Foundation
import HotStringsTestSupport
import Testing
@testable import StringsFormat

/// `StringsdictEditor`: a form's `<string>` changes and nothing else; new forms and entries come in the file's
/// indentation, and the result reads (ours and Foundation's) as the old plist with that one change.
@Suite struct StringsdictEditorTests {
    static let file = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        \t<key>files</key>
        \t<dict>
        \t\t<key>NSStringLocalizedFormatKey</key>
        \t\t<string>%#@COUNT@</string>
        \t\t<key>COUNT</key>
        \t\t<dict>
        \t\t\t<key>NSStringFormatSpecTypeKey</key>
        \t\t\t<string>NSStringPluralRuleType</string>
        \t\t\t<key>NSStringFormatValueTypeKey</key>
        \t\t\t<string>d</string>
        \t\t\t<key>one</key>
        \t\t\t<string>%d file</string>
        \t\t\t<key>other</key>
        \t\t\t<string>%d files</string>
        \t\t</dict>
        \t</dict>
        \t<key>photos</key>
        \t<dict>
        \t\t<key>NSStringLocalizedFormatKey</key>
        \t\t<string>%#@PEOPLE@ %#@PHOTOS@</string>
        \t\t<key>PEOPLE</key>
        \t\t<dict>
        \t\t\t<key>NSStringFormatSpecTypeKey</key>
        \t\t\t<string>NSStringPluralRuleType</string>
        \t\t\t<key>NSStringFormatValueTypeKey</key>
        \t\t\t<string>d</string>
        \t\t\t<key>other</key>
        \t\t\t<string>%d people</string>
        \t\t</dict>
        \t\t<key>PHOTOS</key>
        \t\t<dict>
        \t\t\t<key>NSStringFormatSpecTypeKey</key>
        \t\t\t<string>NSStringPluralRuleType</string>
        \t\t\t<key>NSStringFormatValueTypeKey</key>
        \t\t\t<string>d</string>
        \t\t\t<key>other</key>
        \t\t\t<string>%d photos</string>
        \t\t</dict>
        \t</dict>
        </dict>
        </plist>

        """

    @Test func settingAFormChangesOnlyItsText() throws {
        let result = try StringsdictEditor.setting(form: "one", variable: nil, of: "files", to: "1 <fichier> & co",
                                                   in: Array(Self.file.utf8))
        let expected = Self.file.replacingOccurrences(of: "<string>%d file</string>",
                                                      with: "<string>1 &lt;fichier&gt; &amp; co</string>")
        #expect(String(decoding: result, as: UTF8.self) == expected)
        try Self.expectReads(result, as: ["files", "COUNT", "one"], "1 <fichier> & co", from: Self.file)
    }

    @Test func missingFormIsAddedInItsSortedPlace() throws {
        let result = try StringsdictEditor.setting(form: "few", variable: "COUNT", of: "files", to: "%d souborů",
                                                   in: Array(Self.file.utf8))
        let expected = Self.file.replacingOccurrences(
            of: "\t\t\t<key>one</key>\n\t\t\t<string>%d file</string>",
            with: "\t\t\t<key>few</key>\n\t\t\t<string>%d souborů</string>\n\t\t\t<key>one</key>\n\t\t\t<string>%d file</string>")
        #expect(String(decoding: result, as: UTF8.self) == expected)
        try Self.expectReads(result, as: ["files", "COUNT", "few"], "%d souborů", from: Self.file)
    }

    @Test func twoVariablesNeedAName() throws {
        do {
            _ = try StringsdictEditor.setting(form: "one", variable: nil, of: "photos", to: "x", in: Array(Self.file.utf8))
            Issue.record("chose a variable")
        } catch {
            #expect(error.code == .ambiguousVariable)
            #expect(error.variables == ["PEOPLE", "PHOTOS"])
        }
        let result = try StringsdictEditor.setting(form: "one", variable: "PHOTOS", of: "photos", to: "%d photo",
                                                   in: Array(Self.file.utf8))
        try Self.expectReads(result, as: ["photos", "PHOTOS", "one"], "%d photo", from: Self.file)
        do {
            _ = try StringsdictEditor.setting(form: "one", variable: "NOPE", of: "photos", to: "x", in: Array(Self.file.utf8))
            Issue.record("set a missing variable")
        } catch {
            #expect(error.code == .noSuchKey)
        }
    }

    @Test func missingKeyGetsANewEntry() throws {
        let result = try StringsdictEditor.setting(form: "other", variable: nil, of: "messages", to: "%d messages",
                                                   in: Array(Self.file.utf8))
        let entry = """
            \t<key>messages</key>
            \t<dict>
            \t\t<key>NSStringLocalizedFormatKey</key>
            \t\t<string>%#@value@</string>
            \t\t<key>value</key>
            \t\t<dict>
            \t\t\t<key>NSStringFormatSpecTypeKey</key>
            \t\t\t<string>NSStringPluralRuleType</string>
            \t\t\t<key>NSStringFormatValueTypeKey</key>
            \t\t\t<string>d</string>
            \t\t\t<key>other</key>
            \t\t\t<string>%d messages</string>
            \t\t</dict>
            \t</dict>

            """
        let expected = Self.file.replacingOccurrences(of: "\t<key>photos</key>\n", with: entry + "\t<key>photos</key>\n")
        #expect(String(decoding: result, as: UTF8.self) == expected)
        let table = try StringsdictFile.parse(result)
        #expect(table.entries["messages"] != nil)
    }

    @Test func removingAnEntryTakesItsLines() throws {
        let result = try StringsdictEditor.removing("files", in: Array(Self.file.utf8))
        let start = try #require(Self.file.range(of: "\t<key>files</key>"))
        let end = try #require(Self.file.range(of: "\t<key>photos</key>"))
        var expected = Self.file
        expected.removeSubrange(start.lowerBound..<end.lowerBound)
        #expect(String(decoding: result, as: UTF8.self) == expected)
        do {
            _ = try StringsdictEditor.removing("files", in: result)
            Issue.record("removed a missing key")
        } catch {
            #expect(error.code == .noSuchKey)
        }
    }

    @Test func refusals() throws {
        let bytes = Array(Self.file.utf8)
        for (form, value, code) in [("some", "x", EditError.Code.invalidValue), ("one", "a\u{0}", .invalidValue)] {
            do {
                _ = try StringsdictEditor.setting(form: form, variable: nil, of: "files", to: value, in: bytes)
                Issue.record("accepted \(form) \(value.debugDescription)")
            } catch {
                #expect(error.code == code)
            }
        }
        do {
            _ = try StringsdictEditor.setting(form: "one", variable: nil, of: "files", to: "x",
                                              in: Array("<plist>\n<dict>\n<key>a</key>\n</plist>".utf8))
            Issue.record("edited a broken plist")
        } catch {
            #expect(error.code == .unreadable)
            #expect(error.parseError?.line == 4)
        }
        do {
            _ = try StringsdictEditor.removing("files", in: Array("bplist00".utf8))
            Issue.record("edited a binary plist")
        } catch {
            #expect(error.code == .cannotEdit)
        }
    }

    @Test func everyCorpusFileTakesAFormAndLosesAnEntry() throws {
        var generator = SplitMix64(seed: 21)
        var edits = 0
        for url in try XMLPropertyListTests.stringsdictFiles() {
            let text = try String(contentsOf: url, encoding: .utf8)
            guard case .dictionary(let root) = try XMLPropertyList.parse(Array(text.utf8)) else { continue }
            guard let key = root.keys.sorted().randomElement(using: &generator),
                  case .dictionary(let entry)? = root[key] else { continue }
            let variables = entry.filter {
                $0.value.dictionaryValue?["NSStringFormatSpecTypeKey"] == .string("NSStringPluralRuleType")
            }.keys.sorted()
            guard let variable = variables.randomElement(using: &generator) else { continue }
            for form in ["other", "zero"] {
                let value = StringsFileEditorTests.hardValues.randomElement(using: &generator)!
                let result = try StringsdictEditor.setting(form: form, variable: variable, of: key, to: value,
                                                           in: Array(text.utf8))
                try Self.expectReads(result, as: [key, variable, form], value, from: text)
                edits += 1
            }
            let removed = try StringsdictEditor.removing(key, in: Array(text.utf8))
            var expected = root
            expected[key] = nil
            #expect(try XMLPropertyList.parse(removed) == .dictionary(expected), "\(url.path)")
            let foundation = try PropertyListSerialization.propertyList(from: Data(removed), options: [], format: nil)
            #expect(XMLPropertyListTests.value(ofFoundation: foundation) == .dictionary(expected), "\(url.path)")
        }
        #expect(edits >= 80)
    }

    /// `bytes` read by us and by Foundation is `original` with `value` at `path`.
    static func expectReads(
        _ bytes: [UInt8], as path: [String], _ value: String, from original: String,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws {
        let expected = setting(path[...], to: value, in: try XMLPropertyList.parse(Array(original.utf8)))
        #expect(try XMLPropertyList.parse(bytes) == expected, sourceLocation: sourceLocation)
        let foundation = try PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil)
        #expect(XMLPropertyListTests.value(ofFoundation: foundation) == expected, sourceLocation: sourceLocation)
    }

    static func setting(_ path: ArraySlice<String>, to value: String, in plist: PropertyListValue) -> PropertyListValue {
        guard let first = path.first else { return .string(value) }
        var members = plist.dictionaryValue ?? [:]
        members[first] = setting(path.dropFirst(), to: value, in: members[first] ?? .dictionary([:]))
        return .dictionary(members)
    }
}
