import Foundation
import HotStringsTestSupport
import HotStringsTestTraits
import Testing
@testable import StringsFormat

/// A catalog read again after a save compiles only the keys whose JSON changed, and its tables (or its error) are
/// always exactly those of a whole read and compile.
@Suite struct CompiledCatalogTests {
    /// Every language's table as `StringCatalog.parse` and `compiled(language:)` make them, or their error.
    static func full(_ bytes: [UInt8]) -> Result<[String: TableContent], ParseError> {
        Result { () throws(ParseError) in
            let catalog = try StringCatalog.parse(bytes)
            return Dictionary(uniqueKeysWithValues: catalog.languages.map { ($0, catalog.compiled(language: $0)) })
        }
    }

    /// Reads `versions` in turn into one cache, checking each against a whole read; returns the changed languages
    /// of each read (`nil` for a read that failed).
    @discardableResult
    static func readInTurn(_ versions: [[UInt8]], into compiled: inout CompiledCatalog,
                           sourceLocation: Testing.SourceLocation = #_sourceLocation) -> [Set<String>?] {
        var changes: [Set<String>?] = []
        for (number, bytes) in versions.enumerated() {
            let before = compiled.tables
            switch full(bytes) {
            case .success(let tables):
                #expect(throws: Never.self, "version \(number)", sourceLocation: sourceLocation) {
                    try compiled.read(bytes)
                }
                #expect(compiled.tables == tables, "version \(number)", sourceLocation: sourceLocation)
                #expect(compiled.languages == (try? StringCatalog.parse(bytes).languages),
                        "version \(number)", sourceLocation: sourceLocation)
                changes.append(compiled.changedLanguages)
            case .failure(let expected):
                #expect(throws: expected, "version \(number)", sourceLocation: sourceLocation) {
                    try compiled.read(bytes)
                }
                #expect(compiled.tables == before, "the last good version stays", sourceLocation: sourceLocation)
                changes.append(nil)
            }
        }
        return changes
    }

    static func catalog(source: String = "en", _ strings: [(key: String, localizations: [String: String])])
        -> [UInt8] {
        Array(CatalogText.catalog(source: source, strings).utf8)
    }

    static let done = ("Done", ["de": CatalogText.text("Fertig"), "fr": CatalogText.text("OK")])
    static let items = ("%lld items", ["de": CatalogText.plural(["one": "%lld Eintrag", "other": "%lld Einträge"])])
    static let quit = ("Quit", ["de": CatalogText.text("Beenden"), "ja": CatalogText.text("終了")])

    @Test func editsOfASmallCatalogGiveWhatAWholeReadGives() {
        let first = Self.catalog([Self.done, Self.items, Self.quit])
        let text = String(decoding: first, as: UTF8.self)
        func edited(_ target: String, _ replacement: String) -> [UInt8] {
            Array(text.replacingOccurrences(of: target, with: replacement).utf8)
        }
        let versions: [[UInt8]] = [
            first,
            edited("Fertig", "Erledigt"),  // one value
            Self.catalog([Self.done, ("New", ["de": CatalogText.text("Neu")]), Self.items, Self.quit]),  // added
            Self.catalog([Self.done, Self.quit]),  // removed
            Self.catalog([Self.quit, Self.done, Self.items]),  // reordered
            Self.catalog(source: "de", [Self.quit, Self.done, Self.items]),  // another source language
            edited("\"Done\" : {", "\"Done\" : {\n \"comment\" : \"A button\","),  // a comment
            edited("\"Done\" : {", "\"Done\"   :\n{"),  // only the space between name and value
            edited("\"Quit\" : {", "\"D\\u006fne\" : {"),  // a key written twice, with an escape
            edited("Fertig", "\\ud83d\\ude00 \\u00e9\\n\\\"x\\\""),  // escapes and a surrogate pair
            edited("Beenden", "\\ud83d"),  // a lone surrogate: an error
            edited("終了", "x"),  // a non-ASCII value
            Array(first.dropLast(9)),  // truncated
            first.prefix(40) + [0xFF] + first.dropFirst(41),  // not UTF-8
            first,
        ]
        var compiled = CompiledCatalog()
        let changes = Self.readInTurn(versions, into: &compiled)
        #expect(changes[1] == ["de"])
        #expect(changes.last == ["ja"], "the corrupt versions left the last good one, which differs in Japanese")
    }

    @Test func editsAtEitherEndAndKeysWrittenTwiceGiveWhatAWholeReadGives() {
        // The members within the bytes both versions begin or end with are taken without being compared again:
        // edits at the first and the last member, members added or removed at either end, and keys written twice
        // (a member taken twice, or read beside one taken) must still read as a whole read reads them.
        let more = ("More", ["de": CatalogText.text("Mehr"), "fr": CatalogText.text("Plus")])
        let first = Self.catalog([Self.done, Self.items, Self.quit, more])
        let text = String(decoding: first, as: UTF8.self)
        func edited(_ target: String, _ replacement: String) -> [UInt8] {
            Array(text.replacingOccurrences(of: target, with: replacement).utf8)
        }
        let versions: [[UInt8]] = [
            first,
            edited("Fertig", "Fertig!"),  // the first member
            first,
            edited("Plus", "Davantage"),  // the last member
            Self.catalog([Self.done, Self.items, Self.quit, more, ("Last", ["de": CatalogText.text("Letzte")])]),
            Self.catalog([Self.done, Self.items, Self.quit]),  // the last removed
            Self.catalog([Self.items, Self.quit]),  // the first removed
            Self.catalog([("First", ["fr": CatalogText.text("Premier")]), Self.items, Self.quit]),  // added first
            first,
            edited("Mehr", "M\\u00e9hr \\\"\\\\\\t"),  // escapes in the last member
            first,
            edited(",\n    \"%lld items\"", " ,\n\n    \"%lld items\""),  // whitespace between members only
            edited("\"Beenden\"", "  \"Beenden\"  "),  // whitespace inside a member only
            Self.catalog([Self.done, Self.items, Self.quit, more, Self.done]),  // a member taken twice
            Self.catalog([Self.done, Self.items, Self.quit, more,
                          ("Done", ["de": CatalogText.text("Erledigt")])]),  // a kept key written again, changed
            Self.catalog([("Done", ["de": CatalogText.text("Erledigt")]), Self.items, Self.quit, more,
                          Self.done]),  // the changed one first, the kept one last
            Self.catalog([Self.done, ("Renamed", ["de": CatalogText.text("Beenden")]), Self.quit, more]),
            Self.catalog([more, Self.quit, ("Renamed", ["de": CatalogText.text("Beenden")]), Self.done]),
            Self.catalog([Self.done, Self.items, ("More", ["de": CatalogText.text("Mehr")]), more]),  // read twice
            first,
        ]
        var compiled = CompiledCatalog()
        let changes = Self.readInTurn(versions, into: &compiled)
        #expect(changes[1] == ["de"])
        #expect(changes[3] == ["fr"])
        #expect(changes[9] == ["de"])
        #expect(changes[11] == [], "only whitespace changed")
        #expect(changes[12] == [])
    }

    @Test func membersTakenInRunsFromEachEndGiveWhatAWholeReadGives() {
        // Most members of a save are taken in two runs (those within the bytes both versions begin with, and those
        // within the bytes they end with), only the ones between read: edits, additions and removals in the middle,
        // near either run's end, and a key of one run written again in the other.
        func member(_ index: Int, _ value: String? = nil) -> (key: String, localizations: [String: String]) {
            ("Key \(index)", ["de": CatalogText.text(value ?? "Wert \(index)")])
        }
        let members = (0..<30).map { member($0) }
        func with(_ change: (inout [(key: String, localizations: [String: String])]) -> Void) -> [UInt8] {
            var changed = members
            change(&changed)
            return Self.catalog(changed)
        }
        let first = Self.catalog(members)
        let versions: [[UInt8]] = [
            first,
            with { $0[15] = member(15, "Geändert") },
            with { $0[1] = member(1, "Früh") },
            with { $0[28] = member(28, "Spät") },
            with { $0.insert(member(99), at: 14) },
            with { $0.remove(at: 14) },
            with { $0[27] = member(2, "Zweimal") },  // a key of the first run again, near the end
            with { $0[2] = member(27, "Zweimal") },  // a key of the last run again, near the start
            first,
        ]
        var compiled = CompiledCatalog()
        let changes = Self.readInTurn(versions, into: &compiled)
        #expect(changes[1] == ["de"])
    }

    @Test func commonBytesAreCountedFromEachEnd() {
        let base = Array((0..<200).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        for position in [0, 1, 7, 8, 31, 32, 33, 100, 191, 199] {
            var changed = base
            changed[position] &+= 1
            base.withUnsafeBufferPointer { left in
                changed.withUnsafeBufferPointer { right in
                    #expect(CommonBytes.prefixCount(left, right) == position, "at \(position)")
                    #expect(CommonBytes.suffixCount(left, right, atMost: 200) == 199 - position, "at \(position)")
                    #expect(CommonBytes.suffixCount(left, right, atMost: 5) == min(5, 199 - position))
                }
            }
        }
        // Differences in many blocks: only the bytes after the last one count.
        var scattered = base
        for position in [3, 40, 77, 150, 160] { scattered[position] &+= 1 }
        base.withUnsafeBufferPointer { left in
            scattered.withUnsafeBufferPointer { right in
                #expect(CommonBytes.prefixCount(left, right) == 3)
                #expect(CommonBytes.suffixCount(left, right, atMost: 197) == 39)
                #expect(CommonBytes.suffixCount(left, right, atMost: 30) == 30)
            }
        }
        let longer = Array(base[..<50]) + [1, 2, 3] + Array(base[50...])
        base.withUnsafeBufferPointer { left in
            longer.withUnsafeBufferPointer { right in
                #expect(CommonBytes.prefixCount(left, right) >= 50)
                let prefix = CommonBytes.prefixCount(left, right)
                #expect(CommonBytes.suffixCount(left, right, atMost: 200 - prefix) == 200 - prefix)
                #expect(CommonBytes.prefixCount(left, left) == 200)
            }
        }
    }

    @Test func aFileReadAgainUnchangedMakesNoTableAgain() throws {
        let bytes = Self.catalog([Self.done, Self.items, Self.quit])
        var compiled = CompiledCatalog()
        try compiled.read(bytes)
        #expect(compiled.changedLanguages == ["en", "de", "fr", "ja"])
        try compiled.read(bytes)
        #expect(compiled.changedLanguages == [])
        let edited = String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "Beenden", with: "Schließen")
        try compiled.read(Array(edited.utf8))
        #expect(compiled.changedLanguages == ["de"])
        #expect(compiled.tables["de"]?.strings["Quit"] == "Schließen")
    }

    @Test func valuesChangedInPlaceStayEqualToAWholeCompileAndTheTableStaysBounded() throws {
        // A text for a text and a rule for a rule are changed in the last table; the replaced texts' bytes are
        // let go of by making the table whole again once they would double it.
        func version(_ round: Int) -> [UInt8] {
            let long = String(repeating: "Fertig \(round) ", count: 8)
            return Self.catalog([("Done", ["de": CatalogText.text(long)]), Self.quit,
                                 ("%lld items", ["de": CatalogText.plural(["one": "\(round) Eintrag",
                                                                           "other": "%lld Einträge"])])])
        }
        var compiled = CompiledCatalog()
        Self.readInTurn((0..<40).map(version), into: &compiled)
        let firstSize = try #require(Self.full(version(0)).get()["de"]).strings.utf8.count
        #expect(try #require(compiled.tables["de"]).strings.utf8.count <= 3 * firstSize)
        #expect(compiled.changedLanguages == ["de"])
        // A text that turns into a rule makes the table whole.
        Self.readInTurn([Self.catalog([("Done", ["de": CatalogText.plural(["other": "x"])]), Self.quit,
                                       ("%lld items", ["de": CatalogText.text("y")])])], into: &compiled)
    }

    @Test func errorsAreThoseOfAWholeReadWhateverWasReused() throws {
        // The second member is reused whole; the error before it and the invalid UTF-8 after it are reported as a
        // whole read reports them (invalid UTF-8 first, wherever it is).
        let good = Self.catalog([Self.done, Self.items, Self.quit])
        var compiled = CompiledCatalog()
        try compiled.read(good)
        var text = String(decoding: good, as: UTF8.self)
        text = text.replacingOccurrences(of: "\"Fertig\"", with: "\"Fertig\" x")
        let broken = Array(text.utf8)
        let invalid = broken + [0xC3, 0x28]
        for bytes in [broken, invalid] {
            guard case .failure(let expected) = Self.full(bytes) else {
                Issue.record("a whole read took a broken file")
                continue
            }
            #expect(throws: expected) { try compiled.read(bytes) }
        }
    }

    static let corpusCatalog: [UInt8]? = corpusCatalogPath.flatMap { FileManager.default.contents(atPath: $0) }
        .map(Array.init)

    @Test(.needsCorpusCatalog)
    func editsOfTheCorpusCatalogGiveWhatAWholeReadGives() throws {
        let first = try #require(Self.corpusCatalog)
        let text = String(decoding: first, as: UTF8.self)
        func edited(_ target: String, _ replacement: String) throws -> [UInt8] {
            let range = try #require(text.range(of: target), "\(target)")
            return Array(text.replacingCharacters(in: range, with: replacement).utf8)
        }
        let german = "\"value\" : \"Blockieren"
        let strings = "\"strings\" : {\n"
        let versions: [[UInt8]] = [
            first,
            try edited(german, german + " 1"),  // one German value
            try edited(german, german + " 2"),
            try edited(strings, strings + #"    "A new key" : { "comment" : "new" },"# + "\n"),  // added first
            try edited("\"sourceLanguage\" : \"en\"", "\"sourceLanguage\" : \"de\""),
            first,
            try edited(german, "\"value\" : 5"),  // a value of the wrong type
            Array(first.prefix(first.count / 2)),  // truncated
            try edited(german, german + " \u{1}"),  // a control character
            first,
        ]
        var compiled = CompiledCatalog()
        let changes = Self.readInTurn(versions, into: &compiled)
        #expect(changes[1] == ["de"])
        #expect(changes[2] == ["de"])
        #expect(changes[5]?.count == 19, "after the source language, every table is made again")
        #expect(changes[9] == [], "the corrupt versions left the last good one")
    }

    @Test(.needsCorpusCatalog)
    func removingEachTenthKeyOfTheCorpusCatalogGivesWhatAWholeReadGives() throws {
        let first = try #require(Self.corpusCatalog)
        let catalog = try StringCatalog.parse(first)
        var text = String(decoding: first, as: UTF8.self)
        // Each removed member is a key with a value that holds no `}` of its own at a line's start: Xcode writes
        // each key's closing brace as four spaces and `}` at the start of a line.
        var removed = 0
        for entry in catalog.entries.enumerated().filter({ $0.offset % 10 == 5 }).map(\.element) {
            let name = "\n    \"" + entry.key.replacingOccurrences(of: "\"", with: "\\\"") + "\" : {"
            guard let start = text.range(of: name),
                  let end = text.range(of: "\n    },", range: start.upperBound..<text.endIndex) else { continue }
            text.removeSubrange(start.lowerBound..<end.upperBound)  // the member and its comma
            removed += 1
        }
        #expect(removed > 50)
        var compiled = CompiledCatalog()
        Self.readInTurn([first, Array(text.utf8), first], into: &compiled)
    }
}
