import Foundation
import Testing
@testable import StringsFormat

/// The printf-style formatter against Foundation's `String(format:)`, and `.stringsdict` semantics.
@Suite struct StringsdictFormatterTests {
    static func foundationFormat(_ format: String, _ arguments: [FormatArgument]) -> String {
        let cArguments: [CVarArg] = arguments.map { argument in
            switch argument {
            case .int(let value): Int(value)
            case .uint(let value): UInt(value)
            case .double(let value): value
            case .string(let text): NSString(string: text)
            }
        }
        return String(format: format, arguments: cArguments)
    }

    @Test(arguments: [
        ("%d files", [FormatArgument.int(3)]), ("%ld %lld %i", [.int(-4), .int(Int64.max), .int(-123)]),
        ("%5d|%-5d|%05d|%+d|% d", [.int(42), .int(42), .int(-42), .int(7), .int(7)]),
        ("%.3d|%8.3d|%.0d|", [.int(5), .int(-5), .int(0)]), ("%u %lu", [.uint(7), .uint(UInt64.max)]),
        ("%x %X %#x %o %#o", [.uint(255), .uint(255), .uint(255), .uint(8), .uint(8)]),
        ("%@ and %@", [.string("A"), .string("B")]), ("%10@|%-6@|", [.string("no width"), .string("on %@")]),
        ("%2$@ %1$@", [.string("world"), .string("hello")]), ("100%% of %d", [.int(3)]),
        ("%f %.2f %.0f %.1f", [.double(3.14159), .double(2.675), .double(2.5), .double(0.05)]),
        ("%.2f %.2f %.3f", [.double(0.125), .double(1.005), .double(-0.0005)]),
        ("%8.3f|%-8.2f|%08.2f|%+.1f", [.double(3.14159), .double(2.5), .double(-2.5), .double(1)]),
        ("%e %.2E %.0e", [.double(12345.678), .double(0.000123), .double(5e300)]),
        ("%g %g %g %g %G", [.double(100000), .double(1000000), .double(0.0001), .double(0.00001), .double(1.5e-7)]),
        ("%.3g %#g %g %g", [.double(3.14159), .double(2), .double(0), .double(123456789)]),
        ("%f %f", [.double(1e20), .double(.leastNonzeroMagnitude)]), ("%.15f", [.double(0.1)]),
        ("%*d|%-*d|%.*f", [.int(6), .int(42), .int(4), .int(7), .int(2), .double(1.23456)]),
        ("%c%c", [.int(72), .int(105)]), ("%hhd %hd %qd %zd", [.int(1), .int(2), .int(3), .int(4)]),
        ("%1$d %1$d %2$@", [.int(9), .string("x")]), ("ünïcødé %d ✓", [.int(1)]),
        ("%ld|%i|%d|%d", [.int(Int64.min), .int(0), .uint(UInt64.max), .int(-7)]),
    ])
    func plainSpecifiersMatchFoundation(format: String, arguments: [FormatArgument]) throws {
        let ours = try StringsdictFormatter.format(format, arguments: arguments)
        #expect(ours == Self.foundationFormat(format, arguments))
    }

    /// A number for `%@` (which crashes `String(format:)`: it wants an object) prints as its description.
    @Test func numbersForObjectSpecifiersPrintTheirDescription() throws {
        let arguments: [FormatArgument] = [.int(Int64.min), .int(-7), .uint(5), .double(1.5)]
        #expect(try StringsdictFormatter.format("%@|%@|%@|%@", arguments: arguments)
            == "-9223372036854775808|-7|5|1.5")
    }

    @Test(arguments: [
        ("%d and %d", [FormatArgument.int(1)], "'%d' needs argument 2, but only 1 were given"),
        ("%3$@", [.string("a")], "'%3$@' needs argument 3"), ("%k", [.int(1)], "unsupported format specifier '%k'"),
        ("50%", [], "incomplete specifier '%'"), ("%#@x", [.int(1)], "unterminated variable"),
        ("%#@x@", [.int(1)], "outside a stringsdict entry"), ("%é", [.int(1)], "unsupported format specifier '%é'"),
        ("%99999999999999999999$d", [.int(1)], "needs argument 1000000"),
    ])
    func badFormatsAreErrorsNamingTheSpecifier(format: String, arguments: [FormatArgument], reason: String) {
        #expect {
            try StringsdictFormatter.format(format, arguments: arguments)
        } throws: { error in
            (error as? FormatError)?.reason.contains(reason) == true
        }
    }

    static func plural(_ forms: [PluralCategory: String], type: String = "d") -> StringsdictEntry.Variable {
        .plural(valueType: type, forms: forms)
    }

    static let files = plural([.one: "%d file", .other: "%d files"])

    @Test func pluralVariablesPickTheCategoryOfTheirArgument() throws {
        let formatter = StringsdictFormatter()
        let entry = StringsdictEntry(format: "%#@files@", variables: ["files": Self.files])
        #expect(try formatter.format(entry, language: "en", arguments: [.int(1)]) == "1 file")
        #expect(try formatter.format(entry, language: "en", arguments: [.int(0)]) == "0 files")
        #expect(try formatter.format(entry, language: "fr", arguments: [.int(0)]) == "0 file")
        let words = StringsdictEntry(format: "%#@n@", variables: ["n": Self.plural([.one: "one", .other: "other"])])
        #expect(try formatter.format(words, language: "en", arguments: [.string("1.0")]) == "other")
        #expect(try formatter.format(words, language: "en", arguments: [.string("1")]) == "one")
        #expect(try formatter.format(entry, language: "en", arguments: [.double(1)]) == "1 file")
    }

    @Test func aPresentZeroWinsForZeroInEveryLanguage() throws {
        let entry = StringsdictEntry(format: "%#@n@", variables: [
            "n": Self.plural([.zero: "none", .one: "one", .other: "%d"]),
        ])
        for language in ["en", "ja", "ru", "ar", "lv"] {
            #expect(try StringsdictFormatter().format(entry, language: language, arguments: [.int(0)]) == "none")
        }
        // Latvian's own `zero` category (10, 20 …) uses the zero form too; English's `other` does not.
        #expect(try StringsdictFormatter().format(entry, language: "lv", arguments: [.int(10)]) == "none")
        #expect(try StringsdictFormatter().format(entry, language: "en", arguments: [.int(10)]) == "10")
    }

    @Test func aMissingCategoryFallsBackToOtherAndWithoutOtherIsAnError() throws {
        let entry = StringsdictEntry(format: "%#@n@", variables: ["n": Self.plural([.one: "one", .other: "%d many"])])
        #expect(try StringsdictFormatter().format(entry, language: "ru", arguments: [.int(3)]) == "3 many")
        let noOther = StringsdictEntry(format: "%#@n@", variables: ["n": Self.plural([.one: "one"])])
        #expect {
            try StringsdictFormatter().format(noOther, language: "en", arguments: [.int(2)])
        } throws: { ($0 as? FormatError)?.reason.contains("neither a 'other' nor an 'other'") == true }
    }

    @Test func severalNestedAndPositionalVariables() throws {
        let entry = StringsdictEntry(format: "%#@files@ in %#@folders@", variables: [
            "files": Self.files, "folders": Self.plural([.one: "one folder", .other: "%d folders"]),
        ])
        let formatter = StringsdictFormatter()
        #expect(try formatter.format(entry, language: "en", arguments: [.int(3), .int(1)]) == "3 files in one folder")
        let positional = StringsdictEntry(format: "%2$#@folders@, %1$#@files@", variables: entry.variables)
        #expect(try formatter.format(positional, language: "en", arguments: [.int(1), .int(5)])
            == "5 folders, 1 file")
        let nested = StringsdictEntry(format: "%#@people@", variables: [
            "people": Self.plural([.one: "%@ and %#@others@", .other: "%d people"], type: "@"),
            "others": Self.plural([.one: "one other", .other: "%d others"]),
        ])
        #expect(try formatter.format(nested, language: "en", arguments: [.string("1"), .int(4)])
            == "1 and 4 others")
        let undefined = StringsdictEntry(format: "%#@missing@", variables: [:])
        #expect(throws: FormatError.self) { try formatter.format(undefined, language: "en", arguments: [.int(1)]) }
        let loop = StringsdictEntry(format: "%#@a@", variables: ["a": Self.plural([.other: "%#@a@"])])
        #expect(throws: FormatError.self) {
            try formatter.format(loop, language: "en", arguments: Array(repeating: .int(1), count: 40))
        }
    }

    @Test func widthAndDeviceRulesPickByConfiguration() throws {
        let entry = StringsdictEntry(format: "%#@w@ on %#@d@", variables: [
            "w": .variableWidth([1: "S", 20: "Medium", 50: "A much longer text"]),
            "d": .deviceSpecific(["iphone": "iPhone", "mac": "Mac", "other": "device"]),
        ])
        let arguments: [FormatArgument] = [.int(0), .int(0)]
        #expect(try StringsdictFormatter().format(entry, language: "en", arguments: arguments)
            == "A much longer text on device")
        #expect(try StringsdictFormatter(device: "mac", width: 25).format(entry, language: "en", arguments: arguments)
            == "Medium on Mac")
        #expect(try StringsdictFormatter(device: "ipad", width: 0).format(entry, language: "en", arguments: arguments)
            == "S on device")
    }

    /// Real entries of element-x-ios, read from the corpus, formatted per language.
    @Test(arguments: [
        ("ru", "common_member_count", 1, "1 участник"), ("ru", "common_member_count", 3, "3 участников"),
        ("ru", "common_member_count", 11, "11 участников"), ("ru", "a11y_digits_entered", 22, "Введено 22 цифры"),
        ("en", "common_member_count", 1, "1 Member"), ("en", "common_member_count", 2, "2 Members"),
    ])
    func corpusEntriesFormatPerLanguage(language: String, key: String, count: Int, expected: String) throws {
        guard let root = CorpusConformanceTests.corpusRoot else { try Test.cancel("the shared corpus is absent") }
        let file = root.appendingPathComponent(
            "element-x-ios/ElementX/Resources/Localizations/\(language).lproj/Localizable.stringsdict")
        let entries = try StringsdictEntry.entries(of: XMLPropertyList.parse(Array(Data(contentsOf: file))))
        let entry = try #require(entries[key])
        #expect(try StringsdictFormatter().format(entry, language: language, arguments: [.int(Int64(count))])
            == expected)
    }

    @Test func everyCorpusStringsdictReadsAsEntries() throws {
        let files = try XMLPropertyListTests.stringsdictFiles()
        var count = 0
        for file in files {
            count += try StringsdictEntry.entries(of: XMLPropertyList.parse(Array(Data(contentsOf: file)))).count
        }
        #expect(count > 500)
    }
}
