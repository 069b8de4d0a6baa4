/// One `%` specification of a format string, read as `String(format:)` reads it: the project's one specifier
/// grammar, used by the formatter (`PrintfFormatter`), the judgement of translations (`FormatSpecifiers`), the
/// pseudo-localizer (`PseudoText`), catalog compiling and the expansion bounds of `.stringsdict` entries.
///
/// The grammar is CoreFoundation's (`__CFParseFormatSpec`, what Foundation's `String(format:)` runs on Apple
/// platforms and on Linux): after the `%`, flags (`-`, `+`, space, `0`, `#`; not glibc's `'`), a width and a
/// precision (digits, `*`, or `*n$` for argument n), a position `n$` and length modifiers (`hh h l ll q L z t j`)
/// are read in any order until a conversion ends the specification:
/// `d D i u U o O x X f F e E g G a A c C s S p P n @`. `%%` is a percent sign; `%#@name@` (or `%2$#@name@`) a
/// `.stringsdict` variable, named up to the next `@`. A character that is none of these ends the specification as
/// an unknown one (CoreFoundation prints it as text and takes no argument); a text that ends first leaves it
/// incomplete. Digits are read up to `maximumCount` (more is read as that), so no specification is unbounded.
package struct FormatSpecifier: Sendable, Equatable {
    /// The largest width, precision and position: larger ones are read as this, so that no conversion pads or
    /// prints more than about this many characters.
    package static let maximumCount = 1_000_000

    /// A width or a precision.
    package enum Count: Sendable, Equatable {
        /// Written as digits.
        case fixed(Int)
        /// `*`: taken from the next argument, or (`*n$`) from argument `position`.
        case argument(position: Int?)
    }

    /// What the specification is.
    package enum Kind: Sendable, Equatable {
        /// `%%`: a percent sign; no argument.
        case percent
        /// A conversion that takes an argument: its character (`d`, `@`, `f` …).
        case conversion(UInt8)
        /// `%#@name@`: a `.stringsdict` variable; the byte range of its name.
        case variable(name: Range<Int>)
        /// A character that is no conversion (`%k`, `%é`): the specification ends after it.
        case unknown
        /// The text ends before a conversion (`50%`, `%1$`).
        case incomplete
        /// The text ends before the `@` that closes a variable's name (`%#@name`).
        case unterminatedVariable
    }

    /// A length modifier: the size of the argument in C, which the conversions here do not need.
    package enum Length: UInt8, Sendable, Equatable {
        case none, hh, h, l, ll, q, L, z, t, j

        /// How it is written (`ll`), empty for none.
        package var text: String {
            self == .none ? "" : String(describing: self)
        }
    }

    /// The bytes from the `%` to the end of the specification.
    package var range: Range<Int>
    /// `n$`: the argument the conversion (or the variable) takes; `nil` for the next one.
    package var position: Int?
    package var flags: PrintfFlags = []
    package var width: Count?
    package var precision: Count?
    package var length: Length = .none
    package var kind: Kind

    /// Whether it takes an argument: a conversion or a variable.
    package var takesArgument: Bool {
        switch kind {
        case .conversion, .variable: true
        case .percent, .unknown, .incomplete, .unterminatedVariable: false
        }
    }

    /// Reads the specification that starts at `bytes[start]`, a `%`.
    /// - Complexity: O(n) in the length of the specification (a variable's name included).
    @inline(__always)
    package static func read(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> FormatSpecifier {
        var specifier = FormatSpecifier(range: start..<bytes.count, kind: .incomplete)
        let end = bytes.count
        var index = start + 1
        var seenDot = false
        while index < end {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "1")...UInt8(ascii: "9"):
                var number = Int(byte - UInt8(ascii: "0"))
                while index < end, let digit = asciiDigit(bytes[index]) {
                    number = min(number * 10 + digit, maximumCount)
                    index += 1
                }
                if index < end, bytes[index] == UInt8(ascii: "$") {
                    index += 1
                    // The position of the `*` just read, else of the conversion.
                    if specifier.precision == .argument(position: nil) {
                        specifier.precision = .argument(position: number)
                    } else if specifier.width == .argument(position: nil) {
                        specifier.width = .argument(position: number)
                    } else {
                        specifier.position = number
                    }
                } else if seenDot {
                    specifier.precision = .fixed(number)
                } else {
                    specifier.width = .fixed(number)
                }
            case UInt8(ascii: "0"):
                if seenDot {
                    specifier.precision = .fixed(0)
                } else {
                    specifier.flags.insert(.zero)
                }
            case UInt8(ascii: "*"):
                if seenDot {
                    specifier.precision = .argument(position: nil)
                } else {
                    specifier.width = .argument(position: nil)
                }
            case UInt8(ascii: "."):
                seenDot = true
                specifier.precision = .fixed(0)  // `.` alone is precision 0, as in C
            case UInt8(ascii: "h"):
                specifier.length = index < end && bytes[index] == UInt8(ascii: "h") ? .hh : .h
                if specifier.length == .hh { index += 1 }
            case UInt8(ascii: "l"):
                specifier.length = index < end && bytes[index] == UInt8(ascii: "l") ? .ll : .l
                if specifier.length == .ll { index += 1 }
            case UInt8(ascii: "q"): specifier.length = .q
            case UInt8(ascii: "L"): specifier.length = .L
            case UInt8(ascii: "z"): specifier.length = .z
            case UInt8(ascii: "t"): specifier.length = .t
            case UInt8(ascii: "j"): specifier.length = .j
            case UInt8(ascii: "%"):
                specifier.kind = .percent
                specifier.range = start..<index
                return specifier
            case UInt8(ascii: "@") where specifier.flags.contains(.alternate):
                var close = index
                while close < end, bytes[close] != UInt8(ascii: "@") { close += 1 }
                guard close < end else {
                    specifier.kind = .unterminatedVariable
                    return specifier
                }
                specifier.kind = .variable(name: index..<close)
                specifier.range = start..<(close + 1)
                return specifier
            default:
                if let flag = PrintfFlags(byte: byte) {
                    specifier.flags.insert(flag)
                    continue
                }
                if ArgumentClass(conversion: byte) != nil {
                    specifier.kind = .conversion(byte)
                } else {
                    // The whole scalar: a text is cut at scalar boundaries only.
                    while index < end, bytes[index] & 0xC0 == 0x80 { index += 1 }
                    specifier.kind = .unknown
                }
                specifier.range = start..<index
                return specifier
            }
        }
        return specifier
    }
}

extension FormatSpecifier {
    /// Calls `body` with each specification of `bytes`, in order.
    @inline(__always)
    package static func forEach(in bytes: UnsafeBufferPointer<UInt8>, _ body: (FormatSpecifier) -> Void) {
        var index = 0
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "%") else {
                index += 1
                continue
            }
            let specifier = read(bytes, at: index)
            body(specifier)
            index = specifier.range.upperBound
        }
    }

    /// Each specification of `text`, in order, with its text; ranges are offsets in `text.utf8`.
    package static func all(in text: String) -> [(specifier: FormatSpecifier, text: String)] {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return [] }
        return withBytes(of: text) { bytes in
            var found: [(FormatSpecifier, String)] = []
            forEach(in: bytes) { specifier in
                found.append((specifier, String(decoding: UnsafeBufferPointer(rebasing: bytes[specifier.range]),
                                                 as: UTF8.self)))
            }
            return found
        }
    }

    /// The specification of `text` that starts at UTF-8 offset `offset` (a `%`).
    package static func read(in text: String, at offset: Int) -> FormatSpecifier {
        withBytes(of: text) { read($0, at: offset) }
    }

    /// The name of a variable specification, read from `text`.
    package func variableName(in text: String) -> String? {
        guard case .variable(let name) = kind else { return nil }
        return Self.withBytes(of: text) { String(decoding: UnsafeBufferPointer(rebasing: $0[name]), as: UTF8.self) }
    }

    /// `body` with the UTF-8 bytes of `text`: in place when the string is contiguous, else copied once.
    package static func withBytes<Result>(of text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if let result = text.utf8.withContiguousStorageIfAvailable(body) { return result }
        return Array(text.utf8).withUnsafeBufferPointer(body)
    }
}

/// The flags of a conversion specification: `-+ 0#` (CoreFoundation has no `'`: `%'d` prints `'d`).
package struct PrintfFlags: OptionSet, Sendable {
    package let rawValue: UInt8
    static let leftAlign = PrintfFlags(rawValue: 1)
    static let plus = PrintfFlags(rawValue: 2)
    static let space = PrintfFlags(rawValue: 4)
    static let zero = PrintfFlags(rawValue: 8)
    package static let alternate = PrintfFlags(rawValue: 16)

    package init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// The flag `byte` writes, or nil when it is no flag.
    init?(byte: UInt8) {
        switch byte {
        case UInt8(ascii: "-"): self = .leftAlign
        case UInt8(ascii: "+"): self = .plus
        case UInt8(ascii: " "): self = .space
        case UInt8(ascii: "0"): self = .zero
        case UInt8(ascii: "#"): self = .alternate
        default: return nil
        }
    }
}

/// What a conversion reads from its argument: a translation must read each argument as the development language
/// does, by class (`%d`, `%ld` and `%lld` agree; `%d` and `%@` do not: on Apple platforms the wrong class reads
/// garbage or crashes the app).
package enum ArgumentClass: Sendable, Hashable, Comparable {
    /// `d D i`, and a `*` width or precision.
    case integer
    /// `u U o O x X`.
    case unsigned
    /// `f F e E g G a A`.
    case floating
    /// `@`.
    case object
    /// `s S P`.
    case cString
    /// `p n`.
    case pointer
    /// `c C`.
    case character

    /// The class of conversion `byte`, or `nil` when it is no conversion.
    @inline(__always)
    package init?(conversion byte: UInt8) {
        switch byte {
        case UInt8(ascii: "d"), UInt8(ascii: "D"), UInt8(ascii: "i"): self = .integer
        case UInt8(ascii: "u"), UInt8(ascii: "U"), UInt8(ascii: "o"), UInt8(ascii: "O"), UInt8(ascii: "x"),
             UInt8(ascii: "X"):
            self = .unsigned
        case UInt8(ascii: "f"), UInt8(ascii: "F"), UInt8(ascii: "e"), UInt8(ascii: "E"), UInt8(ascii: "g"),
             UInt8(ascii: "G"), UInt8(ascii: "a"), UInt8(ascii: "A"):
            self = .floating
        case UInt8(ascii: "@"): self = .object
        case UInt8(ascii: "s"), UInt8(ascii: "S"), UInt8(ascii: "P"): self = .cString
        case UInt8(ascii: "p"), UInt8(ascii: "n"): self = .pointer
        case UInt8(ascii: "c"), UInt8(ascii: "C"): self = .character
        default: return nil
        }
    }

    /// The class a `.stringsdict` variable's `NSStringFormatValueTypeKey` (`d`, `lld`, `f` …) names: its last
    /// character's; `nil` when it is empty or no conversion.
    package init?(valueType: String) {
        guard let last = valueType.utf8.last else { return nil }
        self.init(conversion: last)
    }

    /// The class with its article, for messages: `an integer`.
    package var phrase: String {
        switch self {
        case .integer: "an integer"
        case .unsigned: "an unsigned integer"
        case .floating: "a floating-point number"
        case .object: "an object"
        case .cString: "a C string"
        case .pointer: "a pointer"
        case .character: "a character"
        }
    }
}
