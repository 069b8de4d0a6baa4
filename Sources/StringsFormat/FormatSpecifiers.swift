/// What is read from the specifiers of a text, by `FormatSpecifier`'s grammar: the variables it names, the
/// number a catalog's plural prints, Xcode's `%arg`; and (`+Arguments`, `+Judgement`) the arguments a value takes
/// and whether a translation takes them as the development language does.
package enum FormatSpecifiers {
    /// The names of the `%#@name@` variables `text` refers to, in order.
    package static func variables(in text: String) -> [String] {
        FormatSpecifier.all(in: text).compactMap { $0.specifier.variableName(in: text) }
    }

    /// The first number specifier of `text` (an integer or floating-point conversion: not `%@`, `%%` or
    /// `%#@name@`, a plural counts a number): its position, if written, and its length modifiers with the
    /// conversion (`lld`, `d`, `f`).
    static func firstNumber(in text: String) -> (position: Int?, valueType: String)? {
        for (specifier, _) in FormatSpecifier.all(in: text) {
            guard case .conversion(let byte) = specifier.kind,
                  let argumentClass = ArgumentClass(conversion: byte),
                  [.integer, .unsigned, .floating].contains(argumentClass) else { continue }
            return (specifier.position, specifier.length.text + String(Unicode.Scalar(byte)))
        }
        return nil
    }

    /// `text` with each `%arg` (Xcode's placeholder for a substitution's own argument: to the grammar, `%a` then
    /// `rg`) replaced by `own`; every other specifier (`%%` too) stays as written.
    static func replacingArg(in text: String, with own: String) -> String {
        guard text.contains("%arg") else { return text }
        return FormatSpecifier.withBytes(of: text) { bytes in
            var output: [UInt8] = []
            var copied = 0
            FormatSpecifier.forEach(in: bytes) { specifier in
                let range = specifier.range
                guard specifier.kind == .conversion(UInt8(ascii: "a")), range.count == 2,
                      range.upperBound + 2 <= bytes.count, bytes[range.upperBound] == UInt8(ascii: "r"),
                      bytes[range.upperBound + 1] == UInt8(ascii: "g") else { return }
                output += bytes[copied..<range.lowerBound]
                output += own.utf8
                copied = range.upperBound + 2
            }
            output += bytes[copied...]
            return String(decoding: output, as: UTF8.self)
        }
    }
}
