import Foundation
import Testing
@testable import StringsFormat

/// The one specifier grammar (`FormatSpecifier`, CoreFoundation's `__CFParseFormatSpec`): where each specification
/// ends, what it is and which arguments it takes.
@Suite struct FormatSpecifierTests {
    /// A specification as the table writes it: its text, then what it is.
    struct Read: Equatable, CustomStringConvertible {
        var text: String
        var kind: String
        var position: Int?
        var width: FormatSpecifier.Count?
        var precision: FormatSpecifier.Count?
        var length = ""

        var description: String {
            "\(text) \(kind) position \(position.map(String.init) ?? "-") width \(String(describing: width)) "
                + "precision \(String(describing: precision)) length '\(length)'"
        }
    }

    static func read(_ text: String) -> [Read] {
        FormatSpecifier.all(in: text).map { specifier, written in
            let kind = switch specifier.kind {
            case .percent: "%"
            case .conversion(let byte): String(Unicode.Scalar(byte))
            case .variable: "variable " + (specifier.variableName(in: text) ?? "")
            case .unknown: "unknown"
            case .incomplete: "incomplete"
            case .unterminatedVariable: "unterminated"
            }
            return Read(text: written, kind: kind, position: specifier.position, width: specifier.width,
                        precision: specifier.precision, length: specifier.length.text)
        }
    }

    @Test(arguments: [
        ("%d %@ %%", [Read(text: "%d", kind: "d"), Read(text: "%@", kind: "@"), Read(text: "%%", kind: "%")]),
        ("%2$lld", [Read(text: "%2$lld", kind: "d", position: 2, length: "ll")]),
        ("%-08.3f", [Read(text: "%-08.3f", kind: "f", width: .fixed(8), precision: .fixed(3))]),
        ("%*d", [Read(text: "%*d", kind: "d", width: .argument(position: nil))]),
        ("%1$*2$.*3$d", [Read(text: "%1$*2$.*3$d", kind: "d", position: 1, width: .argument(position: 2),
                              precision: .argument(position: 3))]),
        ("%.f %.*s", [Read(text: "%.f", kind: "f", precision: .fixed(0)),
                      Read(text: "%.*s", kind: "s", precision: .argument(position: nil))]),
        ("%hhd %hd %ld %qd %Lf %zu %td %jd", [
            Read(text: "%hhd", kind: "d", length: "hh"), Read(text: "%hd", kind: "d", length: "h"),
            Read(text: "%ld", kind: "d", length: "l"), Read(text: "%qd", kind: "d", length: "q"),
            Read(text: "%Lf", kind: "f", length: "L"), Read(text: "%zu", kind: "u", length: "z"),
            Read(text: "%td", kind: "d", length: "t"), Read(text: "%jd", kind: "d", length: "j"),
        ]),
        ("%D%U%O%C%S%p%n%P%a%A", "DUOCSpnPaA".map { Read(text: "%\($0)", kind: String($0)) }),
        // Flags, width and length in any order, as CoreFoundation reads them.
        ("%5-d", [Read(text: "%5-d", kind: "d", width: .fixed(5))]),
        ("%#@files@ %2$#@n@", [Read(text: "%#@files@", kind: "variable files"),
                               Read(text: "%2$#@n@", kind: "variable n", position: 2)]),
        // `50% off`: a space flag and an octal conversion, as printf reads it.
        ("50% off", [Read(text: "% o", kind: "o")]),
        ("%k %é %'d", [Read(text: "%k", kind: "unknown"), Read(text: "%é", kind: "unknown"),
                       Read(text: "%'", kind: "unknown")]),
        ("100%", [Read(text: "%", kind: "incomplete")]),
        ("%1$", [Read(text: "%1$", kind: "incomplete", position: 1)]),
        ("%#@open", [Read(text: "%#@open", kind: "unterminated")]),
        ("%99999999999$d", [Read(text: "%99999999999$d", kind: "d", position: FormatSpecifier.maximumCount)]),
    ] as [(String, [Read])])
    func specificationsAreReadAsCoreFoundationReadsThem(text: String, expected: [Read]) {
        #expect(Self.read(text) == expected)
    }

    /// The arguments each specifier takes: positioned ones their position, the others counting on from 1 (a `*`
    /// before its conversion); in a variable's text the plain ones its argument.
    @Test func argumentsAreNumberedAsStringFormatNumbersThem() throws {
        func arguments(_ text: String) -> [String] {
            FormatSpecifiers.arguments(of: StringsdictEntry(format: text, variables: [:])).map {
                "\($0.argument):\($0.argumentClass.map { "\($0)" } ?? "-")"
            }
        }
        #expect(arguments("%@ %d %f") == ["1:object", "2:integer", "3:floating"])
        #expect(arguments("%2$d %1$@") == ["2:integer", "1:object"])
        #expect(arguments("%*.*f %s") == ["1:integer", "2:integer", "3:floating", "4:cString"])
        #expect(arguments("%2$@ %d") == ["2:object", "1:integer"])
        #expect(arguments("%u %x %c %p %% %k") == ["1:unsigned", "2:unsigned", "3:character", "4:pointer"])
        let entry = StringsdictEntry(format: "%1$@: %#@files@ in %#@folders@", variables: [
            "files": .plural(valueType: "lld", forms: [.one: "a file", .other: "%lld files of %1$@"]),
            "folders": .plural(valueType: "", forms: [.other: "%d folders"]),
        ])
        let uses = FormatSpecifiers.arguments(of: entry).map { "\($0.argument):\($0.specifier)@\($0.place)" }
        #expect(uses == [
            "1:%1$@@\(TextPlace())", "1:%#@files@@\(TextPlace())",
            "1:%lld@\(TextPlace(variable: "files", form: "other"))",
            "1:%1$@@\(TextPlace(variable: "files", form: "other"))", "2:%#@folders@@\(TextPlace())",
            "2:%d@\(TextPlace(variable: "folders", form: "other"))",
        ])
    }

    /// Ways the grammar reads a `%` format as Foundation's `String(format:)` does: what is checked is what runs.
    @Test(arguments: [
        ("%1$*2$d|", [FormatArgument.int(42), .int(6)]), ("%2$*1$d|%2$-*1$d|", [.int(5), .int(3)]),
        ("%.*f", [.int(2), .double(3.14159)]), ("% 5d|%+.2d", [.int(3), .int(4)]), ("%C", [.int(65)]),
    ])
    func readingsFormatAsFoundationFormats(format: String, arguments: [FormatArgument]) throws {
        #expect(try StringsdictFormatter.format(format, arguments: arguments)
            == StringsdictFormatterTests.foundationFormat(format, arguments))
    }

    /// Apple's `%D %U %O` (long integers; glibc has none, so Foundation on Linux prints them as text) and `%S`
    /// format; `%p`, `%P` and `%n`, addresses, and what is no conversion (`%'d`: CoreFoundation has no `'` flag)
    /// are errors naming them.
    @Test func appleConversionsFormatAndAddressesAreRefused() throws {
        let arguments: [FormatArgument] = [.int(-3), .uint(10), .uint(8), .string("s")]
        #expect(try StringsdictFormatter.format("%D %U %O %S", arguments: arguments)
            == "-3 10 10 s")
        for (format, named) in [("%p", "%p"), ("%n", "%n"), ("%5P", "%5P"), ("%'d", "%'")] {
            #expect {
                try StringsdictFormatter.format(format, arguments: [.int(1)])
            } throws: { ($0 as? FormatError)?.reason == "unsupported format specifier '\(named)'" }
        }
    }
}
