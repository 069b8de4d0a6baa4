/// A text cut into what a pseudo-language may change (prose) and what it must keep byte for byte (tokens):
/// printf specifiers, `%#@name@` references, markup and backslash sequences.
///
/// A specifier's bounds are `FormatSpecifier`'s, the grammar the formatter reads, so that what is kept is what
/// formats. Unknown things are kept too: a `%` and the character after its modifiers, conversion or not (`%k`),
/// so that a text the formatter would refuse stays refused the same way.
struct PseudoText {
    /// One run of the text.
    enum Piece {
        /// Text a pseudo-language transforms.
        case prose(Substring.UnicodeScalarView)
        /// Text kept as it is.
        case token(Substring.UnicodeScalarView)
    }

    /// The runs, in order; joined they are the text.
    private(set) var pieces: [Piece] = []
    /// Whether the text ends inside a token (a lone `%`, `%#@name` without its `@`, a final `\`): anything
    /// written after it would join the token and change what it means (`%` then ` one` reads `% o`).
    private(set) var endsOpen = false

    /// Cuts `text` into prose and tokens.
    init(_ text: String) {
        let scalars = text.unicodeScalars
        var proseStart = scalars.startIndex
        var index = scalars.startIndex
        while index < scalars.endIndex {
            guard let (end, isOpen) = Self.tokenEnd(in: text, at: index) else {
                index = scalars.index(after: index)
                continue
            }
            endsOpen = isOpen
            if proseStart < index { pieces.append(.prose(scalars[proseStart..<index])) }
            pieces.append(.token(scalars[index..<end]))
            index = end
            proseStart = end
        }
        if proseStart < scalars.endIndex { pieces.append(.prose(scalars[proseStart...])) }
    }

    /// The tokens, in order (what a transformed text must still hold).
    var tokens: [Substring] {
        pieces.compactMap { piece in
            if case .token(let scalars) = piece { Substring(scalars) } else { nil }
        }
    }

    /// Where the token starting at `index` ends and whether it is open (cut short by the end of the text), or
    /// `nil` when none starts there.
    private static func tokenEnd(in text: String, at index: String.Index) -> (end: String.Index, isOpen: Bool)? {
        let scalars = text.unicodeScalars
        switch scalars[index] {
        case "%":
            return specifierEnd(in: text, at: index)
        case "\\":
            let end = scalars.index(index, offsetBy: 2, limitedBy: scalars.endIndex)
            return (end ?? scalars.endIndex, end == nil)
        case "<":
            return tagEnd(in: scalars, at: index).map { ($0, false) }
        case "{":
            return braceEnd(in: scalars, at: index).map { ($0, false) }
        case "&":
            return entityEnd(in: scalars, at: index).map { ($0, false) }
        default:
            return nil
        }
    }

    /// Where the specifier at `percent` ends, as `FormatSpecifier` reads it: to the end of the text, and then open,
    /// when the text ends first (a lone `%`, an unterminated `%#@name`).
    private static func specifierEnd(in text: String, at percent: String.Index) -> (end: String.Index, isOpen: Bool) {
        let utf8 = text.utf8
        let specifier = FormatSpecifier.read(in: text, at: utf8.distance(from: utf8.startIndex, to: percent))
        let isOpen = specifier.kind == .incomplete || specifier.kind == .unterminatedVariable
        // The scanner ends a specifier at a scalar boundary (an unknown conversion is read whole).
        return (utf8.index(utf8.startIndex, offsetBy: specifier.range.upperBound), isOpen)
    }

    /// `<` then a letter, `/`, `!` or `?`, up to the next `>`; a `<` without them is prose (`a < b`).
    private static func tagEnd(in scalars: String.UnicodeScalarView, at open: String.Index) -> String.Index? {
        let next = scalars.index(after: open)
        guard next < scalars.endIndex else { return nil }
        let first = scalars[next]
        guard isASCIILetter(first) || first == "/" || first == "!" || first == "?",
              let close = scalars[next...].firstIndex(of: ">") else { return nil }
        return scalars.index(after: close)
    }

    /// `{` to its matching `}` (nested braces counted, so `{{name}}` and `{count, plural, one {…}}` are one token).
    private static func braceEnd(in scalars: String.UnicodeScalarView, at open: String.Index) -> String.Index? {
        var depth = 0
        var index = open
        while index < scalars.endIndex {
            if scalars[index] == "{" { depth += 1 }
            if scalars[index] == "}" {
                depth -= 1
                if depth == 0 { return scalars.index(after: index) }
            }
            index = scalars.index(after: index)
        }
        return nil
    }

    /// `&name;` or `&#digits;`, `&#xhex;`: ASCII letters, digits and `#` up to `;`.
    private static func entityEnd(in scalars: String.UnicodeScalarView, at ampersand: String.Index) -> String.Index? {
        var index = scalars.index(after: ampersand)
        let start = index
        while index < scalars.endIndex, isASCIILetter(scalars[index]) || isDigit(scalars[index])
                || scalars[index] == "#" {
            index = scalars.index(after: index)
        }
        guard index > start, index < scalars.endIndex, scalars[index] == ";" else { return nil }
        return scalars.index(after: index)
    }

    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool { asciiDigit(scalar) != nil }

    private static func isASCIILetter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }
}
