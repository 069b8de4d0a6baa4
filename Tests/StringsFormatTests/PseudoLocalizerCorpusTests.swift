import Foundation
import HotStringsTestTraits
import Testing
@testable import StringsFormat

/// Every value of the shared corpus (`.strings`, `.stringsdict`, the IceCubesApp catalog) keeps its printf
/// specifiers, `%#@name@` references and markup, in order, after both pseudo-languages, as found by patterns
/// written here independently of `PseudoText`.
@Suite struct PseudoLocalizerCorpusTests {
    /// Specifiers and references: `%[n$][flags][width][.precision][length]conversion`, `%[n$]#@name@`.
    static let specifier = try! NSRegularExpression(pattern:
        #"%(?:[0-9]+\$)?[-+ 0#']*(?:#@[^@]*@|(?:\*(?:[0-9]+\$)?|[0-9]+)?(?:\.(?:\*(?:[0-9]+\$)?|[0-9]*))?"#
            + #"(?:hh|h|ll|l|q|L|z|t|j)*[@dDiuUxXoOfFeEgGcCsSaAp%])"#)
    /// Tags, entities and innermost `{…}`.
    static let markup = try! NSRegularExpression(pattern: #"<[A-Za-z/!?][^>]*>|&[#A-Za-z0-9]+;|\{[^{}]*\}"#)

    static func matches(_ pattern: NSRegularExpression, in text: String) -> [String] {
        let range = NSRange(text.startIndex..., in: text)
        return pattern.matches(in: text, range: range).map { String(text[Range($0.range, in: text)!]) }
    }

    /// Every text of a rule: its format, each variable's texts, each device's.
    static func texts(of entry: StringsdictEntry) -> [String] {
        var texts = [entry.format]
        for (_, variable) in entry.variables.sorted(by: { $0.key < $1.key }) {
            switch variable {
            case .plural(_, let forms): texts += forms.sorted { $0.key < $1.key }.map(\.value)
            case .variableWidth(let widths): texts += widths.sorted { $0.key < $1.key }.map(\.value)
            case .deviceSpecific(let devices): texts += devices.sorted { $0.key < $1.key }.map(\.value)
            }
        }
        for (_, device) in entry.devices.sorted(by: { $0.key < $1.key }) { texts += self.texts(of: device) }
        return texts
    }

    /// The keys and value types of a rule, which must not change.
    static func shape(of entry: StringsdictEntry) -> [String] {
        entry.variables.sorted { $0.key < $1.key }.map { name, variable in
            switch variable {
            case .plural(let valueType, let forms): "\(name) plural \(valueType) \(forms.keys.sorted())"
            case .variableWidth(let widths): "\(name) width \(widths.keys.sorted())"
            case .deviceSpecific(let devices): "\(name) device \(devices.keys.sorted())"
            }
        } + entry.devices.keys.sorted().flatMap { ["device \($0)"] + shape(of: entry.devices[$0]!) }
    }

    /// The corpus's tables: every `.strings` and `.stringsdict` file, and the catalog in each of its languages.
    static func tables() throws -> [(name: String, content: TableContent)] {
        guard let root = CorpusConformanceTests.corpusRoot,
              let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else {
            return []
        }
        var tables: [(String, TableContent)] = []
        for case let file as URL in enumerator {
            switch file.pathExtension {
            case "strings":
                guard let table = try? StringsFile.parse(Array(try Data(contentsOf: file))) else { continue }
                tables.append((file.path, TableContent(strings: table)))
            case "stringsdict":
                guard let rules = try? StringsdictFile.parse(Array(try Data(contentsOf: file))) else { continue }
                tables.append((file.path, TableContent(rules: rules)))
            case "xcstrings":
                let catalog = try StringCatalog.parse(Array(try Data(contentsOf: file)))
                for language in catalog.languages.sorted() {
                    tables.append(("\(file.path) \(language)", catalog.compiled(language: language)))
                }
            default:
                continue
            }
        }
        return tables
    }

    @Test(.needsCorpus)
    func everyValueKeepsItsSpecifiersAndMarkup() throws {
        let tables = try Self.tables()
        #expect(tables.count > 900)
        var values = 0
        var changed = 0
        var failures: [String] = []
        for (name, content) in tables {
            for localizer in PseudoLocalizer.allCases {
                let result = localizer.transform(content)
                #expect(result.keys == content.keys, "\(name)")
                for (key, value) in content.entries {
                    let pairs: [(String, String)]
                    switch (value, result[key]) {
                    case (.string(let text), .string(let transformed)?):
                        pairs = [(text, transformed)]
                    case (.rule(let entry), .rule(let transformed)?):
                        guard Self.shape(of: entry) == Self.shape(of: transformed) else {
                            failures.append("\(name) \(key): the rule's shape changed")
                            continue
                        }
                        pairs = Array(zip(Self.texts(of: entry), Self.texts(of: transformed)))
                    default:
                        failures.append("\(name) \(key): the value's kind changed")
                        continue
                    }
                    for (text, transformed) in pairs {
                        values += 1
                        if text != transformed { changed += 1 }
                        for pattern in [Self.specifier, Self.markup]
                        where Self.matches(pattern, in: text) != Self.matches(pattern, in: transformed) {
                            failures.append("\(name) \(key) \(localizer): \(text.debugDescription) → "
                                            + transformed.debugDescription)
                        }
                        if PseudoText(text).tokens != PseudoText(transformed).tokens {
                            failures.append("\(name) \(key) \(localizer): tokens differ in \(text.debugDescription)")
                        }
                    }
                }
            }
        }
        print("pseudo-languages: \(values) texts of \(tables.count) tables, \(changed) changed, all specifiers kept")
        #expect(values > 100_000)
        #expect(changed > values / 2)
        #expect(failures.isEmpty, "\(failures.count) failures:\n\(failures.prefix(20).joined(separator: "\n"))")
    }
}
