/// Where something is in a source file: a 1-based line and column (in Unicode scalars).
public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
    /// The 1-based line.
    public var line: Int
    /// The 1-based column, counted in Unicode scalars.
    public var column: Int

    /// Creates a location.
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// `line:column`.
    public var description: String { "\(line):\(column)" }
}

/// One key of a `.strings` table with its value and the translator comment written before it.
public struct StringsEntry: Sendable, Hashable {
    /// The key, escapes resolved.
    public var key: String
    /// The value, escapes resolved.
    public var value: String
    /// The comment just before the entry (`/* ... */` without its delimiters, or a run of `//` lines
    /// joined by newlines), trimmed of surrounding whitespace; `nil` when there is none.
    public var comment: String?
    /// Where the key starts in the file; `nil` for tables not read from text (binary plists).
    public var location: SourceLocation?

    /// Creates an entry.
    public init(key: String, value: String, comment: String? = nil, location: SourceLocation? = nil) {
        self.key = key
        self.value = value
        self.comment = comment
        self.location = location
    }
}

/// A key that appears more than once in one file; the last occurrence wins, as in CoreFoundation.
public struct DuplicateKey: Sendable, Hashable {
    /// The repeated key.
    public var key: String
    /// Where the key was first written (the occurrence that lost).
    public var first: SourceLocation?
    /// Where it was written again (the occurrence that won).
    public var duplicate: SourceLocation?

    /// Creates a duplicate record.
    public init(key: String, first: SourceLocation?, duplicate: SourceLocation?) {
        self.key = key
        self.first = first
        self.duplicate = duplicate
    }
}

/// The parsed contents of one `.strings` file: its entries in source order, with unique keys.
///
/// When a key repeats, the last value wins (CoreFoundation's rule); the entry keeps the place of
/// the first occurrence in `entries` so rewriting a file does not reorder it, and the repeat is
/// recorded in `duplicates` so `lint` can warn about it.
public struct StringsTable: Sendable, Equatable {
    /// The entries in source order, one per key.
    public private(set) var entries: [StringsEntry] = []
    /// Keys that were written more than once, in the order the repeats were found.
    public private(set) var duplicates: [DuplicateKey] = []
    /// The encoding the text was read in.
    public internal(set) var encoding: StringsEncoding = .utf8
    private var indexByKey: [String: Int] = [:]

    /// Creates an empty table.
    public init() {}

    /// Creates a table from entries, applying the last-one-wins rule to repeated keys.
    public init(_ entries: some Sequence<StringsEntry>) {
        for entry in entries { append(entry) }
    }

    /// The number of distinct keys.
    public var count: Int { entries.count }

    /// Whether the table has no keys.
    public var isEmpty: Bool { entries.isEmpty }

    /// The value for `key`, or `nil` when the table does not have it.
    ///
    /// - Complexity: O(1) on average.
    public subscript(key: String) -> String? {
        guard let index = indexByKey[key] else { return nil }
        return entries[index].value
    }

    /// The entry for `key`, or `nil`.
    public func entry(forKey key: String) -> StringsEntry? {
        indexByKey[key].map { entries[$0] }
    }

    /// The keys in source order.
    public var keys: [String] { entries.map(\.key) }

    /// The table as a plain dictionary, as `PropertyListSerialization` would return it.
    public var dictionary: [String: String] {
        var result = [String: String](minimumCapacity: entries.count)
        for entry in entries { result[entry.key] = entry.value }
        return result
    }

    /// Adds an entry; a key already present takes the new value, comment and location in place.
    public mutating func append(_ entry: StringsEntry) {
        if let index = indexByKey[entry.key] {
            duplicates.append(DuplicateKey(key: entry.key, first: entries[index].location, duplicate: entry.location))
            entries[index] = entry
        } else {
            indexByKey[entry.key] = entries.count
            entries.append(entry)
        }
    }

    mutating func reserveCapacity(_ count: Int) {
        entries.reserveCapacity(count)
        indexByKey.reserveCapacity(count)
    }

    public static func == (lhs: StringsTable, rhs: StringsTable) -> Bool {
        lhs.entries == rhs.entries && lhs.duplicates == rhs.duplicates
    }
}

/// How the bytes of a `.strings` file were encoded.
public enum StringsEncoding: String, Sendable, Hashable {
    /// UTF-8 without a byte order mark.
    case utf8 = "UTF-8"
    /// UTF-8 starting with `EF BB BF`.
    case utf8WithBOM = "UTF-8 with BOM"
    /// UTF-16 little-endian starting with `FF FE` (what `genstrings` writes).
    case utf16LittleEndianWithBOM = "UTF-16LE with BOM"
    /// UTF-16 big-endian starting with `FE FF`.
    case utf16BigEndianWithBOM = "UTF-16BE with BOM"
    /// UTF-16 little-endian without a byte order mark, detected from its zero bytes.
    case utf16LittleEndian = "UTF-16LE"
    /// UTF-16 big-endian without a byte order mark, detected from its zero bytes.
    case utf16BigEndian = "UTF-16BE"
    /// A compiled binary property list (`bplist00`), as Xcode ships strings files.
    case binaryPropertyList = "binary property list"
}
