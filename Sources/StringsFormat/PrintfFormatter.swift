/// What `PrintfFormatter` puts in place of a `%#@name@` variable.
protocol PrintfVariables {
    /// Whether `%#@name@` is a variable at all (false outside a stringsdict entry, where it is an error).
    var hasVariables: Bool { get }
    /// The text to format in place of the variable `name`, given the variable's argument.
    func text(ofVariable name: String, for argument: FormatArgument) throws(FormatError) -> String
}

/// No variables: a plain format string.
struct NoPrintfVariables: PrintfVariables {
    var hasVariables: Bool { false }
    func text(ofVariable name: String, for argument: FormatArgument) throws(FormatError) -> String {
        throw FormatError("variable '%#@\(name)@' outside a stringsdict entry")  // not called: no variables
    }
}

/// A printf-style formatter for the specifiers Apple strings use, matching `String(format:)`.
///
/// Supported: `%%`, `%@`, `%s`, `%c`, `%d %i %u %o %x %X`, `%f %F %e %E %g %G`, with positions (`%2$@`),
/// flags (`-+ 0#`), widths and precisions (digits or `*`), and length modifiers (`hh h l ll q L z t j`, which
/// do not change the result for these arguments). `%#@name@` is a stringsdict variable, handed to `variables`.
/// A specifier without an argument, or an unknown conversion, is a `FormatError` naming it.
///
/// Bounded whatever the format and arguments: widths, precisions and positions are capped at
/// `Spec.maximumCount`, a `*` reads its argument as C's `int` (the low 32 bits, as `String(format:)` on Linux
/// does; a negative width left-justifies, a negative precision is none), variables nest at most
/// `StringsdictEntry.maximumNesting` deep and expand to at most `maximumExpandedSize` bytes of texts, and a
/// result longer than `StringsdictFormatter.maximumOutputSize` bytes is a `FormatError`.
///
/// It reads the format's UTF-8 bytes in place and writes UTF-8 bytes: text between specifiers is copied as
/// one run, and `%d` and `%@` without flags, width or precision (nearly all of Apple strings' specifiers)
/// are written straight into the output.
struct PrintfFormatter<Variables: PrintfVariables> {
    let arguments: [FormatArgument]
    let variables: Variables
    private var cursor = 0
    private var depth = 0
    /// The bytes of variable texts expanded so far.
    private var expandedBytes = 0
    private var output: [UInt8] = []

    init(arguments: [FormatArgument], variables: Variables) {
        self.arguments = arguments
        self.variables = variables
    }

    /// Formats `format`, consuming arguments in order (or by position).
    mutating func format(_ text: String) throws(FormatError) -> String {
        output.reserveCapacity(text.utf8.count + 32)
        try append(text, ownArgument: nil)
        return String(decoding: output, as: UTF8.self)
    }

    /// Formats `text` onto the output; `ownArgument`: inside a variable's text, the argument that unpositioned
    /// ordinary specifiers refer to.
    private mutating func append(_ text: String, ownArgument: Int?) throws(FormatError) {
        var text = text
        // `withUTF8` rethrows untyped errors: the typed one travels in a `Result`.
        let result: Result<Void, FormatError> = text.withUTF8 { bytes in
            do throws(FormatError) {
                return .success(try append(bytes, ownArgument: ownArgument))
            } catch {
                return .failure(error)
            }
        }
        try result.get()
    }

    private mutating func append(_ bytes: UnsafeBufferPointer<UInt8>, ownArgument: Int?) throws(FormatError) {
        let end = bytes.count
        var index = 0
        while index < end {
            let runStart = index
            while index < end, bytes[index] != UInt8(ascii: "%") { index += 1 }
            if index > runStart {
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                try checkOutputSize()
            }
            guard index < end else { return }
            let start = index
            index += 1
            var spec = Spec()
            // Position: digits followed by `$`.
            var lookahead = index
            var number = 0
            while lookahead < end, let digit = asciiDigit(bytes[lookahead]) {
                number = min(number * 10 + digit, Spec.maximumCount)
                lookahead += 1
            }
            if lookahead > index, lookahead < end, bytes[lookahead] == UInt8(ascii: "$"), number > 0 {
                spec.position = number
                index = lookahead + 1
            }
            while index < end, let flag = PrintfFlags(byte: bytes[index]) {
                spec.flags.insert(flag)
                index += 1
            }
            if index < end, bytes[index] == UInt8(ascii: "@"), spec.flags.contains(.alternate) {
                // `%#@name@`: a stringsdict variable.
                guard let close = (index + 1..<end).first(where: { bytes[$0] == UInt8(ascii: "@") }) else {
                    throw FormatError("unterminated variable '\(Self.text(bytes, start..<end))'")
                }
                let name = Self.text(bytes, (index + 1)..<close)
                index = close + 1
                try expandVariable(name, position: spec.position)
                continue
            }
            if let width = try readCount(bytes, &index) {
                // A negative width (only a `*` gives one) left-justifies, as in C.
                if width < 0 { spec.flags.insert(.leftAlign) }
                spec.width = abs(width)
            }
            if index < end, bytes[index] == UInt8(ascii: ".") {
                index += 1
                // A negative precision (only a `*` gives one) is taken as if it were not there, as in C.
                let precision = try readCount(bytes, &index) ?? 0
                spec.precision = precision < 0 ? nil : precision
            }
            while index < end, Self.isLengthModifier(bytes[index]) { index += 1 }
            guard index < end else { throw FormatError("incomplete specifier '\(Self.text(bytes, start..<end))'") }
            let conversion = bytes[index]
            index += 1
            if conversion == UInt8(ascii: "%") {
                output.append(UInt8(ascii: "%"))
                continue
            }
            guard conversion < 0x80, Self.isConversion(conversion) else {
                // The whole scalar, for the message.
                while index < end, bytes[index] & 0xC0 == 0x80 { index += 1 }
                throw FormatError("unsupported format specifier '\(Self.text(bytes, start..<index))'")
            }
            spec.conversion = Unicode.Scalar(conversion)
            let argumentIndex = try argumentIndex(position: spec.position, ownArgument: ownArgument) {
                Self.text(bytes, start..<index)
            }
            appendConversion(arguments[argumentIndex], spec)
            try checkOutputSize()
        }
    }

    /// Stops a format whose result grows past `StringsdictFormatter.maximumOutputSize`.
    private func checkOutputSize() throws(FormatError) {
        guard output.count <= StringsdictFormatter.maximumOutputSize else {
            throw FormatError("the formatted text is longer than \(StringsdictFormatter.maximumOutputSize) bytes")
        }
    }

    /// Writes one conversion: the plain `%d` and `%@` directly, the others through `PrintfConversion`.
    private mutating func appendConversion(_ argument: FormatArgument, _ spec: Spec) {
        if spec.flags.isEmpty, spec.width == nil, spec.precision == nil {
            switch (spec.conversion, argument) {
            case ("d", .int(let value)), ("i", .int(let value)), ("@", .int(let value)):
                appendDecimal(value)
                return
            case ("@", .string(let text)):
                output.append(contentsOf: text.utf8)
                return
            default:
                break
            }
        }
        output.append(contentsOf: PrintfConversion.convert(argument, spec).utf8)
    }

    private mutating func appendDecimal(_ value: Int64) {
        if value < 0 { output.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digitCount = 1
        var rest = magnitude
        while rest >= 10 {
            rest /= 10
            digitCount += 1
        }
        output.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: digitCount))
        var position = output.count - 1
        repeat {
            output[position] = UInt8(ascii: "0") + UInt8(magnitude % 10)
            magnitude /= 10
            position -= 1
        } while magnitude > 0
    }

    private mutating func expandVariable(_ name: String, position: Int?) throws(FormatError) {
        guard variables.hasVariables else { throw FormatError("variable '%#@\(name)@' outside a stringsdict entry") }
        guard depth < StringsdictEntry.maximumNesting else {
            throw FormatError("variable '\(name)' nests more than \(StringsdictEntry.maximumNesting) deep "
                + "(does it refer to itself?)")
        }
        let argumentIndex = try argumentIndex(position: position, ownArgument: nil) { "%#@\(name)@" }
        let text = try variables.text(ofVariable: name, for: arguments[argumentIndex])
        // An entry read from a file never gets here (`checkExpansionBounds()`); one made in code might.
        expandedBytes += text.utf8.count
        guard expandedBytes <= StringsdictEntry.maximumExpandedSize else {
            throw FormatError("the variables expand to more than \(StringsdictEntry.maximumExpandedSize) bytes")
        }
        depth += 1
        defer { depth -= 1 }
        try append(text, ownArgument: argumentIndex)
    }

    /// A width or precision: digits, or `*` for the next argument; `nil` when neither is there.
    ///
    /// The argument of a `*` is read as C's `int` (its low 32 bits, what `String(format:)` on Linux reads), so
    /// it may be negative. Either way the magnitude is at most `Spec.maximumCount`.
    private mutating func readCount(_ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int)
        throws(FormatError) -> Int?
    {
        if index < bytes.count, bytes[index] == UInt8(ascii: "*") {
            index += 1
            let argument = arguments[try argumentIndex(position: nil, ownArgument: nil) { "*" }]
            let value = Int(Int32(truncatingIfNeeded: argument.integerValue))
            return min(max(value, -Spec.maximumCount), Spec.maximumCount)
        }
        var value: Int?
        while index < bytes.count, let digit = asciiDigit(bytes[index]) {
            value = min((value ?? 0) * 10 + digit, Spec.maximumCount)
            index += 1
        }
        return value
    }

    /// The index of the argument a specifier takes; `specifier` names it in the error when there is none.
    private mutating func argumentIndex(position: Int?, ownArgument: Int?, specifier: () -> String)
        throws(FormatError) -> Int
    {
        let index: Int
        if let position {
            index = position - 1
        } else if let ownArgument {
            index = ownArgument
        } else {
            index = cursor
            cursor += 1
        }
        guard index < arguments.count else {
            throw FormatError("'\(specifier())' needs argument \(index + 1), but only \(arguments.count) were given")
        }
        return index
    }

    private static func text(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    /// Whether `byte` is a length modifier (`hh h l ll q L z t j`), which the conversions here ignore.
    static func isLengthModifier(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "h"), UInt8(ascii: "l"), UInt8(ascii: "q"), UInt8(ascii: "L"), UInt8(ascii: "z"),
             UInt8(ascii: "t"), UInt8(ascii: "j"):
            true
        default:
            false
        }
    }

    private static func isConversion(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "@"), UInt8(ascii: "s"), UInt8(ascii: "S"), UInt8(ascii: "c"), UInt8(ascii: "C"),
             UInt8(ascii: "d"), UInt8(ascii: "i"), UInt8(ascii: "u"), UInt8(ascii: "o"), UInt8(ascii: "x"),
             UInt8(ascii: "X"), UInt8(ascii: "f"), UInt8(ascii: "F"), UInt8(ascii: "e"), UInt8(ascii: "E"),
             UInt8(ascii: "g"), UInt8(ascii: "G"), UInt8(ascii: "a"), UInt8(ascii: "A"):
            true
        default:
            false
        }
    }
}

extension PrintfFormatter where Variables == NoPrintfVariables {
    /// A formatter of a plain format string.
    init(arguments: [FormatArgument]) {
        self.init(arguments: arguments, variables: NoPrintfVariables())
    }
}

/// The value of an ASCII digit, or `nil`.
func asciiDigit(_ byte: UInt8) -> Int? {
    byte >= 0x30 && byte <= 0x39 ? Int(byte - 0x30) : nil
}

/// The value of an ASCII digit, or `nil`.
func asciiDigit(_ scalar: Unicode.Scalar) -> Int? {
    scalar.value >= 0x30 && scalar.value <= 0x39 ? Int(scalar.value - 0x30) : nil
}

/// The flags of a conversion specification: `-+ 0#'`.
struct PrintfFlags: OptionSet {
    let rawValue: UInt8
    static let leftAlign = PrintfFlags(rawValue: 1)
    static let plus = PrintfFlags(rawValue: 2)
    static let space = PrintfFlags(rawValue: 4)
    static let zero = PrintfFlags(rawValue: 8)
    static let alternate = PrintfFlags(rawValue: 16)
    static let grouping = PrintfFlags(rawValue: 32)

    init(rawValue: UInt8) {
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
        case UInt8(ascii: "'"): self = .grouping
        default: return nil
        }
    }
}

/// A parsed conversion specification.
struct Spec {
    /// The largest width, precision and position: larger ones written as digits or given to a `*` are read as
    /// this, so that no conversion pads or prints more than about this many characters.
    static let maximumCount = 1_000_000


    var position: Int?
    var flags: PrintfFlags = []
    var width: Int?
    var precision: Int?
    var conversion: Unicode.Scalar = "%"
}
