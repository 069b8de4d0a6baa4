import StringsFormat

/// `.stringsdict` checks: each entry on its own (it can format: `other` present, every `%#@variable@` defined;
/// its plural categories fit the language), and each translation against the development language (the same
/// format specifiers: a `%d` translated as `%@` crashes apps).
extension Linter {
    /// Parses a `.stringsdict` read from `path` and checks each entry.
    func lintStringsdict(_ bytes: [UInt8], path: String) -> LintedFile {
        var file = LintedFile(path: path, place: BundlePlace(path: path))
        let rules: StringsdictTable
        do throws(ParseError) {
            rules = try StringsdictFile.parse(bytes)
        } catch {
            file.diagnostics.append(Diagnostic(error))
            return file
        }
        file.rules = rules
        if rules.isEmpty {
            file.diagnostics.append(Diagnostic(severity: .warning, kind: .emptyFile, message: "file is empty"))
        }
        let language = file.place.map { $0.isBase ? "" : $0.language } ?? ""
        for key in rules.keys {
            guard let entry = rules[key] else { continue }
            let location = StringsdictFile.location(ofKey: key, in: bytes)
            let place = SourceLocation(line: location.line, column: location.column)
            file.ruleLocations[key] = place
            for (severity, kind, message) in Self.problems(of: entry, language: language) {
                file.diagnostics.append(Diagnostic(severity: severity, kind: kind, location: place,
                                                   message: "'\(DisplayText.escaped(key))': \(message)", key: key))
            }
        }
        return file
    }

    /// What is wrong with one entry: errors that stop it from formatting, warnings about its categories in
    /// `language` (none when the language is unknown, as for `Base`).
    static func problems(of entry: StringsdictEntry, language: String)
        -> [(Diagnostic.Severity, Diagnostic.Kind, String)]
    {
        var problems: [(Diagnostic.Severity, Diagnostic.Kind, String)] = []
        var texts = [entry.format]
        for name in entry.variables.keys.sorted() {
            guard case .plural(_, let forms)? = entry.variables[name] else {
                texts += Self.texts(of: entry.variables[name])
                continue
            }
            texts += forms.values
            if forms[.other] == nil {
                problems.append((.error, .ruleError, "variable '\(name)' has no 'other' form"))
            }
            guard !language.isEmpty, PluralRules.ruleLocale(for: language) != "und" else { continue }
            let used = Set(PluralRules.categories(language: language))
            let unused = forms.keys.filter { !used.contains($0) && $0 != .zero }.sorted()
            if !unused.isEmpty {
                problems.append((.warning, .pluralCategory, "variable '\(name)' has "
                    + "\(unused.map { "'\($0.rawValue)'" }.joined(separator: ", ")), which '\(language)' does "
                    + "not use (it uses \(used.sorted().map(\.rawValue).joined(separator: ", ")))"))
            }
            let lacking = used.filter { forms[$0] == nil && $0 != .other }.sorted()
            if !lacking.isEmpty {
                problems.append((.warning, .pluralCategory, "variable '\(name)' lacks "
                    + "\(lacking.map { "'\($0.rawValue)'" }.joined(separator: ", ")), which '\(language)' needs"))
            }
        }
        let undefined = Set(texts.flatMap { FormatSpecifiers.variables(in: $0) })
            .subtracting(entry.variables.keys).sorted()
        for name in undefined {
            problems.append((.error, .ruleError, "'%#@\(name)@' is not defined in the entry"))
        }
        return problems
    }

    private static func texts(of variable: StringsdictEntry.Variable?) -> [String] {
        switch variable {
        case .plural(_, let forms)?: Array(forms.values)
        case .variableWidth(let texts)?: Array(texts.values)
        case .deviceSpecific(let texts)?: Array(texts.values)
        case nil: []
        }
    }

    /// Errors for translated entries whose format specifiers differ from the development language's entry of the
    /// same key (same root and table); `Base.lproj` and files that did not parse take no part.
    func compareRules(_ files: inout [LintedFile]) {
        var groups: [String: [Int]] = [:]
        for (index, file) in files.enumerated() {
            guard let place = file.place, !place.isBase, file.rules != nil else { continue }
            groups[place.root + "\u{0}" + place.table, default: []].append(index)
        }
        for members in groups.values {
            guard let reference = members.first(where: { files[$0].place?.isLanguage(developmentLanguage) == true }),
                  let referenceRules = files[reference].rules,
                  let referencePlace = files[reference].place else { continue }
            let referenceName = "\(referencePlace.folder)/\(referencePlace.table).stringsdict"
            for member in members where member != reference {
                guard let rules = files[member].rules else { continue }
                for key in rules.keys {
                    guard let entry = rules[key], let original = referenceRules[key] else { continue }
                    let expected = FormatSpecifiers.signature(of: original)
                    let found = FormatSpecifiers.signature(of: entry)
                    guard expected != found else { continue }
                    files[member].diagnostics.append(Diagnostic(
                        severity: .error, kind: .ruleError,
                        location: files[member].ruleLocations[key],
                        message: "'\(DisplayText.escaped(key))': format specifiers \(found) differ from "
                            + "\(expected) in \(referenceName)",
                        key: key))
                }
            }
        }
    }
}

/// The format specifiers of format strings, as far as lint compares them.
enum FormatSpecifiers {
    /// The names of the `%#@name@` variables `text` refers to.
    static func variables(in text: String) -> [String] {
        scan(text).compactMap(\.variable)
    }

    /// The kinds of argument `entry` takes: each variable's value type and every ordinary specifier's
    /// conversion (integers as `d`, floating point as `f`, objects and strings as `@`), sorted and unique, as
    /// `%@ %d`.
    static func signature(of entry: StringsdictEntry) -> String {
        var kinds: Set<String> = []
        var texts = [entry.format]
        for variable in entry.variables.values {
            switch variable {
            case .plural(let valueType, let forms):
                if let last = valueType.last { kinds.insert(kind(of: last)) }
                texts += forms.values
            case .variableWidth(let widths): texts += widths.values
            case .deviceSpecific(let devices): texts += devices.values
            }
        }
        for text in texts {
            for case let (conversion?, _, _, _) in scan(text) { kinds.insert(kind(of: conversion)) }
        }
        return kinds.sorted().map { "%" + $0 }.joined(separator: " ")
    }

    private static func kind(of conversion: Character) -> String {
        switch conversion {
        case "d", "i", "u", "o", "x", "X", "c", "C": "d"
        case "f", "F", "e", "E", "g", "G", "a", "A": "f"
        case "s", "S": "s"
        default: "@"
        }
    }

    /// The kind of argument each argument number of a plain format string takes, as `%1$d %2$@`: positioned
    /// specifiers (`%2$@`) by their position, the others in order (a `*` width or precision takes an integer);
    /// empty when it takes none. A translation that reorders arguments with positions has the same signature.
    static func argumentSignature(of text: String) -> String {
        var kinds: [Int: Set<String>] = [:]
        var next = 1
        for specifier in scan(text) {
            guard let conversion = specifier.conversion else { continue }
            for _ in 0..<specifier.starCount {
                kinds[next, default: []].insert("d")
                next += 1
            }
            let number: Int
            if let position = specifier.position {
                number = position
            } else {
                number = next
                next += 1
            }
            kinds[number, default: []].insert(kind(of: conversion))
        }
        return kinds.keys.sorted().map { number in
            kinds[number]!.sorted().map { "%\(number)$\($0)" }.joined(separator: " ")
        }.joined(separator: " ")
    }

    /// Each specifier of `text`: an ordinary conversion (with its position and how many `*` it has) or a
    /// variable; `%%` is neither.
    private static func scan(_ text: String)
        -> [(conversion: Character?, variable: String?, position: Int?, starCount: Int)]
    {
        var found: [(conversion: Character?, variable: String?, position: Int?, starCount: Int)] = []
        var characters = text[...]
        while let percent = characters.firstIndex(of: "%") {
            var rest = characters[characters.index(after: percent)...]
            rest = rest.drop { $0.isASCII && ($0.isNumber || "$-+ 0#'.*hlqLztj".contains($0)) }
            guard let conversion = rest.first else { break }
            let flags = characters[characters.index(after: percent)..<rest.startIndex]
            if conversion == "@", flags.contains("#"), let end = rest.dropFirst().firstIndex(of: "@") {
                found.append((nil, String(rest[rest.index(after: rest.startIndex)..<end]), nil, 0))
                characters = rest[rest.index(after: end)...]
                continue
            }
            if conversion != "%" {
                var position: Int?
                if let dollar = flags.firstIndex(of: "$"), let number = Int(flags[..<dollar]), number > 0 {
                    position = number
                }
                found.append((conversion, nil, position, flags.count { $0 == "*" }))
            }
            characters = rest.dropFirst()
        }
        return found
    }
}
