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
/// Specifiers are read by `FormatSpecifier`, the project's one grammar (CoreFoundation's): `%%`, `%@`, `%s %S`,
/// `%c %C`, `%d %D %i %u %U %o %O %x %X`, `%f %F %e %E %g %G %a %A`, with positions (`%2$@`), flags (`-+ 0#`),
/// widths and precisions (digits, `*` or `*n$`), and length modifiers (`hh h l ll q L z t j`, which do not change
/// the result for these arguments). `%#@name@` is a stringsdict variable, handed to `variables`. A specifier
/// without an argument, an unknown conversion, or `%p`, `%P` and `%n` (addresses), is a `FormatError` naming it.
///
/// Bounded whatever the format and arguments: widths, precisions and positions are capped at
/// `FormatSpecifier.maximumCount`, a `*` reads its argument as C's `int` (the low 32 bits, as `String(format:)` on
/// Linux does; a negative width left-justifies, a negative precision is none), variables nest at most
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
            let specifier = FormatSpecifier.read(bytes, at: index)
            index = specifier.range.upperBound
            switch specifier.kind {
            case .percent:
                output.append(UInt8(ascii: "%"))
            case .variable(let name):
                try expandVariable(Self.text(bytes, name), position: specifier.position)
            case .conversion(let conversion):
                guard Self.isSupported(conversion) else {
                    throw FormatError("unsupported format specifier '\(Self.text(bytes, specifier.range))'")
                }
                var spec = Spec(flags: specifier.flags, conversion: Unicode.Scalar(conversion))
                if let count = specifier.width {
                    let width = try value(of: count)
                    // A negative width (only a `*` gives one) left-justifies, as in C.
                    if width < 0 { spec.flags.insert(.leftAlign) }
                    spec.width = abs(width)
                }
                if let count = specifier.precision {
                    // A negative precision (only a `*` gives one) is taken as if it were not there, as in C.
                    let precision = try value(of: count)
                    spec.precision = precision < 0 ? nil : precision
                }
                let argumentIndex = try argumentIndex(position: specifier.position, ownArgument: ownArgument) {
                    Self.text(bytes, specifier.range)
                }
                appendConversion(arguments[argumentIndex], spec)
                try checkOutputSize()
            case .unknown:
                throw FormatError("unsupported format specifier '\(Self.text(bytes, specifier.range))'")
            case .incomplete:
                throw FormatError("incomplete specifier '\(Self.text(bytes, specifier.range))'")
            case .unterminatedVariable:
                throw FormatError("unterminated variable '\(Self.text(bytes, specifier.range))'")
            }
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

    /// A width or precision: its digits, or the argument a `*` names (the next one, or `*n$`'s).
    ///
    /// The argument of a `*` is read as C's `int` (its low 32 bits, what `String(format:)` on Linux reads), so
    /// it may be negative. Either way the magnitude is at most `FormatSpecifier.maximumCount`.
    private mutating func value(of count: FormatSpecifier.Count) throws(FormatError) -> Int {
        switch count {
        case .fixed(let value):
            return value
        case .argument(let position):
            let argument = arguments[try argumentIndex(position: position, ownArgument: nil) { "*" }]
            let value = Int(Int32(truncatingIfNeeded: argument.integerValue))
            return min(max(value, -FormatSpecifier.maximumCount), FormatSpecifier.maximumCount)
        }
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

    /// Whether the formatter prints conversion `byte` (every conversion but `%n`, `%p` and `%P`, which print
    /// addresses or write through them).
    private static func isSupported(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "n"), UInt8(ascii: "p"), UInt8(ascii: "P"): false
        default: true
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

/// A conversion specification with its width and precision resolved, for `PrintfConversion`.
struct Spec {
    var flags: PrintfFlags = []
    var width: Int?
    var precision: Int?
    var conversion: Unicode.Scalar = "%"
}
