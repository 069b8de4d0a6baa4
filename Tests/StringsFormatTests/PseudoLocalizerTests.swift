import Testing
@testable import StringsFormat

/// `en-XA` and `ar-XB` (docs/FORMAT.md): exact outputs, the padding rule, and what they must keep.
@Suite struct PseudoLocalizerTests {
    static let rlo = "\u{202E}"
    static let pdf = "\u{202C}"

    /// (source, en-XA, ar-XB), written out by hand from the mapping in docs/FORMAT.md.
    static let cases: [(String, String, String)] = [
        ("Hello", "[Ĥéļļö one two]", "\(rlo)Hello\(pdf)"),
        ("%d files", "[%d ƒîļéš one two]", "%d \(rlo)files\(pdf)"),
        ("Delete <b>%@</b>?", "[Ðéļéţé <b>%@</b>¿ one two]", "\(rlo)Delete\(pdf) <b>%@</b>?"),
        ("Hi {name} &amp; %1$@, 100%% done", "[Ĥî {name} &amp; %1$@, 100%% ðöñé one two]",
         "\(rlo)Hi\(pdf) {name} &amp; %1$@, \(rlo)100\(pdf)%% \(rlo)done\(pdf)"),
        ("You have %2$lld new messages in %1$@",
         "[Ýöû ĥåVé %2$lld ñéŵ ḿéššåĝéš îñ %1$@ one two three]",
         "\(rlo)You\(pdf) \(rlo)have\(pdf) %2$lld \(rlo)new\(pdf) \(rlo)messages\(pdf) \(rlo)in\(pdf) %1$@"),
        // A backslash sequence the text holds (a value's escapes are already resolved) is kept whole.
        (#"Path\nName"#, #"[Þåţĥ\nÑåḿé one two]"#, "\(rlo)Path\(pdf)\\n\(rlo)Name\(pdf)"),
        // No letters: kept as it is (a text of only specifiers and references is not wrapped).
        ("%-5s|%.2f|%*d|%%|%#@files@", "%-5s|%.2f|%*d|%%|%#@files@", "%-5s|%.2f|%*d|%%|%#@files@"),
        ("", "", ""),
        // `% o` is a specifier (flag space, conversion o), as printf reads it; `a < b` is no tag.
        ("50% off, a < b", "[50% oƒƒ, å < ɓ one]",
         "\(rlo)50\(pdf)% o\(rlo)ff\(pdf), \(rlo)a\(pdf) < \(rlo)b\(pdf)"),
        ("Quiz: x? F!", "[qûîž: \u{445}¿ F¡ one two]", "\(rlo)Quiz\(pdf): \(rlo)x\(pdf)? \(rlo)F\(pdf)!"),
        // Ending inside a specifier (corpus: ja `総投票数うち%1$d%`): padding would make `% o` a specifier.
        ("Done 100%", "Ðöñé 100%", "\(rlo)Done\(pdf) \(rlo)100\(pdf)%"),
        ("Grüße 日本", "[Ĝŕüßé 日本 one two]", "\(rlo)Grüße\(pdf) \(rlo)日本\(pdf)"),
    ]

    @Test(arguments: cases)
    func handWrittenCases(source: String, accented: String, bidirectional: String) {
        #expect(PseudoLocalizer.accented.transform(source) == accented)
        #expect(PseudoLocalizer.bidirectional.transform(source) == bidirectional)
    }

    @Test func theLanguagesAreEnXAAndArXB() {
        #expect(PseudoLocalizer.accented.language.identifier == "en-XA")
        #expect(PseudoLocalizer.bidirectional.language.identifier == "ar-XB")
        #expect(PseudoLocalizer(language: LanguageTag("en_xa")!) == .accented)
        #expect(PseudoLocalizer(language: LanguageTag("ar-XB")!) == .bidirectional)
        #expect(PseudoLocalizer(language: LanguageTag("en")!) == nil)
    }

    /// Whole words, at least `min(letters, 10)` characters and enough for `⌈1.3 × length⌉` with the brackets, and no
    /// word more than needed.
    @Test func paddingIsTheLeastWholeWordsReachingTheTarget() {
        for letters in 1...400 {
            for length in [letters, letters + 7, letters * 2, letters * 3] {
                let padding = PseudoLocalizer.padding(letters: letters, length: length)
                let wanted = max(Int((Double(length) * 1.3).rounded(.up)) - length - 2, min(letters, 10))
                #expect(padding.utf8.count >= wanted, "\(letters), \(length)")
                let shorter = padding[..<(padding.lastIndex(of: " ") ?? padding.startIndex)]
                #expect(shorter.utf8.count < wanted, "\(letters), \(length): \(padding)")
                #expect(Double(length + 2 + padding.utf8.count) >= 1.3 * Double(length), "\(letters), \(length)")
            }
        }
        #expect(PseudoLocalizer.padding(letters: 100, length: 100).hasPrefix(" one two three"))
    }

    /// Issue 37's example: 54 characters, 45 of them letters, padded by 30 % of the letters made 70 characters,
    /// under 1.3 × 54 = 70.2.
    @Test func aTextWithManyNonLettersStillGrowsByThirtyPercent() {
        let source = "Expands the image. Double-tap and hold to show actions"
        let result = PseudoLocalizer.accented.transform(source)
        #expect(source.count == 54)
        #expect(10 * result.count >= 13 * source.count, "\(result.count): \(result)")
        #expect(result == "[É\u{445}þåñðš ţĥé îḿåĝé. Ðöûɓļé-ţåþ åñð ĥöļð ţö šĥöŵ åçţîöñš one two three four]")
    }

    @Test func aLongSourceGrowsByAtLeastThirtyPercent() {
        let source = String(repeating: "abcdefghij ", count: 12)
        let result = PseudoLocalizer.accented.transform(source)
        #expect(result.count - 2 >= source.count + 36)  // 120 letters: at least 36 more
        #expect(result.hasPrefix("[åɓçðéƒĝĥîĵ ") && result.hasSuffix("]"))
    }

    @Test func aRuleIsTransformedFormByForm() throws {
        let entry = StringsdictEntry(format: "%#@files@ in %1$#@folders@", variables: [
            "files": .plural(valueType: "d", forms: [.one: "%d file", .other: "%d files"]),
            "folders": .plural(valueType: "ld", forms: [.other: "%ld"]),
            "width": .variableWidth([20: "Long label", 5: "Short"]),
        ])
        let accented = PseudoLocalizer.accented.transform(entry)
        #expect(accented.format == "[%#@files@ îñ %1$#@folders@ one two]")
        #expect(accented.variables["files"] == .plural(valueType: "d", forms: [.one: "[%d ƒîļé one]",
                                                                               .other: "[%d ƒîļéš one two]"]))
        #expect(accented.variables["folders"] == .plural(valueType: "ld", forms: [.other: "%ld"]))
        #expect(accented.variables["width"] == .variableWidth([20: "[Ļöñĝ ļåɓéļ one two three]",
                                                               5: "[Šĥöŕţ one two]"]))
        let bidirectional = PseudoLocalizer.bidirectional.transform(entry)
        #expect(bidirectional.format == "%#@files@ \(Self.rlo)in\(Self.pdf) %1$#@folders@")
        #expect(bidirectional.variables["files"] == .plural(valueType: "d", forms: [
            .one: "%d \(Self.rlo)file\(Self.pdf)", .other: "%d \(Self.rlo)files\(Self.pdf)",
        ]))
    }

    @Test func deviceTextsAreTransformedToo() {
        var entry = StringsdictEntry(format: "", variables: [:])
        entry.devices = ["mac": StringsdictEntry(format: "Click", variables: [:]),
                         "other": StringsdictEntry(format: "Tap", variables: [:])]
        let result = PseudoLocalizer.accented.transform(entry)
        #expect(result.format == "")
        #expect(result.devices["mac"]?.format == "[Çļîçķ one two]")
        #expect(result.devices["other"]?.format == "[Ţåþ one]")
    }

    @Test func aTableKeepsItsKeysOrderAndComments() {
        let content = TableContent(strings: StringsTable([
            StringsEntry(key: "b", value: "Bee", comment: "insect"), StringsEntry(key: "a", value: "%@"),
        ]))
        let result = PseudoLocalizer.accented.transform(content)
        #expect(result.strings.keys == ["b", "a"])
        #expect(result.strings.entries.first?.comment == "insect")
        #expect(result["b"] == .string("[βéé one]"))
        #expect(result["a"] == .string("%@"))
    }

    @Test func tokensAreCutAsPrintfReadsThem() {
        #expect(PseudoText("a %2$-*3$.*4$lld b %#@x@ %").tokens == ["%2$-*3$.*4$lld", "%#@x@", "%"])
        #expect(PseudoText("%#@open and more").tokens == ["%#@open and more"])
        #expect(PseudoText("<a href=\"x\">go</a> &#x41; &nope {a {b}} {open").tokens
                    == ["<a href=\"x\">", "</a>", "&#x41;", "{a {b}}"])
        #expect(PseudoText("end\\").tokens == ["\\"])
    }
}
