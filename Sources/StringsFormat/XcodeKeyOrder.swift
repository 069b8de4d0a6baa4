/// The order Xcode gives the members of a string catalog's objects, close enough to place a new key.
///
/// Xcode writes catalogs with Foundation's sorted keys, which compare strings case-insensitively, numerically
/// and by the locale's collation: punctuation and symbols before digits before letters, `-` before `.`, a run
/// of digits by its value. This is that order for the characters keys are made of; it decides only where an
/// editor inserts a member (the writer keeps the order it is given), so a catalog Xcode wrote never moves.
enum XcodeKeyOrder {
    /// Whether `a` comes before `b`.
    static func precedes(_ a: String, _ b: String) -> Bool {
        let (left, right) = (elements(a), elements(b))
        for (x, y) in zip(left, right) where x != y { return x < y }
        if left.count != right.count { return left.count < right.count }
        // Equal but for case: Foundation's forced ordering breaks the tie; lowercase first, as collation does.
        return a.unicodeScalars.lexicographicallyPrecedes(b.unicodeScalars) { $0.value > $1.value }
    }

    /// Collation-like elements: (class, weight) with class 0 spaces, 1 punctuation and symbols, 2 digits (the
    /// weight a run's value, as digit count then digits), 3 letters.
    private static func elements(_ text: String) -> [Element] {
        var result: [Element] = []
        let scalars = Array(text.unicodeScalars)
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if let digit = scalar.properties.numericType == .decimal ? scalar.properties.numericValue : nil {
                var digits: [UInt32] = [UInt32(digit)]
                index += 1
                while index < scalars.count, scalars[index].properties.numericType == .decimal,
                      let next = scalars[index].properties.numericValue {
                    digits.append(UInt32(next))
                    index += 1
                }
                while digits.count > 1, digits.first == 0 { digits.removeFirst() }
                result.append(Element(kind: 2, weights: [UInt32(digits.count)] + digits))
                continue
            }
            index += 1
            if scalar.properties.isAlphabetic {
                let lower = scalar.properties.lowercaseMapping.unicodeScalars.map(\.value)
                result.append(Element(kind: 3, weights: lower))
            } else if scalar.properties.isWhitespace {
                result.append(Element(kind: 0, weights: [scalar.value]))
            } else if scalar.isASCII, let rank = punctuationOrder.firstIndex(of: UInt8(scalar.value)) {
                result.append(Element(kind: 1, weights: [UInt32(rank)]))
            } else {
                result.append(Element(kind: 1, weights: [UInt32(punctuationOrder.count) + scalar.value]))
            }
        }
        return result
    }

    /// ASCII punctuation and symbols in the root collation's order.
    private static let punctuationOrder: [UInt8] = Array("_-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$".utf8)

    private struct Element: Equatable, Comparable {
        var kind: UInt8
        var weights: [UInt32]

        static func < (lhs: Element, rhs: Element) -> Bool {
            lhs.kind != rhs.kind ? lhs.kind < rhs.kind : lhs.weights.lexicographicallyPrecedes(rhs.weights)
        }
    }
}
