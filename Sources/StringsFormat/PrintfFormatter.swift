/// A printf-style formatter for the specifiers Apple strings use, matching `String(format:)`.
///
/// Supported: `%%`, `%@`, `%s`, `%c`, `%d %i %u %o %x %X`, `%f %F %e %E %g %G`, with positions (`%2$@`),
/// flags (`-+ 0#`), widths and precisions (digits or `*`), and length modifiers (`hh h l ll q L z t j`, which
/// do not change the result for these arguments). `%#@name@` is a stringsdict variable, handed to `variable`.
/// A specifier without an argument, or an unknown conversion, is a `FormatError` naming it.
struct PrintfFormatter {
    /// Resolves `%#@name@` given the variable's argument: returns the text to format in its place.
    typealias VariableResolver = (_ name: String, _ argument: FormatArgument) throws(FormatError) -> String

    let arguments: [FormatArgument]
    let variable: VariableResolver?
    private var cursor = 0
    private var depth = 0

    init(arguments: [FormatArgument], variable: VariableResolver? = nil) {
        self.arguments = arguments
        self.variable = variable
    }

    /// Formats `format`, consuming arguments in order (or by position).
    mutating func format(_ text: String) throws(FormatError) -> String {
        try format(Array(text.unicodeScalars)[...], ownArgument: nil)
    }

    /// `ownArgument`: inside a variable's text, the argument that unpositioned ordinary specifiers refer to.
    private mutating func format(_ scalars: ArraySlice<Unicode.Scalar>, ownArgument: Int?) throws(FormatError)
        -> String
    {
        var output = ""
        var index = scalars.startIndex
        while index < scalars.endIndex {
            let scalar = scalars[index]
            guard scalar == "%" else {
                output.unicodeScalars.append(scalar)
                index += 1
                continue
            }
            var spec = Spec()
            let start = index
            index += 1
            // Position: digits followed by `$`.
            var lookahead = index
            var number = 0
            while lookahead < scalars.endIndex, let digit = asciiDigit(scalars[lookahead]) {
                number = number * 10 + digit
                lookahead += 1
            }
            if lookahead > index, lookahead < scalars.endIndex, scalars[lookahead] == "$", number > 0 {
                spec.position = number
                index = lookahead + 1
            }
            while index < scalars.endIndex, "-+ 0#'".unicodeScalars.contains(scalars[index]) {
                spec.flags.insert(scalars[index])
                index += 1
            }
            if index < scalars.endIndex, scalars[index] == "@", spec.flags.contains("#") {
                // `%#@name@`: a stringsdict variable.
                guard let end = scalars[(index + 1)...].firstIndex(of: "@") else {
                    throw FormatError("unterminated variable '\(String(String.UnicodeScalarView(scalars[start...])))'")
                }
                let name = String(String.UnicodeScalarView(scalars[(index + 1)..<end]))
                index = end + 1
                output += try expandVariable(name, position: spec.position)
                continue
            }
            spec.width = try readCount(scalars, &index, ownArgument: ownArgument)
            if index < scalars.endIndex, scalars[index] == "." {
                index += 1
                spec.precision = try readCount(scalars, &index, ownArgument: ownArgument) ?? 0
            }
            while index < scalars.endIndex, "hlqLztj".unicodeScalars.contains(scalars[index]) { index += 1 }
            guard index < scalars.endIndex else {
                throw FormatError("incomplete specifier '\(String(String.UnicodeScalarView(scalars[start...])))'")
            }
            spec.conversion = scalars[index]
            index += 1
            if spec.conversion == "%" {
                output += "%"
                continue
            }
            let text = String(String.UnicodeScalarView(scalars[start..<index]))
            guard "@sScdiuoxXfFeEgGaA".unicodeScalars.contains(spec.conversion) else {
                throw FormatError("unsupported format specifier '\(text)'")
            }
            let argument = try takeArgument(position: spec.position, ownArgument: ownArgument, specifier: text)
            output += PrintfConversion.convert(argument, spec)
        }
        return output
    }

    private mutating func expandVariable(_ name: String, position: Int?) throws(FormatError) -> String {
        guard let variable else { throw FormatError("variable '%#@\(name)@' outside a stringsdict entry") }
        guard depth < 16 else { throw FormatError("variable '\(name)' nests more than 16 deep (does it refer to itself?)") }
        let argumentIndex = try argumentIndex(position: position, ownArgument: nil, specifier: "%#@\(name)@")
        let text = try variable(name, arguments[argumentIndex])
        depth += 1
        defer { depth -= 1 }
        return try format(Array(text.unicodeScalars)[...], ownArgument: argumentIndex)
    }

    private mutating func readCount(_ scalars: ArraySlice<Unicode.Scalar>, _ index: inout Int, ownArgument: Int?)
        throws(FormatError) -> Int?
    {
        if index < scalars.endIndex, scalars[index] == "*" {
            index += 1
            let argument = try takeArgument(position: nil, ownArgument: nil, specifier: "*")
            return Int(truncatingIfNeeded: argument.integerValue)
        }
        var value: Int?
        while index < scalars.endIndex, let digit = asciiDigit(scalars[index]) {
            value = min((value ?? 0) * 10 + digit, 1_000_000)
            index += 1
        }
        return value
    }

    private mutating func takeArgument(position: Int?, ownArgument: Int?, specifier: String) throws(FormatError)
        -> FormatArgument
    {
        arguments[try argumentIndex(position: position, ownArgument: ownArgument, specifier: specifier)]
    }

    private mutating func argumentIndex(position: Int?, ownArgument: Int?, specifier: String) throws(FormatError)
        -> Int
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
            throw FormatError("'\(specifier)' needs argument \(index + 1), but only \(arguments.count) were given")
        }
        return index
    }
}

/// The value of an ASCII digit, or `nil`.
func asciiDigit(_ scalar: Unicode.Scalar) -> Int? {
    scalar.value >= 0x30 && scalar.value <= 0x39 ? Int(scalar.value - 0x30) : nil
}

/// A parsed conversion specification.
struct Spec {
    var position: Int?
    var flags: Set<Unicode.Scalar> = []
    var width: Int?
    var precision: Int?
    var conversion: Unicode.Scalar = "%"
}
