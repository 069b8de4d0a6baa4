/// The pseudo-languages: fake translations made from the development language's text, which show at a glance
/// what an app does not localize, what clips when text grows, and what breaks right to left.
///
/// - `en-XA` (`accented`), after Android's pseudo-localizer: ASCII letters (and `!`, `?`) take Android's accented
///   look-alikes, the text is wrapped in `[` … `]` and padded before the `]` with words (`one two three` …) by as
///   many characters as it has letters up to 10, and by more where that is needed to make the whole at least 30 %
///   longer than the source (its characters, specifiers and markup included, rounded up): `Hello` reads
///   `[Ĥéļļö one two]`.
/// - `ar-XB` (`bidirectional`): each word, a run of letters, marks and digits, is wrapped in U+202E (right-to-left
///   override) … U+202C (pop directional formatting), so that the text lays out right to left.
///
/// Neither ever breaks a string: printf specifiers (`%@ %1$@ %-5s %.2f %*d %%`), `%#@name@` references, markup
/// (`<b>`, `</b>`, `{name}`, `&amp;`) and backslash sequences are kept byte for byte and in order (`PseudoText`);
/// a text without letters is kept as it is, and one that ends inside a specifier (a lone final `%`) is accented
/// but neither wrapped nor padded, since what follows would join the specifier. A rule is transformed text by text: the format outside its references,
/// and each plural form, width and device text on its own; its variable names, rule types and value types stay.
public enum PseudoLocalizer: Sendable, Hashable, CaseIterable {
    /// `en-XA`: accented, bracketed and padded.
    case accented
    /// `ar-XB`: every word forced right to left.
    case bidirectional

    /// The language the pseudo-language is served as.
    public var language: LanguageTag {
        switch self {
        case .accented: Self.accentedLanguage
        case .bidirectional: Self.bidirectionalLanguage
        }
    }

    /// The pseudo-language served as `language`, or `nil` for a real language.
    public init?(language: LanguageTag) {
        switch language {
        case Self.accentedLanguage: self = .accented
        case Self.bidirectionalLanguage: self = .bidirectional
        default: return nil
        }
    }

    private static let accentedLanguage = LanguageTag("en-XA")!
    private static let bidirectionalLanguage = LanguageTag("ar-XB")!

    // MARK: - Transforming

    /// The pseudo-localized `text`.
    /// - Complexity: O(n) in the text's length.
    public func transform(_ text: String) -> String {
        switch self {
        case .accented: Self.accented(text)
        case .bidirectional: Self.bidirectional(text)
        }
    }

    /// The pseudo-localized rule: its format and every text of its variables and devices, each on its own.
    public func transform(_ entry: StringsdictEntry) -> StringsdictEntry {
        let variables = entry.variables.mapValues { variable -> StringsdictEntry.Variable in
            switch variable {
            case .plural(let valueType, let forms): .plural(valueType: valueType, forms: forms.mapValues(transform))
            case .variableWidth(let texts): .variableWidth(texts.mapValues(transform))
            case .deviceSpecific(let texts): .deviceSpecific(texts.mapValues(transform))
            }
        }
        var result = StringsdictEntry(format: transform(entry.format), variables: variables)
        result.devices = entry.devices.mapValues(transform)
        return result
    }

    /// The pseudo-localized table: the same keys, in the same order, with the same comments.
    /// - Complexity: O(n) in the table's text.
    public func transform(_ content: TableContent) -> TableContent {
        let strings = content.strings.entries.map { entry in
            StringsEntry(key: entry.key, value: transform(entry.value), comment: entry.comment,
                         location: entry.location)
        }
        let rules = StringsdictTable(content.rules.entries.mapValues(transform))
        return TableContent(strings: StringsTable(strings), rules: rules)
    }

    // MARK: - en-XA

    private static func accented(_ text: String) -> String {
        var output = String.UnicodeScalarView()
        var letters = 0
        let pseudoText = PseudoText(text)
        for piece in pseudoText.pieces {
            switch piece {
            case .token(let scalars):
                output.append(contentsOf: scalars)
            case .prose(let scalars):
                for scalar in scalars {
                    if isLetter(scalar) { letters += 1 }
                    output.append(accent(scalar))
                }
            }
        }
        guard letters > 0 else { return text }
        // Nothing may follow a text that ends inside a specifier: it would join it.
        guard !pseudoText.endsOpen else { return String(output) }
        // Every scalar of the source is one of the output's, so the output's count is the source's.
        var wanted = minimumPadding(letters: letters, length: output.count)
        var result = "[" + String(output) + padding(atLeast: wanted) + "]"
        if !(output.first?.isASCII ?? true) || !(output.last?.isASCII ?? true) {
            // A bracket or a space can join a character at an edge of the text (`[` and a leading U+200C are one
            // character), so there characters are counted as a person reads them, both texts.
            let least = (text.count * 13 + 9) / 10
            while result.count < least {
                wanted += least - result.count
                result = "[" + String(output) + padding(atLeast: wanted) + "]"
            }
        }
        return result
    }

    /// Android's accented look-alikes, by ASCII code (`nil`: kept). Android's own choices are kept, quirks
    /// included (`q` → `Q`, `v` → `V`, `x` → Cyrillic `х`, `F` unchanged), except `$` → `€`, left out
    /// because `$` starts placeholders in some template syntaxes (`${name}`).
    private static let accents: [Unicode.Scalar?] = {
        var table = [Unicode.Scalar?](repeating: nil, count: 128)
        let pairs: [(Unicode.Scalar, UInt32)] = [
            ("a", 0xE5), ("b", 0x253), ("c", 0xE7), ("d", 0xF0), ("e", 0xE9), ("f", 0x192), ("g", 0x11D),
            ("h", 0x125), ("i", 0xEE), ("j", 0x135), ("k", 0x137), ("l", 0x13C), ("m", 0x1E3F), ("n", 0xF1),
            ("o", 0xF6), ("p", 0xFE), ("q", 0x51), ("r", 0x155), ("s", 0x161), ("t", 0x163), ("u", 0xFB),
            ("v", 0x56), ("w", 0x175), ("x", 0x445), ("y", 0xFD), ("z", 0x17E),
            ("A", 0xC5), ("B", 0x3B2), ("C", 0xC7), ("D", 0xD0), ("E", 0xC9), ("G", 0x11C), ("H", 0x124),
            ("I", 0xCE), ("J", 0x134), ("K", 0x136), ("L", 0x13B), ("M", 0x1E3E), ("N", 0xD1), ("O", 0xD6),
            ("P", 0xDE), ("Q", 0x71), ("R", 0x154), ("S", 0x160), ("T", 0x162), ("U", 0xDB), ("V", 0x3BD),
            ("W", 0x174), ("X", 0xD7), ("Y", 0xDD), ("Z", 0x17D), ("!", 0xA1), ("?", 0xBF),
        ]
        for (plain, accented) in pairs { table[Int(plain.value)] = Unicode.Scalar(accented) }
        return table
    }()

    private static func accent(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        scalar.isASCII ? accents[Int(scalar.value)] ?? scalar : scalar
    }

    /// The words the padding is made of, in turn (Android's, spelt right).
    static let paddingWords = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
                               "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
                               "eighteen", "nineteen", "twenty"]

    /// A space and whole padding words, at least `min(letters, 10)` characters, and at least enough that a text of
    /// `length` scalars bracketed and padded is `⌈1.3 × length⌉` long: `⌈0.3 × length⌉ − 2` (the brackets count).
    ///
    /// Counted in scalars, the output is 30 % longer in characters too: a character is one scalar or more, so
    /// `length` is at least the source's characters, and the brackets and padding are one scalar a character.
    static func padding(letters: Int, length: Int) -> String {
        padding(atLeast: minimumPadding(letters: letters, length: length))
    }

    /// The padding's least length for a text of `letters` letters and `length` scalars (see `padding`).
    private static func minimumPadding(letters: Int, length: Int) -> Int {
        max((length * 3 + 9) / 10 - 2, min(letters, 10))
    }

    /// A space and whole padding words, the fewest that are at least `wanted` characters long.
    private static func padding(atLeast wanted: Int) -> String {
        var padding = ""
        var word = 0
        while padding.utf8.count < wanted {
            padding += " " + paddingWords[word % paddingWords.count]
            word += 1
        }
        return padding
    }

    // MARK: - ar-XB

    private static func bidirectional(_ text: String) -> String {
        var output = String.UnicodeScalarView()
        var words = 0
        for piece in PseudoText(text).pieces {
            switch piece {
            case .token(let scalars):
                output.append(contentsOf: scalars)
            case .prose(let scalars):
                var inWord = false
                for scalar in scalars {
                    let isWordScalar = isWordScalar(scalar)
                    if isWordScalar != inWord {
                        output.append(isWordScalar ? rightToLeftOverride : popDirectionalFormatting)
                        if isWordScalar { words += 1 }
                        inWord = isWordScalar
                    }
                    output.append(scalar)
                }
                if inWord { output.append(popDirectionalFormatting) }
            }
        }
        return words > 0 ? String(output) : text
    }

    private static let rightToLeftOverride: Unicode.Scalar = "\u{202E}"
    private static let popDirectionalFormatting: Unicode.Scalar = "\u{202C}"

    // MARK: - Letters and words

    /// Whether `scalar` is a letter (general category L).
    static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter: return true
        default: return false
        }
    }

    /// Whether `scalar` belongs to a word: a letter, a digit or other number, or a mark (`é` written as `e` and
    /// U+0301 is one word).
    static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII {
            return ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
        }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .decimalNumber, .letterNumber, .otherNumber, .nonspacingMark, .spacingMark, .enclosingMark:
            return true
        default:
            return false
        }
    }
}
