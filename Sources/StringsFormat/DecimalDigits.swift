/// Exact decimal expansions of `Double` values, for printf's `%f %e %g` without the C library.
///
/// A finite double is an integer times a power of two, so its decimal expansion is finite; it is computed
/// exactly with a small base-10^9 big integer and then rounded half-to-even on the exact digits, which is
/// what glibc's `printf` does (so `%.2f` of 2.675, stored as 2.67499999…, is `2.67`).
enum DecimalDigits {
    /// The exact digits of `value.magnitude` and the position of the decimal point in them
    /// (`digits[..<pointIndex]` is the integer part; `pointIndex` may be ≤ 0 or past the end).
    static func exact(_ value: Double) -> (digits: [UInt8], pointIndex: Int) {
        let magnitude = value.magnitude
        guard magnitude != 0 else { return ([0], 1) }
        var significand = magnitude.significandBitPattern | (magnitude.isNormal ? 1 << 52 : 0)
        var exponent = Int(magnitude.exponent) - 52
        if !magnitude.isNormal { exponent = -1074 }
        while significand & 1 == 0, exponent < 0 {
            significand >>= 1
            exponent += 1
        }
        var limbs: [UInt32] = [UInt32(significand % 1_000_000_000), UInt32(significand / 1_000_000_000 % 1_000_000_000),
                               UInt32(significand / 1_000_000_000_000_000_000)]
        let multiplier: UInt64 = exponent >= 0 ? 2 : 5
        for _ in 0..<exponent.magnitude { multiply(&limbs, by: multiplier) }
        var digits: [UInt8] = []
        for (index, limb) in limbs.enumerated().reversed() {
            var chunk = [UInt8](repeating: 0, count: 9)
            var rest = limb
            for position in (0..<9).reversed() {
                chunk[position] = UInt8(rest % 10)
                rest /= 10
            }
            if digits.isEmpty {
                let first = chunk.firstIndex { $0 != 0 } ?? (index == 0 ? 8 : 9)
                digits += chunk[first...]
            } else {
                digits += chunk
            }
        }
        if digits.isEmpty { digits = [0] }
        let fractionCount = exponent < 0 ? Int(exponent.magnitude) : 0
        return (digits, digits.count - fractionCount)
    }

    private static func multiply(_ limbs: inout [UInt32], by factor: UInt64) {
        var carry: UInt64 = 0
        for index in limbs.indices {
            let product = UInt64(limbs[index]) * factor + carry
            limbs[index] = UInt32(product % 1_000_000_000)
            carry = product / 1_000_000_000
        }
        if carry > 0 { limbs.append(UInt32(carry)) }
    }

    /// `digits` (with the point at `pointIndex`) rounded half-to-even to keep `kept` digits after the point
    /// position `pointIndex` (that is, `digits[..<(pointIndex + kept)]`); returns the new digits and point.
    static func round(_ digits: [UInt8], pointIndex: Int, keeping kept: Int) -> (digits: [UInt8], pointIndex: Int) {
        var digits = digits
        var point = pointIndex
        if point <= 0 {  // make the integer part at least one digit: 0.00123 → 0|00123
            digits = [UInt8](repeating: 0, count: 1 - point) + digits
            point = 1
        }
        let end = point + kept
        if end >= digits.count {
            return (digits + [UInt8](repeating: 0, count: end - digits.count), point)
        }
        guard end >= 0 else { return ([0], 1) }
        let first = digits[end]
        let restNonZero = digits[(end + 1)...].contains { $0 != 0 }
        let previousIsOdd = end > 0 && digits[end - 1] % 2 == 1
        var result = Array(digits[..<end])
        if first > 5 || (first == 5 && (restNonZero || previousIsOdd)) {
            var index = result.count - 1
            while index >= 0 {
                if result[index] == 9 {
                    result[index] = 0
                    index -= 1
                } else {
                    result[index] += 1
                    break
                }
            }
            if index < 0 {
                result.insert(1, at: 0)
                point += 1
            }
        }
        return (result, point)
    }

    /// `%.{precision}f` of the magnitude, without sign.
    static func fixed(_ value: Double, precision: Int) -> String {
        let (digits, point) = exact(value)
        let (rounded, roundedPoint) = round(digits, pointIndex: point, keeping: precision)
        var integer = rounded[..<roundedPoint].drop { $0 == 0 }
        if integer.isEmpty { integer = [0] }
        var text = String(decoding: integer.map { $0 + 48 }, as: UTF8.self)
        if precision > 0 {
            text += "." + String(decoding: rounded[roundedPoint...].map { $0 + 48 }, as: UTF8.self)
        }
        return text
    }

    /// The significant digits of the magnitude rounded to `count` digits, and its decimal exponent
    /// (`1234.5` to 3 digits → `[1, 2, 3]`, 3).
    static func significant(_ value: Double, count: Int) -> (digits: [UInt8], exponent: Int) {
        let (digits, point) = exact(value)
        guard let first = digits.firstIndex(where: { $0 != 0 }) else {
            return ([UInt8](repeating: 0, count: count), 0)
        }
        let trimmed = Array(digits[first...])
        let trimmedPoint = point - first
        let (rounded, roundedPoint) = round(trimmed, pointIndex: 0, keeping: count)
        // `round` prepends a zero for the integer part; the digits we want follow it.
        var result = Array(rounded.dropFirst(roundedPoint))
        var exponent = trimmedPoint - 1
        if rounded[..<roundedPoint].contains(where: { $0 != 0 }) {  // rounding carried into a new digit
            result = [1] + [UInt8](repeating: 0, count: count - 1)
            exponent += 1
        }
        return (result, exponent)
    }
}
