extension JSONValue {
    /// This value as Xcode writes a string catalog (`.xcstrings`): two-space indent, `"name" : value`, one member
    /// or element a line, `{\n\n}` for an empty object, `/` and non-ASCII as they are, no final newline.
    ///
    /// That is Foundation's pretty-printed JSON without escaped slashes, which Xcode uses. Members are written in
    /// the order they have: Xcode sorts them, so a catalog it wrote comes back byte for byte, and an editor that
    /// adds a member puts it where Xcode's order puts it (`XcodeKeyOrder`).
    package func xcodeLayout() -> [UInt8] {
        var out: [UInt8] = []
        writeXcodeLayout(to: &out, level: 0)
        return out
    }

    private func writeXcodeLayout(to out: inout [UInt8], level: Int) {
        switch self {
        case .object(let members):
            writeContainer(count: members.count, open: UInt8(ascii: "{"), close: UInt8(ascii: "}"),
                           level: level, to: &out) { index, out in
                JSONValue.appendXcodeString(members[index].0, to: &out)
                out += Array(" : ".utf8)
                members[index].1.writeXcodeLayout(to: &out, level: level + 1)
            }
        case .array(let elements):
            writeContainer(count: elements.count, open: UInt8(ascii: "["), close: UInt8(ascii: "]"),
                           level: level, to: &out) { index, out in
                elements[index].writeXcodeLayout(to: &out, level: level + 1)
            }
        case .string(let text):
            JSONValue.appendXcodeString(text, to: &out)
        default:
            write(to: &out)
        }
    }

    private func writeContainer(
        count: Int, open: UInt8, close: UInt8, level: Int, to out: inout [UInt8],
        element: (Int, inout [UInt8]) -> Void
    ) {
        out.append(open)
        out.append(0x0A)
        if count == 0 { out.append(0x0A) }
        for index in 0..<count {
            out += repeatElement(UInt8(ascii: " "), count: 2 * (level + 1))
            element(index, &out)
            if index < count - 1 { out.append(UInt8(ascii: ",")) }
            out.append(0x0A)
        }
        out += repeatElement(UInt8(ascii: " "), count: 2 * level)
        out.append(close)
    }

    /// A JSON string as Foundation writes it: like `JSONWriter.appendQuoted`, but U+2028 and U+2029 stay raw
    /// (the compact writer escapes them for line-based readers; a catalog is not read by lines).
    private static func appendXcodeString(_ text: String, to out: inout [UInt8]) {
        guard text.unicodeScalars.contains(where: { $0 == "\u{2028}" || $0 == "\u{2029}" }) else {
            JSONWriter.appendQuoted(text, to: &out)
            return
        }
        out.append(JSONWriter.quote)
        var run = ""
        for scalar in text.unicodeScalars {
            guard scalar == "\u{2028}" || scalar == "\u{2029}" else {
                run.unicodeScalars.append(scalar)
                continue
            }
            var escaped = JSONWriter.quoted(run).utf8.dropFirst()
            escaped.removeLast()
            out += escaped
            out += Array(String(scalar).utf8)
            run = ""
        }
        var escaped = JSONWriter.quoted(run).utf8.dropFirst()
        escaped.removeLast()
        out += escaped
        out.append(JSONWriter.quote)
    }
}
