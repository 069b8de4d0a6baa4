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
///
/// Keys are compared as CoreFoundation compares them: by their exact characters, without Unicode
/// normalization (`"é"` precomposed and `"e\u{301}"` are two keys). The table keeps all its text
/// in one UTF-8 buffer and makes `String`s only when asked, so parsing allocates a handful of
/// buffers rather than two objects per entry, and a cached table costs little more than its text.
public struct StringsTable: Sendable {
    /// Where an entry's parts are in `utf8`; lengths of `Self.absent` mark a missing comment.
    struct Record: Sendable {
        var keyStart: UInt32
        var keyLength: UInt32
        var valueStart: UInt32
        var valueLength: UInt32
        var commentStart: UInt32 = 0
        var commentLength: UInt32 = absent
        /// 1-based; 0 when the entry has no location.
        var line: UInt32 = 0
        var column: UInt32 = 0
        var hash: Int = 0
    }

    static let absent = UInt32.max

    /// All keys, values and comments, as UTF-8.
    var utf8: [UInt8] = []
    var records: [Record] = []
    private(set) var index = ByteKeyIndex()
    /// Keys that were written more than once, in the order the repeats were found.
    public private(set) var duplicates: [DuplicateKey] = []
    /// The encoding the text was read in.
    public internal(set) var encoding: StringsEncoding = .utf8

    /// Creates an empty table.
    public init() {}

    /// Creates a table from entries, applying the last-one-wins rule to repeated keys.
    public init(_ entries: some Sequence<StringsEntry>) {
        for entry in entries { append(entry) }
    }

    /// The number of distinct keys.
    public var count: Int { records.count }

    /// Whether the table has no keys.
    public var isEmpty: Bool { records.isEmpty }

    /// The entries in source order, one per key.
    ///
    /// - Complexity: O(n): the strings are made on each call.
    public var entries: [StringsEntry] { records.indices.map(entry(at:)) }

    /// The keys in source order.
    public var keys: [String] { records.map { string(at: $0.keyStart, length: $0.keyLength) } }

    /// The table as a plain dictionary, as `PropertyListSerialization` would return it.
    public var dictionary: [String: String] {
        var result = [String: String](minimumCapacity: records.count)
        for record in records {
            result[string(at: record.keyStart, length: record.keyLength)] =
                string(at: record.valueStart, length: record.valueLength)
        }
        return result
    }

    /// The value for `key`, or `nil` when the table does not have it.
    ///
    /// - Complexity: O(1) on average.
    public subscript(key: String) -> String? {
        guard let position = position(ofKey: key) else { return nil }
        let record = records[position]
        return string(at: record.valueStart, length: record.valueLength)
    }

    /// The entry for `key`, or `nil`.
    public func entry(forKey key: String) -> StringsEntry? {
        position(ofKey: key).map(entry(at:))
    }

    /// Adds an entry; a key already present takes the new value, comment and location in place.
    public mutating func append(_ entry: StringsEntry) {
        var record = Record(keyStart: 0, keyLength: 0, valueStart: 0, valueLength: 0)
        (record.keyStart, record.keyLength) = store(entry.key)
        (record.valueStart, record.valueLength) = store(entry.value)
        if let comment = entry.comment { (record.commentStart, record.commentLength) = store(comment) }
        if let location = entry.location {
            record.line = UInt32(clamping: location.line)
            record.column = UInt32(clamping: location.column)
        }
        insert(record)
    }

    // MARK: - Building (used by the parsers)

    /// The current end of `utf8`, where the next stored bytes begin.
    var storedCount: UInt32 { UInt32(utf8.count) }

    /// Adds a record whose bytes are already in `utf8`, applying the last-one-wins rule.
    mutating func insert(_ record: Record) {
        var record = record
        record.hash = utf8.withUnsafeBufferPointer { buffer in
            let keyEnd = Int(record.keyStart + record.keyLength)
            return ByteKeyIndex.hash(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: buffer[Int(record.keyStart)..<keyEnd])))
        }
        let found = utf8.withUnsafeBufferPointer { buffer in
            index.find(hash: record.hash, in: records) { candidate in
                candidate.keyLength == record.keyLength
                    && ByteKeyIndex.bytesEqual(buffer, Int(candidate.keyStart), buffer, Int(record.keyStart),
                                               count: Int(record.keyLength))
            }
        }
        switch found {
        case .found(let position):
            duplicates.append(DuplicateKey(key: string(at: record.keyStart, length: record.keyLength),
                                           first: location(of: records[position]), duplicate: location(of: record)))
            record.keyStart = records[position].keyStart
            records[position] = record
        case .vacant(let slot):
            index.insert(records.count, at: slot, hash: record.hash, records: records)
            records.append(record)
        }
    }

    /// Gives the entry of `key` another value in its place, with its comment; `false` when there is no such key.
    /// The old value's bytes stay in `utf8`, unused, so a caller that replaces often makes the table again at times.
    mutating func replaceValue(forKey key: String, with value: String) -> Bool {
        guard let position = position(ofKey: key) else { return false }
        (records[position].valueStart, records[position].valueLength) = store(value)
        return true
    }

    mutating func reserveCapacity(_ count: Int, bytes: Int = 0) {
        records.reserveCapacity(count)
        utf8.reserveCapacity(bytes)
    }

    // MARK: - Reading

    private mutating func store(_ string: String) -> (UInt32, UInt32) {
        let start = storedCount
        utf8.append(contentsOf: string.utf8)
        return (start, storedCount - start)
    }

    func position(ofKey key: String) -> Int? {
        var key = key
        return key.withUTF8 { keyBytes in
            let hash = ByteKeyIndex.hash(UnsafeRawBufferPointer(keyBytes))
            let found = utf8.withUnsafeBufferPointer { buffer in
                index.find(hash: hash, in: records) { candidate in
                    Int(candidate.keyLength) == keyBytes.count
                        && ByteKeyIndex.bytesEqual(buffer, Int(candidate.keyStart), keyBytes, 0, count: keyBytes.count)
                }
            }
            if case .found(let position) = found { return position }
            return nil
        }
    }

    func entry(at position: Int) -> StringsEntry {
        let record = records[position]
        return StringsEntry(
            key: string(at: record.keyStart, length: record.keyLength),
            value: string(at: record.valueStart, length: record.valueLength),
            comment: record.commentLength == Self.absent
                ? nil : string(at: record.commentStart, length: record.commentLength),
            location: location(of: record)
        )
    }

    private func location(of record: Record) -> SourceLocation? {
        record.line == 0 ? nil : SourceLocation(line: Int(record.line), column: Int(record.column))
    }

    private func string(at start: UInt32, length: UInt32) -> String {
        utf8.withUnsafeBufferPointer { buffer in
            String(decoding: UnsafeBufferPointer(rebasing: buffer[Int(start)..<Int(start + length)]), as: UTF8.self)
        }
    }
}

extension StringsTable {
    /// What changed from `old` to this table, compared on the stored bytes: keys added and keys whose
    /// value changed (with their new values, in this table's order) and keys removed (in `old`'s order).
    ///
    /// Strings are made only for the keys that differ, so comparing two large, nearly equal tables
    /// costs a hash and a byte comparison per key.
    /// - Complexity: O(n + m) on average.
    public func differences(from old: StringsTable) -> (added: [StringsEntry], changed: [StringsEntry], removed: [String]) {
        // A table kept from the last version (a catalog language no save touched) is the same storage: nothing to
        // compare.
        if sharesStorage(with: old) { return ([], [], []) }
        var added: [StringsEntry] = []
        var changed: [StringsEntry] = []
        var common = 0
        utf8.withUnsafeBufferPointer { bytes in
            old.utf8.withUnsafeBufferPointer { oldBytes in
                old.records.withUnsafeBufferPointer { oldRecords in
                    func isKey(of candidate: Record, _ record: Record) -> Bool {
                        candidate.hash == record.hash && candidate.keyLength == record.keyLength
                            && ByteKeyIndex.bytesEqual(oldBytes, Int(candidate.keyStart), bytes, Int(record.keyStart),
                                                       count: Int(record.keyLength))
                    }
                    for (position, record) in records.enumerated() {
                        // A key is most often where it was (a value edited, or the table made again from a catalog
                        // whose keys stayed): looked for there first.
                        let oldPosition: Int
                        if position < oldRecords.count, isKey(of: oldRecords[position], record) {
                            oldPosition = position
                        } else if case .found(let found) = old.index.find(hash: record.hash, in: old.records, matches: {
                            isKey(of: $0, record)
                        }) {
                            oldPosition = found
                        } else {
                            added.append(entry(at: position))
                            continue
                        }
                        common += 1
                        let previous = oldRecords[oldPosition]
                        if previous.valueLength != record.valueLength
                            || !ByteKeyIndex.bytesEqual(oldBytes, Int(previous.valueStart), bytes,
                                                        Int(record.valueStart), count: Int(record.valueLength)) {
                            changed.append(entry(at: position))
                        }
                    }
                }
            }
        }
        // Every key of this table that `old` has was counted, so `old` lost keys only if it has more.
        let removed = common < old.count ? old.keys.filter { position(ofKey: $0) == nil } : []
        return (added, changed, removed)
    }
}

extension StringsTable {
    /// Whether both are copies of one table value (the same buffers), so they hold the same entries.
    func sharesStorage(with other: StringsTable) -> Bool {
        func base<Element>(_ array: [Element]) -> UnsafeRawPointer? {
            array.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
        }
        return !records.isEmpty && records.count == other.records.count && utf8.count == other.utf8.count
            && base(records) == base(other.records) && base(utf8) == base(other.utf8)
            && duplicates.count == other.duplicates.count
    }
}

extension StringsTable: Equatable {
    /// Tables are equal when they hold the same entries in the same order and the same duplicates.
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
