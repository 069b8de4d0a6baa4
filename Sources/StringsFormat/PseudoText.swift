/// A text cut into what a pseudo-language may change (prose) and what it must keep byte for byte (tokens):
/// printf specifiers, `%#@name@` references, markup and backslash sequences.
///
/// The specifier grammar is `PrintfFormatter`'s (position, `PrintfFlags`, width and precision as digits or `*`,
/// length modifiers, one conversion), read leniently: whatever follows the `%` and its modifiers is kept with it,
/// known conversion or not, so that a text the formatter would refuse stays refused the same way.
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
            guard let (end, isOpen) = Self.tokenEnd(in: scalars, at: index) else {
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
    private static func tokenEnd(in scalars: String.UnicodeScalarView, at index: String.Index)
        -> (end: String.Index, isOpen: Bool)? {
        switch scalars[index] {
        case "%":
            return specifierEnd(in: scalars, at: index)
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

    /// `%` [digits `$`] [flags] (`#@name@` | [width] [`.` precision] [length] conversion), to the end of the text
    /// when it stops early (an unterminated reference keeps the rest), and then open.
    private static func specifierEnd(in scalars: String.UnicodeScalarView, at percent: String.Index)
        -> (end: String.Index, isOpen: Bool) {
        let end = scalars.endIndex
        var index = scalars.index(after: percent)
        func skip(while accepts: (Unicode.Scalar) -> Bool) {
            while index < end, accepts(scalars[index]) { index = scalars.index(after: index) }
        }
        /// Digits, or `*` with an optional `digits$`.
        func readCount() {
            if index < end, scalars[index] == "*" {
                index = scalars.index(after: index)
                let digits = index
                skip(while: isDigit)
                if index > digits, index < end, scalars[index] == "$" {
                    index = scalars.index(after: index)
                } else {
                    index = digits
                }
            } else {
                skip(while: isDigit)
            }
        }
        let digits = index
        skip(while: isDigit)
        if index > digits, index < end, scalars[index] == "$" {
            index = scalars.index(after: index)
        } else {
            index = digits
        }
        var flags: PrintfFlags = []
        while index < end, scalars[index].isASCII, let flag = PrintfFlags(byte: UInt8(scalars[index].value)) {
            flags.insert(flag)
            index = scalars.index(after: index)
        }
        if index < end, scalars[index] == "@", flags.contains(.alternate) {
            let name = scalars.index(after: index)
            guard let close = scalars[name...].firstIndex(of: "@") else { return (end, true) }
            return (scalars.index(after: close), false)
        }
        readCount()
        if index < end, scalars[index] == "." {
            index = scalars.index(after: index)
            readCount()
        }
        skip { $0.isASCII && PrintfFormatter<NoPrintfVariables>.isLengthModifier(UInt8($0.value)) }
        return index < end ? (scalars.index(after: index), false) : (end, true)
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
