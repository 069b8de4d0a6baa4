/// A `.strings` file opened for editing: its text as UTF-8, the encoding to write it back in, and where each entry
/// is. Converting UTF-16 to UTF-8 and back is exact for text the parser accepts (it rejects lone surrogates and
/// NUL), so every byte an edit does not touch comes back as it was.
struct EditableStringsText {
    /// The file's text as UTF-8, without its byte order mark.
    var text: [UInt8]
    let encoding: StringsEncoding
    /// Every entry in file order, repeats included.
    let spans: [StringsEntrySpan]
    /// The `}` closing a braced table, if the table is braced.
    let closingBrace: Int?

    /// Reads `bytes` as the parser does.
    ///
    /// - Throws: `.unreadable` with the parser's error, `.cannotEdit` for a compiled binary property list.
    init(_ bytes: [UInt8]) throws(EditError) {
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(EditError) -> (text: [UInt8], StringsEncoding, [StringsEntrySpan], Int?) in
                guard !BinaryPropertyList.isBinaryPropertyList(raw) else {
                    throw EditError(.cannotEdit, "the file is a compiled binary property list; edit its source")
                }
                guard raw.count <= StringsFile.maximumSize else {
                    throw EditError(.cannotEdit, "the file is larger than \(StringsFile.maximumSize) bytes")
                }
                do throws(ParseError) {
                    return try TextDecoder.withUTF8Text(raw.bindMemory(to: UInt8.self)) { (text, encoding) throws(ParseError) in
                        var parser = StringsParser(text: text, recordingSpans: true)
                        _ = try parser.parseTable()
                        return (Array(text), encoding, parser.spans ?? [], parser.closingBrace)
                    }
                } catch {
                    throw .unreadable(error)
                }
            }
        }
        (text, encoding, spans, closingBrace) = try result.get()
    }

    /// The text in the file's own encoding, with its byte order mark.
    func encoded() -> [UInt8] {
        switch encoding {
        case .utf8, .binaryPropertyList: return text
        case .utf8WithBOM: return [0xEF, 0xBB, 0xBF] + text
        case .utf16LittleEndianWithBOM, .utf16BigEndianWithBOM, .utf16LittleEndian, .utf16BigEndian:
            let bigEndian = encoding == .utf16BigEndianWithBOM || encoding == .utf16BigEndian
            var output: [UInt8] = []
            output.reserveCapacity(text.count * 2 + 2)
            if encoding == .utf16LittleEndianWithBOM { output += [0xFF, 0xFE] }
            if encoding == .utf16BigEndianWithBOM { output += [0xFE, 0xFF] }
            for unit in String(decoding: text, as: UTF8.self).utf16 {
                let (high, low) = (UInt8(unit >> 8), UInt8(unit & 0xFF))
                output += bigEndian ? [high, low] : [low, high]
            }
            return output
        }
    }

    /// The file's line ending: that of its first line, or LF when it has a single line.
    var lineEnding: [UInt8] {
        guard let index = text.firstIndex(where: { $0 == 0x0A || $0 == 0x0D }) else { return [0x0A] }
        if text[index] == 0x0A { return [0x0A] }
        return index + 1 < text.count && text[index + 1] == 0x0A ? [0x0D, 0x0A] : [0x0D]
    }

    // MARK: - Lines

    /// Whether `index` is at a line break or the end of the text.
    func isLineEnd(_ index: Int) -> Bool {
        index == text.count || text[index] == 0x0A || text[index] == 0x0D
    }

    /// The length of the line break at `index` (2 for CR LF), 0 at the end of the text.
    func lineBreakLength(at index: Int) -> Int {
        guard index < text.count else { return 0 }
        return text[index] == 0x0D && index + 1 < text.count && text[index + 1] == 0x0A ? 2 : 1
    }

    /// The first index at or after `index` that is not a space or a tab.
    func skippingBlanks(from index: Int) -> Int {
        var index = index
        while index < text.count, text[index] == 0x20 || text[index] == 0x09 { index += 1 }
        return index
    }

    /// The first index at or before `index` whose byte before is not a space or a tab.
    func skippingBlanks(backFrom index: Int) -> Int {
        var index = index
        while index > 0, text[index - 1] == 0x20 || text[index - 1] == 0x09 { index -= 1 }
        return index
    }

    /// Whether the line that ends just before `index` (which starts a line) is blank, or `index` starts the text.
    func isAfterBlankLineOrStart(_ index: Int) -> Bool {
        guard index > 0 else { return true }
        var end = index - 1
        if text[end] == 0x0A, end > 0, text[end - 1] == 0x0D { end -= 1 }
        let start = skippingBlanks(backFrom: end)
        return start == 0 || text[start - 1] == 0x0A || text[start - 1] == 0x0D
    }
}
