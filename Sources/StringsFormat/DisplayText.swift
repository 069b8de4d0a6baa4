/// Text taken from files and file names, made safe to put in a log line or on a terminal.
///
/// A key, a value or a file name may hold a newline (which would forge a second log line), an escape sequence
/// (which a terminal would obey) or a bidirectional override (which reorders what a reader sees). Each such
/// character is written as an escape instead: `\n`, `\r`, `\t`, `\\`, and `\u{1B}` for the rest.
///
/// This is the one escaping of names and file text for people to read: problems, logs, the command line's text
/// output. (JSON output has JSON's own escapes.)
package enum DisplayText {
    /// `text` with every control, line or paragraph separator and bidirectional control escaped, and cut after
    /// `limit` characters with `…`.
    ///
    /// `keepingBackslashes` leaves `\` as it is: for a whole line assembled from parts that were escaped already
    /// (a `FileProblem`'s description), where escaping again would double their backslashes. Such a line still
    /// cannot break in two or reach the terminal's escape sequences.
    package static func escaped(
        _ text: some StringProtocol, limit: Int = .max, keepingBackslashes: Bool = false
    ) -> String {
        var result = ""
        var count = 0
        for scalar in text.unicodeScalars {
            if count == limit {
                result += "…"
                break
            }
            count += 1
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\\" where !keepingBackslashes: result += "\\\\"
            case _ where needsEscape(scalar):
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default:
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7F..<0xA0: true                       // C0 and C1 controls, DEL
        case 0x2028, 0x2029: true                               // line and paragraph separators
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true   // bidirectional marks, overrides
        default: false
        }
    }
}
