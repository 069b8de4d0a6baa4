/// The CLDR plural operands of a number as written: `n i v w f t c e` (UTS #35, "Plural Operand Meanings").
///
/// Operands come from the decimal digits as written, so `1`, `1.0` and `1.50` differ: `1.50` has `v` = 2,
/// `f` = 50, `t` = 5. A compact exponent (`1.2c6`, `1.2e6`) moves the decimal point first and sets `c`/`e`.
/// Integer operands too large for `UInt64` are kept two ways: exactly when they fit below 10^18, else as
/// `UInt64.max` (equal to no rule constant), and always modulo 10^18 in the `…Low` fields (every CLDR
/// modulus divides 10^18).
public struct PluralOperands: Sendable, Hashable {
    /// Integer digits of `n`, or `UInt64.max` when they are 10^18 or more.
    public var i: UInt64
    /// Visible fraction digits as an integer, trailing zeros included (`1.50` → 50), capped like `i`.
    public var f: UInt64
    /// Visible fraction digits as an integer without trailing zeros (`1.50` → 5), capped like `i`.
    public var t: UInt64
    /// Number of visible fraction digits, trailing zeros included.
    public var v: Int
    /// Number of visible fraction digits without trailing zeros.
    public var w: Int
    /// The compact decimal exponent (`1.2c6` → 6); `e` in the rules is a synonym.
    public var c: Int
    /// `i` modulo 10^18.
    public var iLow: UInt64
    /// `f` modulo 10^18.
    public var fLow: UInt64
    /// `t` modulo 10^18.
    public var tLow: UInt64

    /// Whether `n` has no fraction (`t` = 0), the condition for `n` to equal an integer.
    public var isInteger: Bool { t == 0 }
    /// The exponent operand `e`, the same as `c`.
    public var e: Int { c }

    private static let lowModulus: UInt64 = 1_000_000_000_000_000_000

    /// The operands of a non-negative integer (`v` = 0).
    public init(_ value: UInt64) {
        i = value < Self.lowModulus ? value : .max
        iLow = value % Self.lowModulus
        f = 0
        t = 0
        fLow = 0
        tLow = 0
        v = 0
        w = 0
        c = 0
    }

    /// The operands of an integer; `n` is its absolute value.
    public init(_ value: Int) {
        self.init(UInt64(value.magnitude))
    }

    /// The operands of a `Double`, read as its shortest round-trip decimal form; an integral value has
    /// `v` = 0 (as ICU reads a double), so `1.0` is "one" in English. Infinite and NaN values, and values
    /// whose shortest form needs a negative exponent (below 1e-4), get the operands of 0.
    public init(_ value: Double) {
        guard value.isFinite else {
            self.init(UInt64(0))
            return
        }
        if value.rounded() == value, value.magnitude < 1e18 {
            self.init(UInt64(value.magnitude))
            return
        }
        let text = value.magnitude.description
        self = (try? Self.parse(text)) ?? Self(UInt64(0))
    }

    /// The operands of `text`, a decimal number as written: an optional sign, digits, an optional `.` and
    /// fraction digits, and an optional compact exponent `c`/`e` with digits (`-1.50`, `1.0000001c6`).
    /// - Throws: `PluralOperands.FormatError` naming what is wrong.
    public init(parsing text: String) throws(FormatError) {
        self = try Self.parse(text)
    }

    /// Why a string is not a decimal number the plural rules accept.
    public struct FormatError: Error, Sendable, Hashable, CustomStringConvertible {
        /// The rejected text.
        public var text: String
        /// What is wrong with it.
        public var reason: String
        /// `not a plural number: 'text' (reason)`.
        public var description: String { "not a plural number: '\(text)' (\(reason))" }
    }

    private static func parse(_ text: String) throws(FormatError) -> PluralOperands {
        var integerDigits: [UInt8] = []
        var fractionDigits: [UInt8] = []
        var exponent = 0
        var state = 0  // 0: sign or integer digits, 1: fraction digits, 2: exponent digits
        var sawExponentDigit = false
        var bytes = Array(text.utf8)[...]
        if bytes.first == UInt8(ascii: "-") || bytes.first == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                let digit = byte - UInt8(ascii: "0")
                switch state {
                case 0: integerDigits.append(digit)
                case 1: fractionDigits.append(digit)
                default:
                    sawExponentDigit = true
                    guard exponent < 1_000 else { throw FormatError(text: text, reason: "exponent too large") }
                    exponent = exponent * 10 + Int(digit)
                }
            case UInt8(ascii: ".") where state == 0:
                state = 1
            case UInt8(ascii: "c"), UInt8(ascii: "e"), UInt8(ascii: "C"), UInt8(ascii: "E"):
                guard state < 2 else { throw FormatError(text: text, reason: "a second exponent") }
                state = 2
            default:
                throw FormatError(text: text, reason: "unexpected character '\(Unicode.Scalar(byte))'")
            }
        }
        guard !integerDigits.isEmpty || !fractionDigits.isEmpty else {
            throw FormatError(text: text, reason: "no digits")
        }
        guard state < 2 || sawExponentDigit else { throw FormatError(text: text, reason: "exponent without digits") }
        // The exponent moves the decimal point right: digits leave the fraction for the integer part, and
        // zeros fill the integer part once the fraction runs out.
        let moved = min(exponent, fractionDigits.count)
        integerDigits += fractionDigits.prefix(moved)
        fractionDigits.removeFirst(moved)
        integerDigits += Array(repeating: 0, count: exponent - moved)
        var operands = PluralOperands(UInt64(0))
        (operands.i, operands.iLow) = value(of: integerDigits[...])
        (operands.f, operands.fLow) = value(of: fractionDigits[...])
        let trimmed = fractionDigits.lastIndex(where: { $0 != 0 }).map { fractionDigits[...$0] } ?? []
        (operands.t, operands.tLow) = value(of: trimmed)
        operands.v = fractionDigits.count
        operands.w = trimmed.count
        operands.c = exponent
        return operands
    }

    /// The value of `digits` capped at `UInt64.max` from 10^18 on, and modulo 10^18.
    private static func value(of digits: ArraySlice<UInt8>) -> (UInt64, UInt64) {
        var low: UInt64 = 0
        var isLarge = false
        for digit in digits {
            let next = low.multipliedReportingOverflow(by: 10).partialValue % lowModulus
            if low >= lowModulus / 10 { isLarge = true }
            low = (next + UInt64(digit)) % lowModulus
        }
        return (isLarge ? .max : low, low)
    }
}
