import Testing
@testable import StringsFormat

/// Reading `.stringsdict` files into rules, and the plain text a rule shows a client that knows only strings.
@Suite struct StringsdictFileTests {
    static let header = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n<plist version=\"1.0\">\n<dict>\n"

    @Test func readsEntriesByKey() throws {
        let table = try StringsdictFile.parse(text: Self.header + """
            <key>files</key>
            <dict>
                <key>NSStringLocalizedFormatKey</key><string>%#@n@ in %@</string>
                <key>n</key>
                <dict>
                    <key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>
                    <key>NSStringFormatValueTypeKey</key><string>d</string>
                    <key>one</key><string>%d file</string>
                    <key>other</key><string>%d files</string>
                </dict>
            </dict>
            </dict>
            </plist>
            """)
        #expect(table.keys == ["files"])
        let entry = try #require(table["files"])
        #expect(entry.variables["n"] == .plural(valueType: "d", forms: [.one: "%d file", .other: "%d files"]))
        #expect(entry.plainText == "%d files in %@")
    }

    @Test(arguments: [
        ("<key>a</key>\n  <string>x</string>", "entry 'a' is a string, not a dictionary"),
        ("  <key>b</key><dict/>", "entry 'b' has no NSStringLocalizedFormatKey string"),
        ("<key>c&amp;d</key><dict><key>NSStringLocalizedFormatKey</key><string>%#@v@</string>"
            + "<key>v</key><dict><key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>"
            + "<key>lots</key><string>x</string></dict></dict>", "'lots' is not a plural category"),
    ])
    func badEntriesAreErrorsAtTheirKey(body: String, reason: String) {
        #expect {
            try StringsdictFile.parse(text: Self.header + "\n" + body + "\n</dict></plist>\n")
        } throws: { error in
            guard let error = error as? ParseError else { return false }
            // The header is three lines, then an empty one: the entry's `<key>` is on line 5.
            return error.reason.contains(reason) && error.line == 5 && error.column == (body.hasPrefix(" ") ? 3 : 1)
        }
    }

    @Test func xmlErrorsKeepTheirPlace() {
        #expect(throws: ParseError.self) { try StringsdictFile.parse(text: Self.header + "<key>a</key><dict>") }
        #expect {
            try StringsdictFile.parse(text: "<plist><array/></plist>")
        } throws: { error in
            (error as? ParseError)?.reason == "the top object is an array, not a dictionary of entries"
        }
        #expect {
            try StringsdictFile.parse(Array("bplist00".utf8) + [0, 0])
        } throws: { error in
            (error as? ParseError)?.reason.contains("binary property list") == true
        }
    }

    @Test(arguments: [
        ("%#@a@", "A other"), ("%2$#@a@ and %1$#@w@", "A other and wide"), ("%d%% %#@d@", "%d%% tablet"),
        ("%#@nest@", "outer A other"), ("no variables %@", "no variables %@"), ("%#@missing@!", "!"),
        ("%1$@ sent %2$#@count@", "%1$@ sent %2$d (%2$5.1f) %3$@ 100%%"),
    ])
    func plainTextPicksOtherTheWidestAndTheOtherDevice(format: String, expected: String) {
        let entry = StringsdictEntry(format: format, variables: [
            "a": .plural(valueType: "d", forms: [.one: "A one", .other: "A other"]),
            "w": .variableWidth([10: "narrow", 40: "wide"]),
            "d": .deviceSpecific(["ipad": "iPad", "other": "tablet"]),
            "nest": .plural(valueType: "d", forms: [.other: "outer %#@a@"]),
            "count": .plural(valueType: "d", forms: [.other: "%d (%5.1f) %3$@ 100%%"]),
        ])
        #expect(entry.plainText == expected)
        #expect(LocalizedValue.rule(entry).plainText == expected)
    }
}
