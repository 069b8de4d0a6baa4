import Testing
@testable import StringsFormat

/// Small hand-made catalogs, one field at a time, and bad input.
@Suite struct StringCatalogTests {
    static func parse(_ text: String) throws -> StringCatalog {
        try StringCatalog.parse(Array(text.utf8))
    }

    static func parseError(_ text: String) -> ParseError? {
        do {
            _ = try StringCatalog.parse(Array(text.utf8))
            return nil
        } catch {
            return error
        }
    }

    @Test func entryFieldsAndLocations() throws {
        let catalog = try Self.parse("""
            {
              "sourceLanguage" : "en",
              "strings" : {
                "Hello" : {
                  "comment" : "A greeting",
                  "extractionState" : "manual",
                  "localizations" : {
                    "de" : { "stringUnit" : { "state" : "translated", "value" : "Hallo" } }
                  }
                },
                "Brand" : { "shouldTranslate" : false, "futureField" : [1, {"x": null}] }
              },
              "version" : "1.0"
            }
            """)
        #expect(catalog.sourceLanguage == "en")
        #expect(catalog.version == "1.0")
        #expect(catalog.entries.map(\.key) == ["Hello", "Brand"])
        let hello = catalog.entries[0]
        #expect(hello.comment == "A greeting")
        #expect(hello.extractionState == "manual")
        #expect(hello.shouldTranslate)
        #expect(hello.location == SourceLocation(line: 4, column: 5))
        #expect(hello.localizations["de"] == .text("Hallo"))
        #expect(catalog.entries[1].shouldTranslate == false)
        #expect(catalog.entries[1].location == SourceLocation(line: 11, column: 5))
        #expect(catalog.languages == ["en", "de"])
        // The source language serves the key where it has no localization.
        #expect(catalog.compiled(language: "en").strings.dictionary == ["Hello": "Hello", "Brand": "Brand"])
        #expect(catalog.compiled(language: "de").strings.dictionary == ["Hello": "Hallo"])
        #expect(catalog.compiled(language: "de").strings.entries.first?.comment == "A greeting")
    }

    @Test func everyStateIsServed() throws {
        let catalog = try Self.parse("""
            {"sourceLanguage":"en","strings":{
              "a":{"localizations":{"fr":{"stringUnit":{"state":"translated","value":"A"}}}},
              "b":{"localizations":{"fr":{"stringUnit":{"state":"needs_review","value":"B"}}}},
              "c":{"localizations":{"fr":{"stringUnit":{"state":"new","value":"C"}}}},
              "d":{"localizations":{"fr":{"stringUnit":{"state":"stale","value":"D"}}}},
              "e":{"extractionState":"stale","localizations":{"fr":{"stringUnit":{"value":"E"}}}}
            }}
            """)
        let served = ["a": "A", "b": "B", "c": "C", "d": "D", "e": "E"]
        #expect(catalog.compiled(language: "fr").strings.dictionary == served)
        let states = catalog.entries.map { $0.localizations["fr"]?.stringUnit?.state }
        #expect(states == [.translated, .needsReview, .new, .stale, nil])
    }

    @Test func pluralVariationsBecomeAPluralVariable() throws {
        let catalog = try Self.parse("""
            {"sourceLanguage":"en","strings":{"%lld files":{"localizations":{"en":{"variations":{"plural":{
              "one":{"stringUnit":{"state":"translated","value":"%lld file"}},
              "other":{"stringUnit":{"state":"translated","value":"%lld files"}}}}}}}}}
            """)
        let rule = try #require(catalog.compiled(language: "en").rules["%lld files"])
        #expect(rule == StringsdictEntry(format: "%#@plural@", variables: [
            "plural": .plural(valueType: "lld", forms: [.one: "%lld file", .other: "%lld files"]),
        ]))
        #expect(try StringsdictFormatter().format(rule, language: "en", arguments: [.int(2)]) == "2 files")
    }

    @Test func aPositionedPluralTakesItsPosition() throws {
        let catalog = try Self.parse("""
            {"sourceLanguage":"en","strings":{"k":{"localizations":{"en":{"variations":{"plural":{
              "one":{"stringUnit":{"value":"%1$@ has %2$d file"}},
              "other":{"stringUnit":{"value":"%1$@ has %2$d files"}}}}}}}}}
            """)
        let rule = try #require(catalog.compiled(language: "en").rules["k"])
        #expect(rule.format == "%2$#@plural@")
        #expect(try StringsdictFormatter().format(rule, language: "en", arguments: [.string("Ann"), .int(1)])
            == "Ann has 1 file")
    }

    @Test func substitutionsBecomeVariablesWithTheirArguments() throws {
        let catalog = try Self.parse("""
            {"sourceLanguage":"en","strings":{"k":{"localizations":{"de":{
              "stringUnit":{"state":"translated","value":"%#@people@ in %#@rooms@"},
              "substitutions":{
                "rooms":{"argNum":1,"formatSpecifier":"lld","variations":{"plural":{
                  "one":{"stringUnit":{"value":"einem Raum"}},"other":{"stringUnit":{"value":"%arg Räumen"}}}}},
                "people":{"argNum":2,"formatSpecifier":"d","variations":{"plural":{
                  "one":{"stringUnit":{"value":"%arg Person"}},"other":{"stringUnit":{"value":"%arg Leute, 100%%"}}}}}
              }}}}}}
            """)
        let localization = try #require(catalog.entries[0].localizations["de"])
        #expect(localization.substitutions["rooms"]?.argumentNumber == 1)
        #expect(localization.substitutions["people"]?.formatSpecifier == "d")
        let rule = try #require(catalog.compiled(language: "de").rules["k"])
        #expect(rule.format == "%2$#@people@ in %1$#@rooms@")
        #expect(rule.variables["rooms"] == .plural(valueType: "lld", forms: [
            .one: "einem Raum", .other: "%1$lld Räumen",
        ]))
        #expect(rule.variables["people"] == .plural(valueType: "d", forms: [.one: "%2$d Person",
                                                                             .other: "%2$d Leute, 100%%"]))
        #expect(try StringsdictFormatter().format(rule, language: "de", arguments: [.int(3), .int(1)])
            == "1 Person in 3 Räumen")
    }

    @Test func deviceVariationsAndNesting() throws {
        let catalog = try Self.parse("""
            {"sourceLanguage":"en","strings":{
              "tap":{"localizations":{"en":{"variations":{"device":{
                "iphone":{"stringUnit":{"value":"Tap"}},"mac":{"stringUnit":{"value":"Click"}},
                "other":{"variations":{"plural":{"one":{"stringUnit":{"value":"%d item"}},
                                                 "other":{"stringUnit":{"value":"%d items"}}}}}}}}}},
              "n":{"localizations":{"en":{"variations":{"plural":{
                "one":{"variations":{"device":{"mac":{"stringUnit":{"value":"one Mac"}},
                                               "other":{"stringUnit":{"value":"one thing"}}}}},
                "other":{"stringUnit":{"value":"%d things"}}}}}}}
            }}
            """)
        let compiled = catalog.compiled(language: "en")
        let tap = try #require(compiled.rules["tap"])
        #expect(tap.devices["iphone"] == StringsdictEntry(format: "Tap", variables: [:]))
        #expect(LocalizedValue.rule(tap).plainText == "%d items")  // what a client that knows only strings gets
        #expect(try StringsdictFormatter(device: "mac").format(tap, language: "en", arguments: [.int(1)]) == "Click")
        #expect(try StringsdictFormatter(device: "ipad").format(tap, language: "en", arguments: [.int(4)]) == "4 items")
        // A plural varying by device inside: the device goes on top, a plural inside each.
        let things = try #require(compiled.rules["n"])
        #expect(Set(things.devices.keys) == ["mac", "other"])
        #expect(things.devices["mac"]?.variables["plural"] == .plural(valueType: "d", forms: [
            .one: "one Mac", .other: "%d things",
        ]))
        #expect(try StringsdictFormatter(device: "iphone").format(things, language: "en", arguments: [.int(1)])
            == "one thing")
    }

    @Test func localizationsWithoutTextAreLeftOut() throws {
        let catalog = try Self.parse("""
            {"sourceLanguage":"en","strings":{"k":{"localizations":{"fr":{}}}}}
            """)
        #expect(catalog.compiled(language: "fr").strings.isEmpty)
        #expect(catalog.compiled(language: "fr").rules.isEmpty)
        #expect(catalog.compiled(language: "en").strings.dictionary == ["k": "k"])
    }

    @Test func aRepeatedKeyKeepsItsLastDefinitionInTheFirstPlace() throws {
        let catalog = try Self.parse("""
            {"sourceLanguage":"en","strings":{"a":{"comment":"1"},"b":{},"a":{"comment":"2"}}}
            """)
        #expect(catalog.entries.map(\.key) == ["a", "b"])
        #expect(catalog.entries[0].comment == "2")
    }

    @Test func aByteOrderMarkIsSkipped() throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array(#"{"sourceLanguage":"en","strings":{}}"#.utf8)
        #expect(try StringCatalog.parse(bytes).sourceLanguage == "en")
    }

    /// A catalog whose key `k` has the German localization `localization` (and the closing braces).
    static func de(_ localization: String) -> String {
        #"{"sourceLanguage":"en","strings":{"k":{"localizations":{"de":"# + localization
    }

    static let invalid: [(String, String, Int, Int)] = [
        ("", "a catalog is a JSON object", 1, 1),
        ("[]", "a catalog is a JSON object", 1, 1),
        (#"{"strings":{}}"#, "the catalog has no 'sourceLanguage'", 1, 1),
        (#"{"sourceLanguage":"en"}"#, "the catalog has no 'strings'", 1, 1),
        (#"{"sourceLanguage":1,"strings":{}}"#, "'sourceLanguage' must be a string", 1, 19),
        ("{\"sourceLanguage\":\"en\",\n\"strings\":[]}", "strings must be a JSON object", 2, 11),
        (#"{"sourceLanguage":"en","strings":{"k":{"comment":5}}}"#, "'comment' must be a string", 1, 50),
        (#"{"sourceLanguage":"en","strings":{"k":{"shouldTranslate":"no"}}}"#,
         "'shouldTranslate' must be true or false", 1, 58),
        (de(#"{"stringUnit":{"state":"new"}}}}}}"#),
         "the string unit has no 'value'", 1, 77),
        (de(#"{"stringUnit":{"value":null}}}}}}"#),
         "'value' must be a string", 1, 85),
        (de(#"{"variations":{"plural":{"lots":{}}}}}}}}"#),
         "'lots' is not a plural category (zero, one, two, few, many, other)", 1, 87),
        (de(#"{"variations":{"width":{}}}}}}}"#),
         "unknown variation 'width' (a build knows 'plural' and 'device')", 1, 77),
        (de(#"{"variations":{}}}}}}"#),
         "'variations' is empty", 1, 77),
        (de(#"{"variations":{"plural":{},"device":{}}}}}}}"#),
         "'variations' may vary by one thing at a time, not also by 'device'", 1, 89),
        (de(#"{"variations":{"plural":{"one":{"variations":{"plural":{}}}}}}}}}}"#),
         "a 'plural' variation inside a 'plural' variation", 1, 108),
        (de(#"{"substitutions":{"s":{"argNum":0}}}}}}}"#),
         "'argNum' must be an integer from 1 to 1000", 1, 94),
        (de(#"{"substitutions":{"s":{"variations":{"device":{}}}}}}}}}"#),
         "a substitution varies by plural only, not by 'device'", 1, 99),
        (de("{\"stringUnit\":\n  {\"value\":\"x\"}}},}}}"),
         "expected a member name", 2, 19),
        ("{\"sourceLanguage\":\"en\",\n\"strings\":{\"ü\":{\"comment\":\"a\u{1}\"}}}",
         "control character in string", 2, 29),
    ]

    @Test("bad catalogs are errors at the right line and column", arguments: invalid)
    func rejects(text: String, reason: String, line: Int, column: Int) throws {
        let error = try #require(Self.parseError(text))
        #expect(error.reason == reason)
        #expect(error.line == line)
        #expect(error.column == column)
    }

    @Test func invalidUTF8IsReportedWhereverItIsAndBeforeAnyOtherError() throws {
        let valid = Array(#"{"sourceLanguage":"en","strings":{"k":{"comment":"é"}}}"#.utf8)
        let comment = valid.firstIndex(of: 0xC3)!
        // In a string, cut short; then with a JSON error before it: the UTF-8 error is the one reported.
        var cut = valid
        cut.remove(at: comment + 1)
        var both = cut
        both[1] = UInt8(ascii: "x")
        for bytes in [cut, both] {
            do {
                _ = try StringCatalog.parse(bytes)
                Issue.record("read invalid UTF-8")
            } catch {
                #expect(error.reason.hasPrefix("not UTF-8 text"), "\(error)")
                #expect(error.byteOffset == comment)
            }
        }
        #expect(try StringCatalog.parse(valid).entries.first?.comment == "é")
    }

    @Test func truncationsOfAValidCatalogAreErrors() throws {
        let text = Array("""
            {"sourceLanguage":"en","strings":{"k":{"comment":"c","localizations":{"de":{"variations":{"plural":{
              "one":{"stringUnit":{"state":"translated","value":"x"}}}}}}}},"version":"1.0"}
            """.utf8)
        #expect(throws: Never.self) { try StringCatalog.parse(text) }
        for length in 0..<text.count {
            #expect(throws: ParseError.self) { try StringCatalog.parse(Array(text[..<length])) }
        }
    }

    @Test func deepNestingAndGarbageAreErrorsNotCrashes() {
        let deepArrays = Array(#"{"sourceLanguage":"en","strings":{},"x":"#.utf8)
            + [UInt8](repeating: 0x5B, count: 1 << 20)
        #expect(throws: ParseError.self) { try StringCatalog.parse(deepArrays) }
        var deepVariations = #"{"sourceLanguage":"en","strings":{"k":{"localizations":{"de":"#
        for _ in 0..<10_000 { deepVariations += #"{"variations":{"plural":{"one":"# }
        #expect(throws: ParseError.self) { try Self.parse(deepVariations) }
        var generator = SystemRandomNumberGenerator()
        let garbage = (0..<(16 << 20)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        #expect(throws: ParseError.self) { try StringCatalog.parse(garbage) }
        let openStrings = Array(#"{"sourceLanguage":"en","strings":{"k":""#.utf8)
            + [UInt8](repeating: UInt8(ascii: "a"), count: 16 << 20)
        #expect(throws: ParseError.self) { try StringCatalog.parse(openStrings) }
    }
}
