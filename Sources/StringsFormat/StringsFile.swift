/// Reads `.strings` files exactly as CoreFoundation's strings-file parser does, and faster.
///
/// The bytes may be UTF-8 (with or without a BOM), UTF-16 with a BOM, UTF-16 without one (detected
/// from its zero bytes) or a compiled binary property list (`bplist00`). Where CoreFoundation
/// silently stops or guesses, this parser reports a `ParseError`; `docs/FORMAT.md` lists each case.
public enum StringsFile {
    /// The largest input the parser takes (1 GiB): offsets in a table are 32-bit.
    public static let maximumSize = 1 << 30

    /// Parses the bytes of a `.strings` file into a table.
    ///
    /// - Throws: `ParseError` with the line and column of the first problem.
    /// - Complexity: O(n) in the number of bytes, for any input.
    public static func parse(_ bytes: UnsafeRawBufferPointer) throws(ParseError) -> StringsTable {
        guard bytes.count <= maximumSize else {
            throw ParseError("the file is \(bytes.count) bytes; more than \(maximumSize) cannot be a strings table",
                             line: 1, column: 1)
        }
        let input = bytes.bindMemory(to: UInt8.self)
        if BinaryPropertyList.isBinaryPropertyList(bytes) {
            var table = try BinaryPropertyList.parseStringsTable(bytes)
            table.encoding = .binaryPropertyList
            return table
        }
        return try TextDecoder.withUTF8Text(input) { (text, encoding) throws(ParseError) in
            var parser = StringsParser(text: text)
            var table = try parser.parseTable()
            table.encoding = encoding
            return table
        }
    }

    /// Parses the bytes of a `.strings` file into a table.
    ///
    /// - Throws: `ParseError` with the line and column of the first problem.
    public static func parse(_ bytes: [UInt8]) throws(ParseError) -> StringsTable {
        let result = bytes.withUnsafeBytes { buffer in Result { () throws(ParseError) in try parse(buffer) } }
        return try result.get()
    }

    /// Parses text given as a Swift string (UTF-8).
    ///
    /// - Throws: `ParseError` with the line and column of the first problem.
    public static func parse(text: String) throws(ParseError) -> StringsTable {
        try parse(Array(text.utf8))
    }
}
