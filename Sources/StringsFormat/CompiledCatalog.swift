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
    /// The keys in file order, each once: what each compiles to. Carried over whole from read to read, changed in
    /// place where a key's member changed, so that a key taken as it was costs no retain.
    private var entries: [CompiledEntry] = []
    /// Where each entry's member is in `bytes`, by the index of `entries`.
    private var places: [MemberPlace] = []
    /// Whether `places` is in file order: not when a key was written twice (its entry is in the first one's place,
    /// with the last one's member).
    private var isInFileOrder = true
    /// The index in `entries` of each key, made when a read first needs it and kept while the keys and their order
    /// stay (a save that changes values only).
    private var positions: [HashedKey: Int]?
    /// How many entries have a localization in each language.
    private var languageCounts: [String: Int] = [:]
    /// The size of each language's strings when its table was last made whole (values replaced since add to it).
    private var builtBytes: [String: Int] = [:]

    /// An empty cache: the first `read` reads the whole file.
    package init() {}

    /// Reads a new version of the catalog's bytes; on a `ParseError` the last good version stays.
    ///
    /// - Throws: the `ParseError` that `StringCatalog.parse` throws for these bytes.
    /// - Complexity: O(n) in the bytes, with one comparison of the bytes with the last version's.
    package mutating func read(_ newBytes: [UInt8]) throws(ParseError) {
        guard newBytes.count <= StringCatalog.maximumSize else {
            _ = try StringCatalog.parse(newBytes)  // its error, exactly
            return
        }
        let read = try readVersion(newBytes)
        update(with: read)
        bytes = newBytes
    }

    /// The members of `newBytes`, each taken from the last version or read, with no key twice.
    private mutating func readVersion(_ newBytes: [UInt8]) throws(ParseError) -> Reading {
        // Let go of before `update`, so that the kept array is uniquely referenced there and changes in place.
        let previous = Previous(entries: entries, places: places, isInFileOrder: isInFileOrder)
        var positions = self.positions
        let result = newBytes.withUnsafeBufferPointer { buffer in
            bytes.withUnsafeBufferPointer { old in
                Result { () throws(ParseError) in try Self.readMembers(buffer, reusing: old, previous, &positions) }
            }
        }
        self.positions = positions
        var read: Reading
        do throws(ParseError) {
            read = try result.get()
        } catch {
            // A member taken from the last version is never scanned again, so which error comes first could
            // differ from a whole read: the whole read says, as it says for everyone.
            _ = try StringCatalog.parse(newBytes)
            throw error
        }
        read.removeDuplicateKeys(previous: previous, positions: &positions)
        self.positions = positions
        return read
    }

    /// Reads the document's members of `strings`, each taken from `previous` where its bytes are those of a member
    /// there, else read and compiled.
    private static func readMembers(_ buffer: UnsafeBufferPointer<UInt8>, reusing old: UnsafeBufferPointer<UInt8>,
                                    _ previous: Previous, _ positions: inout [HashedKey: Int]?)
        throws(ParseError) -> Reading
    {
        var reader = StringCatalogReader(buffer)
        reader.countsLines = false
        var reading = Reading()
        reading.places.reserveCapacity(previous.places.count)
        reading.sources.reserveCapacity(previous.places.count)
        var matcher = MemberMatcher(previous: previous, bytes: old, new: buffer, positions: positions)
        defer { positions = matcher.positions }
        (reading.sourceLanguage, _) = try reader.read { reader throws(StringCatalogReader.Failure) in
            try reader.expectObject("strings")
            var isFirst = true
            while try reader.scanner.nextMemberStart(isFirst: &isFirst) {
                if let run = matcher.takeUnchangedRun(at: reader.scanner.index) {
                    let places = matcher.previous.places
                    reading.sources.append(contentsOf: run.indexes.map { .kept($0) })
                    reading.places.append(contentsOf: run.indexes.map { places[$0].shifted(by: run.shift) })
                    reader.scanner.move(to: run.end)
                    continue
                }
                let (source, place) = try matcher.readMember(with: &reader, fresh: &reading.fresh)
                reading.sources.append(source)
                reading.places.append(place)
            }
        }
        return reading
    }

    /// Takes the new entries, making again the tables of the languages whose entries changed.
    private mutating func update(with read: Reading) {
        let sourceLanguage = read.sourceLanguage
        // The languages are counted, not gathered from every entry: an entry taken whole brings what it brought.
        var kept = [Bool](repeating: false, count: entries.count)
        var inPlace = read.sources.count == entries.count
        for (index, source) in read.sources.enumerated() {
            guard case .kept(let old) = source else { continue }
            kept[old] = true
            if old != index { inPlace = false }
        }
        for index in entries.indices where !kept[index] {
            for language in entries[index].values.keys { languageCounts[language]! -= 1 }
        }
        for source in read.sources {
            guard case .read(let new) = source else { continue }
            for language in read.fresh[new].values.keys { languageCounts[language, default: 0] += 1 }
        }
        languageCounts = languageCounts.filter { $0.value > 0 }
        var languages = Set(languageCounts.keys)
        languages.insert(sourceLanguage)

        // Same source language, keys, order and comments: each language changes only where a key's value did.
        var sameKeys = inPlace
        var edits: [String: [(key: String, value: CatalogValue?, old: CatalogValue?)]]?
            = inPlace && sourceLanguage == self.sourceLanguage ? [:] : nil
        if inPlace {
            for (index, source) in read.sources.enumerated() {
                guard case .read(let new) = source else { continue }
                let (entry, old) = (read.fresh[new], entries[index])
                guard entry.key == old.key else {
                    sameKeys = false
                    edits = nil
                    break
                }
                guard edits != nil else { continue }  // the keys are still checked, for `positions`
                guard entry.comment == old.comment else {
                    edits = nil
                    continue
                }
                for language in Set(entry.values.keys).union(old.values.keys) {
                    let value = entry.value(in: language, sourceLanguage: sourceLanguage)
                    let previous = old.value(in: language, sourceLanguage: sourceLanguage)
                    if value != previous { edits?[language, default: []].append((entry.key, value, previous)) }
                }
            }
        }
        // The kept array changed in place when the keys keep their places, else made in the new order.
        var newEntries: [CompiledEntry] = []
        if inPlace {
            swap(&newEntries, &entries)  // uniquely referenced, so changing it copies nothing
            for (index, source) in read.sources.enumerated() {
                if case .read(let new) = source { newEntries[index] = read.fresh[new] }
            }
        } else {
            newEntries = read.sources.map { source in
                switch source {
                case .kept(let old): entries[old]
                case .read(let new): read.fresh[new]
                }
            }
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
                let table = Self.table(language: language, sourceLanguage: sourceLanguage, newEntries,
                                       sizedLike: self.tables[language])
                tables[language] = table
                builtBytes[language] = table.strings.utf8.count
            }
        }
        builtBytes = builtBytes.filter { tables[$0.key] != nil }
        self.tables = tables
        self.changedLanguages = changed
        self.sourceLanguage = sourceLanguage
        self.entries = newEntries
        self.places = read.places
        self.isInFileOrder = read.isInFileOrder
        if !sameKeys { positions = nil }
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

/// What one key compiles to: its localization in each language; shared between versions, so that a key whose
/// member did not change is neither read nor compiled again.
final class CompiledEntry: Sendable {
    let hashedKey: HashedKey
    let comment: String?
    /// By language; `.some(nil)` for a localization that compiles to no text (no string unit, no variations).
    let values: [String: CatalogValue?]

    var key: String { hashedKey.key }

    init(_ entry: StringCatalog.Entry) {
        hashedKey = HashedKey(entry.key)
        comment = entry.comment
        values = entry.localizations.mapValues { CatalogValue($0) }
    }

    /// What the key compiles to in `language`: its localization's value, else the key itself in the source
    /// language (as `StringCatalog.compiled(language:)` has it).
    func value(in language: String, sourceLanguage: String) -> CatalogValue? {
        if let compiled = values[language] { return compiled }
        return language == sourceLanguage ? .text(key) : nil
    }
}

/// Where a member of `strings` (name, `:`, value) is in the bytes it was read from.
struct MemberPlace: Sendable {
    var start: Int
    /// Where its value starts.
    var valueStart: Int
    var end: Int

    /// The same member found again `shift` bytes further on.
    func shifted(by shift: Int) -> MemberPlace {
        MemberPlace(start: start + shift, valueStart: valueStart + shift, end: end + shift)
    }
}

/// The last version's entries and where their members were, as a read compares with them.
private struct Previous {
    let entries: [CompiledEntry]
    let places: [MemberPlace]
    let isInFileOrder: Bool
}

/// The members of a new version's `strings` in file order: each taken from the last version or read.
private struct Reading {
    enum Source: Equatable {
        /// The entry of that index in the last version, taken whole.
        case kept(Int)
        /// The entry of that index in `fresh`.
        case read(Int)
    }

    var sourceLanguage = ""
    var sources: [Source] = []
    var places: [MemberPlace] = []
    /// The entries read and compiled.
    var fresh: [CompiledEntry] = []
    /// Whether `places` is in file order (no key was written twice).
    var isInFileOrder = true

    /// JSON's last-one-wins for a key written twice, in the first one's place. The entries taken whole have
    /// distinct keys unless one was taken twice, so only a read entry's key is looked up.
    mutating func removeDuplicateKeys(previous: Previous, positions: inout [HashedKey: Int]?) {
        var takenBy = [Int](repeating: -1, count: previous.entries.count)
        var hasDuplicates = false
        for (index, source) in sources.enumerated() {
            guard case .kept(let old) = source else { continue }
            if takenBy[old] >= 0 { hasDuplicates = true }
            takenBy[old] = index
        }
        if !hasDuplicates, !fresh.isEmpty {
            let known = positions ?? Self.positions(of: previous.entries)
            positions = known
            var freshKeys = Set<HashedKey>(minimumCapacity: fresh.count)
            for entry in fresh {
                if let old = known[entry.hashedKey], takenBy[old] >= 0 { hasDuplicates = true }
                if !freshKeys.insert(entry.hashedKey).inserted { hasDuplicates = true }
                if hasDuplicates { break }
            }
        }
        guard hasDuplicates else { return }
        var firstPlace: [HashedKey: Int] = [:]
        var (keptSources, keptPlaces): ([Source], [MemberPlace]) = ([], [])
        for (source, place) in zip(sources, places) {
            let key = switch source {
            case .kept(let old): previous.entries[old].hashedKey
            case .read(let new): fresh[new].hashedKey
            }
            if let position = firstPlace[key] {
                keptSources[position] = source
                keptPlaces[position] = place
            } else {
                firstPlace[key] = keptSources.count
                keptSources.append(source)
                keptPlaces.append(place)
            }
        }
        (sources, places) = (keptSources, keptPlaces)
        isInFileOrder = false
    }

    static func positions(of entries: [CompiledEntry]) -> [HashedKey: Int] {
        Dictionary(entries.enumerated().map { ($1.hashedKey, $0) }, uniquingKeysWith: { $1 })
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

/// Finds, for each member of the new `strings`, the member of the last version with the same bytes.
///
/// The two versions are compared once, from each end: a member within the bytes they begin with is at the same
/// place in both, one within the bytes they end with is shifted by the difference of their sizes, so a member of
/// either is known to be unchanged without comparing it again. A member in between is compared with the one after
/// the last one found (a save keeps the order of the keys), else with the one of its key.
private struct MemberMatcher {
    let previous: Previous
    let bytes: UnsafeBufferPointer<UInt8>
    /// How many bytes both versions begin with.
    let commonPrefix: Int
    /// Where in the last version the bytes both versions end with start, and how far on they are in the new one.
    let commonSuffixStart: Int
    let shift: Int
    /// The entry of `previous` the next member most likely is.
    var next = 0
    /// The entries of `previous` by key, made the first time a member is not where it was.
    var positions: [HashedKey: Int]?

    init(previous: Previous, bytes: UnsafeBufferPointer<UInt8>, new: UnsafeBufferPointer<UInt8>,
         positions: [HashedKey: Int]?) {
        self.previous = previous
        self.bytes = bytes
        self.positions = positions
        commonPrefix = CommonBytes.prefixCount(bytes, new)
        let suffix = CommonBytes.suffixCount(bytes, new, atMost: min(bytes.count, new.count) - commonPrefix)
        commonSuffixStart = bytes.count - suffix
        shift = new.count - bytes.count
    }

    /// The members of the last version taken whole from the member at `start` on (on its name's quote), when it is
    /// within the bytes both versions begin with (then so are the ones up to the last there) or end with (then so are
    /// all the ones after it): their indexes, how far they moved, and where the last one ends in the new version.
    /// `nil` when the member at `start` is in neither, or when the last version's members are not in file order (a
    /// key written twice); it is then read alone (`readMember`).
    ///
    /// A save changes a few bytes of a catalog: most members are taken in two runs, not looked at one by one.
    mutating func takeUnchangedRun(at start: Int) -> (indexes: Range<Int>, shift: Int, end: Int)? {
        let places = previous.places
        guard previous.isInFileOrder, next < places.count else { return nil }
        let first = places[next]
        let run: Range<Int>
        let moved: Int
        if first.start == start, first.end <= commonPrefix {
            // The members are in file order: the last one within the prefix, by bisection.
            var (low, high) = (next, places.count)
            while high - low > 1 {
                let middle = (low + high) / 2
                if places[middle].end <= commonPrefix { low = middle } else { high = middle }
            }
            (run, moved) = (next..<(low + 1), 0)
        } else if first.start + shift == start, first.start >= commonSuffixStart {
            (run, moved) = (next..<places.count, shift)
        } else {
            return nil
        }
        next = run.upperBound
        return (run, moved, places[run.upperBound - 1].end + moved)
    }

    /// Reads the member at the cursor (on its name's quote): where it came from (an entry of `previous` taken
    /// whole, or one read into `fresh`) and where it is.
    mutating func readMember(with reader: inout StringCatalogReader, fresh: inout [CompiledEntry])
        throws(StringCatalogReader.Failure) -> (Reading.Source, MemberPlace)
    {
        let start = reader.scanner.index
        if next < previous.places.count {
            let place = previous.places[next]
            if (place.start == start && place.end <= commonPrefix)
                || (place.start + shift == start && place.start >= commonSuffixStart)
                || reader.scanner.hasPrefix(slice(place.start..<place.end)) {
                let moved = place.shifted(by: start - place.start)
                reader.scanner.move(to: moved.end)
                next += 1
                return (.kept(next - 1), moved)
            }
        }
        let key = try reader.scanner.readMemberName()
        _ = reader.scanner.peek()
        let valueStart = reader.scanner.index
        var found: Int?
        if next < previous.entries.count, previous.entries[next].key == key {
            found = next  // a changed value most likely
        } else {
            if positions == nil { positions = Reading.positions(of: previous.entries) }
            found = positions?[HashedKey(key)]
        }
        if let index = found {
            next = index + 1
            let old = previous.places[index]
            if reader.scanner.hasPrefix(slice(old.valueStart..<old.end)) {
                let end = valueStart + old.end - old.valueStart
                reader.scanner.move(to: end)
                return (.kept(index), MemberPlace(start: start, valueStart: valueStart, end: end))
            }
        }
        let entry = try reader.readEntry(key: key, at: start)
        fresh.append(CompiledEntry(entry))
        return (.read(fresh.count - 1), MemberPlace(start: start, valueStart: valueStart, end: reader.scanner.index))
    }

    private func slice(_ range: Range<Int>) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: bytes[range])
    }
}
