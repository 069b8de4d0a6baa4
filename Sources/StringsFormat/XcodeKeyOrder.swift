/// The order Xcode gives the members of a string catalog's objects, close enough to place a new key.
///
/// Xcode writes catalogs with Foundation's sorted keys, which compare strings case-insensitively, numerically
/// and by the locale's collation: punctuation and symbols before digits before letters, `-` before `.`, a run
/// of digits by its value. This is that order for the characters keys are made of; it decides only where an
/// editor inserts a member (the writer keeps the order it is given), so a catalog Xcode wrote never moves.
enum XcodeKeyOrder {
    /// Whether `a` comes before `b`: letters first compared without accents or case, then with accents, then
    /// with case (lowercase first), as collation's levels do; and last by code point, so no two keys tie.
    static func precedes(_ a: String, _ b: String) -> Bool {
        let (left, right) = (weights(a), weights(b))
        if left.primary != right.primary { return left.primary.lexicographicallyPrecedes(right.primary) }
        if left.secondary != right.secondary { return left.secondary.lexicographicallyPrecedes(right.secondary) }
        return a.unicodeScalars.lexicographicallyPrecedes(b.unicodeScalars) { $0.value > $1.value }
    }

    /// Primary weights (a class then a weight per element: 0 spaces, 1 punctuation and symbols, 2 a run of
    /// digits as its digit count then its digits, 3 a letter without accent or case) and secondary weights (each
    /// letter lowercased, accents kept).
    private static func weights(_ text: String) -> (primary: [UInt32], secondary: [UInt32]) {
        var primary: [UInt32] = []
        var secondary: [UInt32] = []
        let scalars = Array(text.unicodeScalars)
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if let digit = decimalValue(scalar) {
                var digits: [UInt32] = [digit]
                index += 1
                while index < scalars.count, let next = decimalValue(scalars[index]) {
                    digits.append(next)
                    index += 1
                }
                while digits.count > 1, digits.first == 0 { digits.removeFirst() }
                primary += [2, UInt32(digits.count)] + digits
                continue
            }
            index += 1
            if scalar.properties.isAlphabetic {
                for lower in scalar.properties.lowercaseMapping.unicodeScalars {
                    primary += [3, baseLetters[lower] ?? lower.value]
                    secondary.append(lower.value)
                }
            } else if scalar.properties.isWhitespace {
                primary += [0, scalar.value]
            } else if scalar.isASCII, let rank = punctuationOrder.firstIndex(of: UInt8(scalar.value)) {
                primary += [1, UInt32(rank)]
            } else {
                primary += [1, UInt32(punctuationOrder.count) + scalar.value]
            }
        }
        return (primary, secondary)
    }

    private static func decimalValue(_ scalar: Unicode.Scalar) -> UInt32? {
        guard scalar.properties.numericType == .decimal, let value = scalar.properties.numericValue else { return nil }
        return UInt32(value)
    }

    /// ASCII punctuation and symbols in the root collation's order.
    private static let punctuationOrder: [UInt8] = Array("_-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$".utf8)

    /// Accented Latin letters and the letter they sort with (the standard library has no decomposition).
    private static let baseLetters: [Unicode.Scalar: UInt32] = {
        let groups = ["aàáâãäåāăą", "cçćĉċč", "dďđ", "eèéêëēĕėęě", "gĝğġģ", "hĥħ", "iìíîïĩīĭįı", "jĵ", "kķ",
                      "lĺļľŀł", "nñńņňŉ", "oòóôõöøōŏő", "rŕŗř", "sśŝşšß", "tţťŧ", "uùúûüũūŭůűų", "wŵ", "yýÿŷ", "zźżž"]
        var table: [Unicode.Scalar: UInt32] = [:]
        for group in groups {
            let scalars = Array(group.unicodeScalars)
            for scalar in scalars.dropFirst() { table[scalar] = scalars[0].value }
        }
        return table
    }()
}
