/// The entries of one `.stringsdict` file: each key's format rule.
///
/// Keys have no order in a property list dictionary (Foundation returns an `NSDictionary`), so `keys` are sorted.
public struct StringsdictTable: Sendable, Hashable {
    /// The entries by key.
    public private(set) var entries: [String: StringsdictEntry]

    /// Creates a table of `entries`.
    public init(_ entries: [String: StringsdictEntry] = [:]) {
        self.entries = entries
    }

    /// The number of keys.
    public var count: Int { entries.count }

    /// Whether the table has no keys.
    public var isEmpty: Bool { entries.isEmpty }

    /// The keys, sorted by their code points.
    public var keys: [String] { entries.keys.sorted() }

    /// The entry for `key`, or `nil`.
    public subscript(key: String) -> StringsdictEntry? {
        get { entries[key] }
        set { entries[key] = newValue }
    }
}

/// Reads `.stringsdict` files: an XML property list whose top dictionary maps each key to its entry.
public enum StringsdictFile {
    /// Parses the bytes of a `.stringsdict` file.
    ///
    /// - Throws: `ParseError` with the line and column of the first problem: the XML's own, or for an entry that
    ///   is not well formed (no `NSStringLocalizedFormatKey`, an unknown rule type, a category that is not
    ///   CLDR's, variables that nest or expand beyond `StringsdictEntry.maximumNesting` and
    ///   `maximumExpandedSize`) the place of the entry's `<key>`. A compiled binary property list (`bplist00`,
    ///   what Xcode ships in built products) is read too; its errors are at line 1, column 1, with the byte
    ///   offset.
    /// - Complexity: O(n) in the number of bytes.
    public static func parse(_ bytes: [UInt8]) throws(ParseError) -> StringsdictTable {
        let plist = try propertyList(bytes)
        guard let top = plist.dictionaryValue else {
            throw ParseError("the top object is \(plist.kind), not a dictionary of entries", line: 1, column: 1)
        }
        var entries: [String: StringsdictEntry] = [:]
        entries.reserveCapacity(top.count)
        for (key, value) in top {
            do throws(FormatError) {
                entries[key] = try StringsdictEntry(key: key, value)
            } catch {
                let (line, column) = location(ofKey: key, in: bytes)
                throw ParseError(error.reason, line: line, column: column)
            }
        }
        return StringsdictTable(entries)
    }

    /// The property list of a `.stringsdict` file, XML or binary.
    /// - Throws: `ParseError` from the XML or the binary reader.
    public static func propertyList(_ bytes: [UInt8]) throws(ParseError) -> PropertyListValue {
        let binary: Result<PropertyListValue, ParseError>? = bytes.withUnsafeBytes { buffer in
            guard BinaryPropertyList.isBinaryPropertyList(buffer) else { return nil }
            do throws(ParseError) {
                return .success(try BinaryPropertyList.parse(buffer))
            } catch {
                return .failure(error)
            }
        }
        if let binary { return try binary.get() }
        return try XMLPropertyList.parse(bytes)
    }

    /// Parses text given as a Swift string.
    /// - Throws: `ParseError` as `parse(_:)`.
    public static func parse(text: String) throws(ParseError) -> StringsdictTable {
        try parse(Array(text.utf8))
    }

    /// The line and column of the first `<key>key</key>` in `bytes` (the key XML-escaped as written by Xcode and
    /// `plutil`), or 1:1 when it is written in some other way.
    package static func location(ofKey key: String, in bytes: [UInt8]) -> (line: Int, column: Int) {
        var escaped = ""
        for character in key {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            default: escaped.append(character)
            }
        }
        let needle = Array("<key>\(escaped)</key>".utf8)
        guard let first = needle.first, needle.count <= bytes.count else { return (1, 1) }
        var offset = 0
        while offset + needle.count <= bytes.count {
            if bytes[offset] == first, bytes[offset..<(offset + needle.count)].elementsEqual(needle) {
                return bytes.withUnsafeBufferPointer { ParseError.location(of: offset, in: $0) }
            }
            offset += 1
        }
        return (1, 1)
    }
}
