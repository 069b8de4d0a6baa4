/// What `lint`, `set` and the page judge of format strings: the specifiers a translation takes must be the
/// development language's (a `%d` translated as `%@` crashes the app that formats it). One judgement, here below
/// the service and the CLI, so that `set` refuses exactly what `lint` reports.
extension FormatSpecifiers {
    /// The names of the `%#@name@` variables `text` refers to.
    package static func variables(in text: String) -> [String] {
        scan(text).compactMap(\.variable)
    }

    /// The kinds of argument `entry` takes: each variable's value type and every ordinary specifier's
    /// conversion (integers as `d`, floating point as `f`, objects and strings as `@`), sorted and unique, as
    /// `%@ %d`.
    package static func signature(of entry: StringsdictEntry) -> String {
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
    package static func argumentSignature(of text: String) -> String {
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
