/// The conversions of `PrintfFormatter`: one argument under one specification, as glibc prints it.
///
/// Widths and precisions are never negative and at most `FormatSpecifier.maximumCount` (`PrintfFormatter` reads them
/// so), which bounds every padding and digit string made here.
enum PrintfConversion {
    static func convert(_ argument: FormatArgument, _ spec: Spec) -> String {
        var sign = ""
        var body: String
        var zeroPadAllowed = true
        switch spec.conversion {
        case "@":
            // Foundation on Linux, the reference, ignores a width and precision on `%@`.
            return string(argument)
        case "s", "S":
            body = string(argument)
            if let precision = spec.precision { body = String(body.prefix(precision)) }
            zeroPadAllowed = false
        case "c", "C":
            body = Unicode.Scalar(UInt32(truncatingIfNeeded: argument.integerValue)).map { String($0) } ?? ""
            zeroPadAllowed = false
        case "d", "D", "i":
            let value = argument.integerValue
            sign = value < 0 ? "-" : spec.flags.contains(.plus) ? "+" : spec.flags.contains(.space) ? " " : ""
            body = integerDigits(String(value.magnitude), spec)
            zeroPadAllowed = spec.precision == nil
        case "u", "U", "o", "O", "x", "X":
            let value = UInt64(bitPattern: argument.integerValue)
            let radix = spec.conversion == "o" || spec.conversion == "O" ? 8
                : spec.conversion == "u" || spec.conversion == "U" ? 10 : 16
            body = integerDigits(String(value, radix: radix, uppercase: spec.conversion == "X"), spec)
            if spec.flags.contains(.alternate), value != 0 {
                if spec.conversion == "x" { sign = "0x" }
                if spec.conversion == "X" { sign = "0X" }
                if spec.conversion == "o" || spec.conversion == "O", !body.hasPrefix("0") { body = "0" + body }
            }
            zeroPadAllowed = spec.precision == nil
        default:
            let value = double(argument)
            sign = value.sign == .minus && !value.isNaN ? "-" : spec.flags.contains(.plus) ? "+"
                : spec.flags.contains(.space) ? " " : ""
            body = floating(value, spec)
            zeroPadAllowed = value.isFinite
        }
        return pad(sign: sign, body: body, spec: spec, zeroPadAllowed: zeroPadAllowed)
    }

    private static func string(_ argument: FormatArgument) -> String {
        switch argument {
        case .string(let text): text
        case .int(let value): String(value)
        case .uint(let value): String(value)
        case .double(let value): value.description
        }
    }

    private static func double(_ argument: FormatArgument) -> Double {
        switch argument {
        case .double(let value): value
        case .int(let value): Double(value)
        case .uint(let value): Double(value)
        case .string(let text): Double(text) ?? 0
        }
    }

    private static func integerDigits(_ digits: String, _ spec: Spec) -> String {
        guard let precision = spec.precision else { return digits }
        if precision == 0, digits == "0" { return "" }
        return String(repeating: "0", count: max(0, precision - digits.count)) + digits
    }

    private static func floating(_ value: Double, _ spec: Spec) -> String {
        let uppercase = "FEGA".unicodeScalars.contains(spec.conversion)
        if value.isNaN { return uppercase ? "NAN" : "nan" }
        if value.isInfinite { return uppercase ? "INF" : "inf" }
        let precision = spec.precision ?? 6
        let alternate = spec.flags.contains(.alternate)
        switch spec.conversion {
        case "f", "F":
            let text = DecimalDigits.fixed(value, precision: precision)
            return alternate && precision == 0 ? text + "." : text
        case "e", "E":
            return exponential(value, precision: precision, uppercase: uppercase, alternate: alternate)
        default:  // g, G (and a, A, printed as g: Apple strings do not use hexadecimal floats)
            let significant = max(precision, 1)
            let exponent = value == 0 ? 0 : DecimalDigits.significant(value, count: significant).exponent
            var text: String
            if exponent < -4 || exponent >= significant {
                text = exponential(value, precision: significant - 1, uppercase: uppercase, alternate: alternate)
            } else {
                text = DecimalDigits.fixed(value, precision: significant - 1 - exponent)
            }
            if !alternate { text = trimmingFractionZeros(text) }
            return text
        }
    }

    private static func exponential(_ value: Double, precision: Int, uppercase: Bool, alternate: Bool) -> String {
        let (digits, exponent) = value == 0
            ? ([UInt8](repeating: 0, count: precision + 1), 0) : DecimalDigits.significant(value, count: precision + 1)
        var text = String(Character(Unicode.Scalar(digits[0] + 48)))
        if precision > 0 || alternate { text += "." }
        text += String(decoding: digits.dropFirst().map { $0 + 48 }, as: UTF8.self)
        let exponentDigits = String(exponent.magnitude)
        text += (uppercase ? "E" : "e") + (exponent < 0 ? "-" : "+")
            + (exponentDigits.count < 2 ? "0" : "") + exponentDigits
        return text
    }

    /// `1.500000e+00` → `1.5e+00`, `2.000` → `2`: `%g` without `#` drops trailing fraction zeros.
    private static func trimmingFractionZeros(_ text: String) -> String {
        let exponentStart = text.firstIndex { $0 == "e" || $0 == "E" } ?? text.endIndex
        var mantissa = text[..<exponentStart]
        guard mantissa.contains(".") else { return text }
        while mantissa.hasSuffix("0") { mantissa.removeLast() }
        if mantissa.hasSuffix(".") { mantissa.removeLast() }
        return String(mantissa + text[exponentStart...])
    }

    private static func pad(sign: String, body: String, spec: Spec, zeroPadAllowed: Bool) -> String {
        let width = spec.width ?? 0
        let length = sign.unicodeScalars.count + body.unicodeScalars.count
        guard width > length else { return sign + body }
        let fill = width - length
        if spec.flags.contains(.leftAlign) {
            return sign + body + String(repeating: " ", count: fill)
        }
        if spec.flags.contains(.zero), zeroPadAllowed {
            return sign + String(repeating: "0", count: fill) + body
        }
        return String(repeating: " ", count: fill) + sign + body
    }
}
