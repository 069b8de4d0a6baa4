/// How far an entry's `%#@name@` variables may expand, checked when the entry is read.
///
/// A variable's text may refer to variables again, and to itself: eight `%#@a@` in `a`'s `other` form expand
/// to 8⁸ copies in a plain text and far more in the formatter. So every entry read from a file (a
/// `.stringsdict`, a catalog's variations and substitutions) must nest at most `maximumNesting` variables deep
/// and expand, in the worst case, to at most `maximumExpandedSize` bytes; an entry that does not is a parse
/// error naming its key, and the daemon keeps the table's last good version. The worst case is computed
/// without expanding: each reference costs the size of the largest text of its variable, saturating.
extension StringsdictEntry {
    /// The deepest chain of variables an entry may have: the format's variables are level 1, a variable in one
    /// of their texts level 2, and so on. A variable that refers to itself nests without end.
    public static let maximumNesting = 8

    /// The most bytes an entry's text may have with every variable replaced by its largest text (and a
    /// position inherited by each specifier, as in `plainText`).
    public static let maximumExpandedSize = 64 * 1024

    /// Checks that the entry, and each entry of its devices, stays within `maximumNesting` and
    /// `maximumExpandedSize`.
    ///
    /// References are read by `FormatSpecifier`, as the formatter and `plainText` read them, so the bound holds
    /// for both; variables the entry never reaches are not looked at.
    /// - Throws: `FormatError` naming the variable that nests too deep, or the size the entry can reach.
    /// - Complexity: O(n) in the size of the entry's texts: each variable is measured once.
    public func checkExpansionBounds() throws(FormatError) {
        for (device, entry) in devices.sorted(by: { $0.key < $1.key }) {
            do throws(FormatError) {
                try entry.checkExpansionBounds()
            } catch {
                throw FormatError("device '\(device)': \(error.reason)")
            }
        }
        var measure = ExpansionMeasure(entry: self)
        guard try measure.measure(format, level: 0).size <= Self.maximumExpandedSize else {
            throw FormatError("its variables expand to more than \(Self.maximumExpandedSize) bytes in the worst "
                + "case (the limit)")
        }
    }
}

/// The worst-case expanded size of an entry's texts, each variable measured once.
private struct ExpansionMeasure {
    /// A text's (or a variable's largest text's) worst-case expanded size, and the levels of variables below it.
    struct Measured {
        var size: Int
        var depth: Int
    }

    let entry: StringsdictEntry
    /// What each `%` of a text can grow by when it inherits a position: the longest `N$` written in the entry.
    let positionCost: Int
    /// Variables measured so far: their largest expanded text (capped at `limit`) and the levels below them.
    private var measuredVariables: [String: Measured] = [:]
    /// Sizes are capped here, so sums never overflow and stay above the limit once they pass it.
    private let limit = StringsdictEntry.maximumExpandedSize + 1

    init(entry: StringsdictEntry) {
        self.entry = entry
        var longest = 0
        for text in [entry.format] + entry.variables.values.flatMap(Self.texts) {
            longest = max(longest, Self.longestPosition(in: text))
        }
        positionCost = longest + 1
    }

    /// What `text`, found at nesting `level` (the format is level 0), expands to: its worst-case size, and how
    /// many levels of variables hang below it.
    mutating func measure(_ text: String, level: Int) throws(FormatError) -> Measured {
        var size = text.utf8.count
        for byte in text.utf8 where byte == UInt8(ascii: "%") { size = min(size + positionCost, limit) }
        var depth = 0
        for name in FormatSpecifiers.variables(in: text) {
            let variable = try measure(variable: name, level: level + 1)
            size = min(size + variable.size, limit)
            depth = max(depth, variable.depth + 1)
        }
        return Measured(size: size, depth: depth)
    }

    /// The largest text of variable `name`, used at `level` (a variable the entry does not define is empty).
    /// - Throws: `FormatError` when the variable, or one below it, is deeper than `maximumNesting`.
    private mutating func measure(variable name: String, level: Int) throws(FormatError) -> Measured {
        let measured: Measured
        if let known = measuredVariables[name] {
            measured = known
        } else if level > StringsdictEntry.maximumNesting {
            measured = Measured(size: 0, depth: 0)  // too deep already: thrown below
        } else {
            guard let variable = entry.variables[name] else { return Measured(size: 0, depth: 0) }
            var largest = Measured(size: 0, depth: 0)
            for text in Self.texts(variable) {
                let form = try measure(text, level: level)
                largest = Measured(size: max(largest.size, form.size), depth: max(largest.depth, form.depth))
            }
            // Not stored before this point: a variable met again while it is measured nests without end, and
            // goes on down until it is too deep.
            measuredVariables[name] = largest
            measured = largest
        }
        guard level + measured.depth <= StringsdictEntry.maximumNesting else {
            throw FormatError("variable '\(name)' nests more than \(StringsdictEntry.maximumNesting) deep "
                + "(does it refer to itself?)")
        }
        return measured
    }

    /// The number of digits of the longest position (`%12$d`) in `text`, as `plainText` writes it.
    private static func longestPosition(in text: String) -> Int {
        FormatSpecifier.all(in: text).reduce(0) { longest, found in
            max(longest, found.specifier.position.map { String($0).utf8.count } ?? 0)
        }
    }

    private static func texts(_ variable: StringsdictEntry.Variable) -> [String] {
        switch variable {
        case .plural(_, let forms): Array(forms.values)
        case .variableWidth(let texts): Array(texts.values)
        case .deviceSpecific(let texts): Array(texts.values)
        }
    }
}
