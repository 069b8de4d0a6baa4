/// Edits a `.strings` file's bytes: changes one value, adds or removes one entry, and leaves every other byte.
///
/// The file is read by the same parser that serves it (`StringsFile`), which also tells where each entry is, so an
/// edit is a splice: the encoding and byte order mark, line endings, comments, order and whitespace stay. The
/// rules are in docs/FORMAT.md, "Writing back".
public enum StringsFileEditor {
    /// The file's bytes with `key` set to `value` (added as `"KEY" = "VALUE";` at the end if absent, after
    /// `/* comment */` if given).
    ///
    /// Only the value's bytes change (a bare value becomes quoted). When a key is written twice, the last one is
    /// the one served, so that is the one changed. `comment` is used only for a new entry.
    ///
    /// - Throws: `EditError`: `.invalidValue` for an empty key or a NUL character, `.unreadable` for a file
    ///   that does not parse, `.cannotEdit` for a compiled binary property list.
    public static func setting(
        _ key: String, to value: String, comment: String? = nil, in bytes: [UInt8]
    ) throws(EditError) -> [UInt8] {
        try EditError.checkKey(key)
        try EditError.checkText(value, naming: "value")
        if let comment { try EditError.checkText(comment, naming: "comment") }
        var file = try EditableStringsText(bytes)
        if let span = file.spans.last(where: { $0.hasKey(key) }) {
            if let range = span.value {
                let quote = file.text[range.lowerBound] == UInt8(ascii: "'") ? UInt8(ascii: "'") : UInt8(ascii: "\"")
                file.text.replaceSubrange(range, with: quotedText(value, quote: quote))
            } else {
                // `"key";` has no value to change: the value it stands for is its key.
                file.text.insert(contentsOf: Array(" = ".utf8) + quotedText(value, quote: UInt8(ascii: "\"")),
                                 at: span.keyEnd)
            }
        } else {
            append(key, value: value, comment: comment, to: &file)
        }
        return file.encoded()
    }

    /// The file's bytes without the entry for `key` (its comment and its line go too).
    ///
    /// A key written twice loses every occurrence, so that the table no longer has it. A blank line left
    /// between two blank lines (or at the start) goes with the entry, so a file of commented entries keeps
    /// one blank line between entries.
    ///
    /// - Throws: `EditError`: `.noSuchKey` if the key is absent, and as `setting` does.
    public static func removing(_ key: String, in bytes: [UInt8]) throws(EditError) -> [UInt8] {
        var file = try EditableStringsText(bytes)
        let matches = file.spans.filter { $0.hasKey(key) }
        guard !matches.isEmpty else { throw .noSuchKey(key) }
        for span in matches.reversed() {
            file.text.removeSubrange(removalRange(of: span, in: file))
        }
        return file.encoded()
    }

    // MARK: - Adding

    private static func append(_ key: String, value: String, comment: String?, to file: inout EditableStringsText) {
        let lineEnding = file.lineEnding
        var addition: [UInt8] = []
        if let comment {
            addition += Array("/* \(comment.replacingAll("*/", with: "* /")) */".utf8) + lineEnding
        }
        addition += quotedText(key, quote: UInt8(ascii: "\"")) + Array(" = ".utf8)
            + quotedText(value, quote: UInt8(ascii: "\"")) + [UInt8(ascii: ";")] + lineEnding
        if let brace = file.closingBrace {
            // A braced table: the entry goes inside, on a line of its own before the `}`.
            let lineStart = file.skippingBlanks(backFrom: brace)
            if lineStart == 0 || file.text[lineStart - 1] == 0x0A || file.text[lineStart - 1] == 0x0D {
                file.text.insert(contentsOf: addition, at: lineStart)
            } else {
                file.text.insert(contentsOf: lineEnding + addition, at: brace)
            }
            return
        }
        if let last = file.text.last, last != 0x0A, last != 0x0D { file.text += lineEnding }
        file.text += addition
    }

    // MARK: - Removing

    /// The bytes that go with `span`: its comment, the entry, a trailing remark on its line, and the line itself
    /// when nothing else is on it.
    private static func removalRange(of span: StringsEntrySpan, in file: EditableStringsText) -> Range<Int> {
        let text = file.text
        let start = span.comment?.lowerBound ?? span.entry.lowerBound
        var end = file.skippingBlanks(from: span.entry.upperBound)
        if end + 1 < text.count, text[end] == UInt8(ascii: "/"), text[end + 1] == UInt8(ascii: "/") {
            while !file.isLineEnd(end) { end += 1 }
        }
        let lineStart = file.skippingBlanks(backFrom: start)
        let startsLine = lineStart == 0 || text[lineStart - 1] == 0x0A || text[lineStart - 1] == 0x0D
        guard file.isLineEnd(end) else {
            // Another entry follows on the same line: take the entry and the blanks after it.
            return start..<end
        }
        guard startsLine else {
            // Something precedes it on its line: take the blanks before it, keep the line break.
            return lineStart..<end
        }
        var lineEnd = end + file.lineBreakLength(at: end)
        // A blank line after the entry goes too when one is left before it, so no double blank line remains.
        let nextContent = file.skippingBlanks(from: lineEnd)
        if lineEnd < text.count, nextContent < text.count, file.isLineEnd(nextContent),
           file.isAfterBlankLineOrStart(lineStart) {
            lineEnd = nextContent + file.lineBreakLength(at: nextContent)
        }
        return lineStart..<lineEnd
    }

    // MARK: - Escaping

    /// `text` between `quote`s, escaped so the parser reads back `text`: the quote, `\`, newline, tab, carriage
    /// return, and other controls as `\U` (a file's raw control characters are invisible and easily lost).
    /// Everything else is written as it is: UTF-8 and UTF-16 hold every character.
    static func quotedText(_ text: String, quote: UInt8) -> [UInt8] {
        var output: [UInt8] = [quote]
        output.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case UInt32(quote), 0x5C: output += [0x5C, UInt8(scalar.value)]
            case 0x0A: output += Array("\\n".utf8)
            case 0x09: output += Array("\\t".utf8)
            case 0x0D: output += Array("\\r".utf8)
            case 0..<0x20, 0x7F:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                output += Array(("\\U" + String(repeating: "0", count: 4 - hex.count) + hex).utf8)
            default: output += Array(String(scalar).utf8)
            }
        }
        output.append(quote)
        return output
    }
}

extension StringsEntrySpan {
    /// Whether this is the entry of `key`, compared as the table compares keys: by their exact characters (a
    /// precomposed `é` and `e` with a combining accent are two keys, though Swift's `==` calls them equal).
    func hasKey(_ other: String) -> Bool { key.utf8.elementsEqual(other.utf8) }
}

extension EditError {
    /// Rejects a key nobody could look up or write: empty, or with a NUL character.
    static func checkKey(_ key: String) throws(EditError) {
        guard !key.isEmpty else { throw EditError(.invalidValue, "the key is empty") }
        try checkText(key, naming: "key")
    }

    /// Rejects text with a NUL character: CoreFoundation's strings and C callers end a string there.
    static func checkText(_ text: String, naming role: String) throws(EditError) {
        guard !text.utf8.contains(0) else { throw EditError(.invalidValue, "the \(role) contains a NUL character") }
    }
}
