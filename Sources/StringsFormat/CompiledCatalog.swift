/// A String Catalog compiled to its table in each language, kept between reads of one file so that reading the
/// next version reads and compiles only the keys whose JSON changed.
///
/// A save changes a few keys of a catalog of thousands, yet reading the whole JSON into `StringCatalog` and
/// compiling every language costs several times what the same save of a `.strings` file costs. This keeps the
/// last good version's bytes and, for each key, where its member (name, `:` and value) was in them and what it
/// compiled to. A member of the new version whose bytes are those of a member of the last one is taken as it is,
/// without scanning it (bytes that read whole before read the same now); only the other members are read. Each
/// language's table is then reused when none of its entries changed, else made again from the compiled entries.
/// The tables are exactly those of `StringCatalog.parse` and `compiled(language:)` (a test compares them), and a
/// file that does not read gives exactly their `ParseError`.
///
/// Memory: the last version's bytes, the compiled entries (which share their strings with the tables) and the
/// tables; one per catalog, dropped by its owner when the file goes.
package struct CompiledCatalog: Sendable {
    /// The table of each language the catalog has, as `StringCatalog.compiled(language:)` makes it.
    package private(set) var tables: [String: TableContent] = [:]
    /// The languages whose tables the last `read` made again (all of them on the first read).
    package private(set) var changedLanguages: Set<String> = []

    /// The languages of `tables` as `StringCatalog.languages` orders them: the source language, then sorted.
    package var languages: [String] {
        [sourceLanguage] + tables.keys.filter { $0 != sourceLanguage }.sorted()
    }

    /// The last good version of the file.
    private var bytes: [UInt8] = []
    private var sourceLanguage = ""
    /// The keys in file order, each once.
    private var entries: [CompiledEntry] = []
    /// How many entries have a localization in each language.
    private var languageCounts: [String: Int] = [:]
    /// The size of each language's strings when its table was last made whole (values replaced since add to it).
    private var builtBytes: [String: Int] = [:]

    /// An empty cache: the first `read` reads the whole file.
    package init() {}

    /// Reads a new version of the catalog's bytes; on a `ParseError` the last good version stays.
    ///
    /// - Throws: the `ParseError` that `StringCatalog.parse` throws for these bytes.
    /// - Complexity: O(n) in the bytes, with a comparison of bytes for each member a previous version had.
    package mutating func read(_ newBytes: [UInt8]) throws(ParseError) {
        guard newBytes.count <= StringCatalog.maximumSize else {
            _ = try StringCatalog.parse(newBytes)  // its error, exactly
            return
        }
        let result = newBytes.withUnsafeBufferPointer { buffer in
            bytes.withUnsafeBufferPointer { old in
                Result { () throws(ParseError) in try Self.readEntries(buffer, reusing: old, entries) }
            }
        }
        let read: (sourceLanguage: String, entries: [CompiledEntry], reused: [Int?])
        do throws(ParseError) {
            read = try result.get()
        } catch {
            // A member taken from the last version is never scanned again, so which error comes first could
            // differ from a whole read: the whole read says, as it says for everyone.
            _ = try StringCatalog.parse(newBytes)
            throw error
        }
        update(sourceLanguage: read.sourceLanguage, entries: read.entries, reused: read.reused)
        bytes = newBytes
    }

    /// Reads the document; `reused[i]` is the index in `previous` of the entry that entry `i` was taken from whole.
    private static func readEntries(_ buffer: UnsafeBufferPointer<UInt8>, reusing old: UnsafeBufferPointer<UInt8>,
                                    _ previous: [CompiledEntry])
        throws(ParseError) -> (sourceLanguage: String, entries: [CompiledEntry], reused: [Int?])
    {
        var reader = StringCatalogReader(buffer)
        reader.countsLines = false
        var entries: [CompiledEntry] = []
        var reused: [Int?] = []
        entries.reserveCapacity(previous.count)
        reused.reserveCapacity(previous.count)
        // By key, hashed once when the key was first read: a reused entry's key is not hashed again.
        var positions: [HashedKey: Int] = [:]
        positions.reserveCapacity(previous.count)
        let (sourceLanguage, _) = try reader.read { reader throws(StringCatalogReader.Failure) in
            var matcher = MemberMatcher(previous: previous, bytes: old)
            try reader.expectObject("strings")
            var isFirst = true
            while try reader.scanner.nextMemberStart(isFirst: &isFirst) {
                let (entry, from) = try matcher.readMember(with: &reader)
                if let position = positions[entry.hashedKey] {
                    entries[position] = entry  // JSON's last-one-wins, in the first one's place
                    reused[position] = nil
                } else {
                    positions[entry.hashedKey] = entries.count
                    entries.append(entry)
                    reused.append(from)
                }
            }
        }
        return (sourceLanguage, entries, reused)
    }

    /// Takes the new entries, making again the tables of the languages whose entries changed.
    private mutating func update(sourceLanguage: String, entries: [CompiledEntry], reused: [Int?]) {
        // The languages are counted, not gathered from every entry: an entry taken whole brings what it brought.
        var kept = [Bool](repeating: false, count: self.entries.count)
        for case let index? in reused { kept[index] = true }
        for (index, entry) in self.entries.enumerated() where !kept[index] {
            for language in entry.values.keys { languageCounts[language]! -= 1 }
        }
        for (index, entry) in entries.enumerated() where reused[index] == nil {
            for language in entry.values.keys { languageCounts[language, default: 0] += 1 }
        }
        languageCounts = languageCounts.filter { $0.value > 0 }
        var languages = Set(languageCounts.keys)
        languages.insert(sourceLanguage)

        // Same source language, keys, order and comments: each language changes only where a key's value did.
        var edits: [String: [(key: String, value: CatalogValue?, old: CatalogValue?)]]? = [:]
        if sourceLanguage == self.sourceLanguage, entries.count == self.entries.count {
            for (index, entry) in entries.enumerated() where reused[index] != index {
                let old = self.entries[index]
                guard entry.key == old.key, entry.comment == old.comment else {
                    edits = nil
                    break
                }
                for language in Set(entry.values.keys).union(old.values.keys) {
                    let value = entry.value(in: language, sourceLanguage: sourceLanguage)
                    let previous = old.value(in: language, sourceLanguage: sourceLanguage)
                    if value != previous { edits?[language, default: []].append((entry.key, value, previous)) }
                }
            }
        } else {
            edits = nil
        }
        var tables: [String: TableContent] = [:]
        var changed: Set<String> = []
        for language in languages {
            let languageEdits = edits.map { $0[language] ?? [] }
            if languageEdits?.isEmpty == true, let table = self.tables[language] {
                tables[language] = table
                continue
            }
            changed.insert(language)
            if let languageEdits, let table = self.tables[language],
               let edited = Self.edited(table, languageEdits, builtBytes: builtBytes[language] ?? 0) {
                tables[language] = edited
            } else {
                let table = Self.table(language: language, sourceLanguage: sourceLanguage, entries,
                                       sizedLike: self.tables[language])
                tables[language] = table
                builtBytes[language] = table.strings.utf8.count
            }
        }
        builtBytes = builtBytes.filter { tables[$0.key] != nil }
        self.tables = tables
        self.changedLanguages = changed
        self.sourceLanguage = sourceLanguage
        self.entries = entries
    }

    /// `table` with the values of some keys changed in place, or `nil` when a change is not one of a text for a text
    /// or a rule for a rule, or when the replaced texts would leave the table more than twice its built size.
    private static func edited(_ table: TableContent, _ edits: [(key: String, value: CatalogValue?, old: CatalogValue?)],
                               builtBytes: Int) -> TableContent? {
        var table = table
        for edit in edits {
            switch (edit.old, edit.value) {
            case (.text?, .text(let text)?):
                guard table.strings.replaceValue(forKey: edit.key, with: text) else { return nil }
            case (.rule?, .rule(let rule)?):
                table.rules[edit.key] = rule
            default:
                return nil
            }
        }
        return table.strings.utf8.count <= 2 * builtBytes ? table : nil
    }

    /// One language's table, as `StringCatalog.compiled(language:)` makes it.
    private static func table(language: String, sourceLanguage: String, _ entries: [CompiledEntry],
                              sizedLike previous: TableContent?) -> TableContent {
        var output = TableContent()
        if let previous {
            output.strings.reserveCapacity(previous.strings.count, bytes: previous.strings.utf8.count)
        }
        for entry in entries {
            output.append(entry.value(in: language, sourceLanguage: sourceLanguage), key: entry.key,
                          comment: entry.comment)
        }
        return output
    }
}

/// One key of a compiled catalog: what its localization in each language compiles to, and where it was read.
struct CompiledEntry: Sendable {
    /// What the key compiles to; shared, so that taking an entry into the next version costs one retain.
    final class Compiled: Sendable {
        let key: HashedKey
        let comment: String?
        /// By language; `.some(nil)` for a localization that compiles to no text (no string unit, no variations).
        let values: [String: CatalogValue?]

        init(_ entry: StringCatalog.Entry) {
            key = HashedKey(entry.key)
            comment = entry.comment
            values = entry.localizations.mapValues { CatalogValue($0) }
        }
    }

    let compiled: Compiled
    /// Where the member (name, `:`, value) is in the bytes it was read from.
    var member: Range<Int>
    /// Where its value starts in those bytes.
    var valueStart: Int

    var key: String { compiled.key.key }
    var hashedKey: HashedKey { compiled.key }
    var comment: String? { compiled.comment }
    var values: [String: CatalogValue?] { compiled.values }

    /// What the key compiles to in `language`: its localization's value, else the key itself in the source
    /// language (as `StringCatalog.compiled(language:)` has it).
    func value(in language: String, sourceLanguage: String) -> CatalogValue? {
        if let compiled = values[language] { return compiled }
        return language == sourceLanguage ? .text(key) : nil
    }

    init(_ entry: StringCatalog.Entry, member: Range<Int>, valueStart: Int) {
        compiled = Compiled(entry)
        self.member = member
        self.valueStart = valueStart
    }

    /// This entry found again at `offset` of newer bytes.
    func moved(to offset: Int) -> CompiledEntry {
        var moved = self
        let shift = offset - member.lowerBound
        moved.member = offset..<(member.upperBound + shift)
        moved.valueStart += shift
        return moved
    }
}

/// A key with its hash, computed once: a catalog's keys are looked up on every read, and most are the last read's.
struct HashedKey: Hashable, Sendable {
    let key: String
    let hash: Int

    init(_ key: String) {
        self.key = key
        hash = key.hashValue
    }

    static func == (lhs: HashedKey, rhs: HashedKey) -> Bool { lhs.hash == rhs.hash && lhs.key == rhs.key }

    func hash(into hasher: inout Hasher) { hasher.combine(hash) }
}

/// Finds, for each member of the new `strings`, the member of the last version with the same bytes: first the one
/// after the last one found (a save keeps the order of the keys), else the one of the same key.
private struct MemberMatcher {
    let previous: [CompiledEntry]
    let bytes: UnsafeBufferPointer<UInt8>
    /// The entry of `previous` the next member most likely is.
    var next = 0
    /// The entries of `previous` by key, made the first time a member is not where it was.
    var byKey: [HashedKey: Int]?

    init(previous: [CompiledEntry], bytes: UnsafeBufferPointer<UInt8>) {
        self.previous = previous
        self.bytes = bytes
    }

    /// Reads the member at the cursor (on its name's quote): the entry, and the index of the entry of `previous`
    /// it was taken from whole, if it was.
    mutating func readMember(with reader: inout StringCatalogReader)
        throws(StringCatalogReader.Failure) -> (CompiledEntry, Int?)
    {
        let start = reader.scanner.index
        if next < previous.count, reader.scanner.hasPrefix(slice(previous[next].member)) {
            let entry = previous[next].moved(to: start)
            reader.scanner.move(to: entry.member.upperBound)
            next += 1
            return (entry, next - 1)
        }
        let key = try reader.scanner.readMemberName()
        _ = reader.scanner.peek()
        let valueStart = reader.scanner.index
        var found: Int?
        if next < previous.count, previous[next].key == key {
            found = next  // a changed value most likely
        } else {
            if byKey == nil {
                byKey = Dictionary(previous.enumerated().map { ($1.hashedKey, $0) }, uniquingKeysWith: { $1 })
            }
            found = byKey?[HashedKey(key)]
        }
        if let index = found {
            next = index + 1
            let old = previous[index]
            if reader.scanner.hasPrefix(slice(old.valueStart..<old.member.upperBound)) {
                var entry = old.moved(to: start)
                entry.valueStart = valueStart
                entry.member = start..<(valueStart + old.member.upperBound - old.valueStart)
                reader.scanner.move(to: entry.member.upperBound)
                return (entry, index)
            }
        }
        let entry = try reader.readEntry(key: key, at: start)
        return (CompiledEntry(entry, member: start..<reader.scanner.index, valueStart: valueStart), nil)
    }

    private func slice(_ range: Range<Int>) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: bytes[range])
    }
}
