import HotStringsTestSupport
import Testing
@testable import StringsFormat

/// The judgement of a translation's format specifiers against the development language's, by argument position
/// and class (`FormatSpecifiers.problems(of:against:developmentLanguage:)`), on the table every path is tested
/// with (`SpecifierCases`).
@Suite struct SpecifierJudgementTests {
    static func problems(_ value: StringsdictEntry, against development: StringsdictEntry?,
                         catalogKey: String? = nil) -> [SpecifierCase.Problem] {
        FormatSpecifiers.problems(of: value, against: development, catalogKey: catalogKey, developmentLanguage: "en")
            .map { SpecifierCase.Problem($0.severity.rawValue, $0.reason, place: $0.place.description) }
    }

    static func entry(_ key: String, in text: String) throws -> StringsdictEntry {
        try #require(try StringsdictFile.parse(text: text)[key])
    }

    @Test(arguments: SpecifierCases.plain.map(\.key))
    func plainValues(key: String) throws {
        let table = try #require(SpecifierCases.plain.first { $0.key == key })
        let found = Self.problems(StringsdictEntry(format: table.german, variables: [:]),
                                  against: StringsdictEntry(format: table.english, variables: [:]))
        #expect(found == table.problems)
    }

    @Test(arguments: SpecifierCases.forms.map(\.key))
    func pluralForms(key: String) throws {
        let table = try #require(SpecifierCases.forms.first { $0.key == key })
        let german = try Self.entry(key, in: SpecifierCases.stringsdict([
            SpecifierCases.germanEntry(key, form: table.form, text: table.german),
        ]))
        let english = try Self.entry(key, in: SpecifierCases.stringsdict([SpecifierCases.englishEntry(key)]))
        #expect(Self.problems(german, against: english) == table.problems)
    }

    /// A translation's variables are matched to the development language's by argument, not by name, and a
    /// plain text against a rule the same way.
    @Test func valuesAndRulesCompareByArgument() throws {
        let english = try Self.entry("k", in: SpecifierCases.stringsdict([SpecifierCases.englishEntry("k")]))
        let renamed = StringsdictEntry(format: "%2$#@n@ von %1$@", variables: [
            "n": .plural(valueType: "lld", forms: [.one: "eine Nachricht", .other: "%lld Nachrichten"]),
        ])
        #expect(Self.problems(renamed, against: english).isEmpty)
        #expect(Self.problems(StringsdictEntry(format: "%2$d Nachrichten von %1$@", variables: [:]), against: english)
            .isEmpty)
        #expect(Self.problems(StringsdictEntry(format: "%1$d Nachrichten von %2$@", variables: [:]), against: english)
            .map(\.severity) == ["error", "error"])
    }

    /// A value that varies by device is judged on each device, against the development language's text there.
    @Test func devicesAreJudgedEachAgainstTheirOwn() {
        let english = StringsdictEntry(format: "", variables: [:], devices: ["mac": "Click %@", "other": "Tap %d"])
        let german = StringsdictEntry(format: "", variables: [:], devices: ["mac": "Klicken %d", "other": "Tippen %d"])
        #expect(Self.problems(german, against: english) == [
            SpecifierCase.Problem("error", "'%d' takes argument 1 as an integer, where en's '%@' takes an object",
                                  place: "device 'mac'"),
        ])
        // A translation that does not vary by device is every device's text.
        #expect(Self.problems(StringsdictEntry(format: "Tippen %d", variables: [:]), against: english).map(\.place)
            == ["device 'mac'"])
    }

    /// A String Catalog's key is the format the code passes: the arguments a development text leaves out are given
    /// by it (`notifications.label.favorite %lld`: English `starred`, German by the count's plural).
    @Test func aCatalogsKeyGivesTheArgumentsTheDevelopmentTextLeavesOut() {
        let german = StringsdictEntry(format: "%#@count@", variables: [
            "count": .plural(valueType: "lld", forms: [.one: "hat favorisiert", .other: "haben favorisiert"]),
        ])
        let english = StringsdictEntry(format: "starred", variables: [:])
        #expect(Self.problems(german, against: english, catalogKey: "favorite %lld").isEmpty)
        #expect(Self.problems(german, against: english).map(\.severity) == ["warning"])
        #expect(Self.problems(StringsdictEntry(format: "%@", variables: [:]), against: english,
                              catalogKey: "favorite %lld")
            == [SpecifierCase.Problem("error", "'%@' takes argument 1 as an object, where the key's '%lld' takes an "
                                          + "integer")])
    }

    /// On its own (the development language's value), only what is wrong with the value itself is found.
    @Test func aValueOnItsOwn() {
        #expect(Self.problems(StringsdictEntry(format: "%2$@ %@ 100%", variables: [:]), against: nil) == [
            SpecifierCase.Problem("warning", "mixes positioned '%2$@' with plain '%@': the plain ones count from "
                                      + "argument 1 on their own, so write a position on each"),
            SpecifierCase.Problem("warning", "'%' is no format specifier: it takes no argument, and the value cannot "
                                      + "be formatted (write %% for a percent sign)"),
        ])
        #expect(Self.problems(StringsdictEntry(format: "100% sure", variables: [:]), against: nil).isEmpty)
    }
}

extension StringsdictEntry {
    init(format: String, variables: [String: Variable], devices: [String: String]) {
        self.init(format: format, variables: variables)
        self.devices = devices.mapValues { StringsdictEntry(format: $0, variables: [:]) }
    }
}
