import BundleChanges
import StringsFormat

/// The cache of a bundle's tables: applies batches of file changes, numbers the events they cause,
/// and answers lookups through the language fallback chain.
///
/// Every event gets the next `seq`; `epoch` is random per store so that a client holding a `seq`
/// from an earlier run can tell it is stale.
///
/// A table is the union of a folder's files of that name, `T.strings` and `T.stringsdict` (a key of both is the
/// `.stringsdict` rule, as on Apple platforms). Several folders can hold the same table in an odd bundle
/// (`German.lproj/Localizable.strings` and `de.lproj/Localizable.strings` are both `de/Localizable`). The store
/// keeps each file's content and serves the folder whose file was most recently parsed; when that folder's files
/// are removed, the other folder's table is served again (reported as an update), and the table is deleted only
/// when no file holds it. A file that fails to parse does not change what is served.
///
/// A String Catalog (`T.xcstrings`) holds table `T` in each of its languages. Where a folder of that language also
/// has `T.strings` or `T.stringsdict`, both are served, the folder's files winning key by key (they are the more
/// specific, hand-placed ones). Of two catalogs of one table, the one nearest the root wins (then the first in
/// byte order of its path) and the other is reported and not served until the winner goes.
package actor StringsStore {
    /// A file the store has a good table for.
    struct FileState: Sendable {
        var id: TableID
        var content: TableContent
        /// When the table was parsed, in applied updates; the highest stamp of a table's files wins.
        var stamp: UInt64
    }

    /// The table served for an identifier and the file it came from (of its files, the latest parsed).
    struct Served: Sendable {
        var file: String
        var content: TableContent
        /// The stamp of the folder's file served (0 when only a catalog has the table).
        var stamp: UInt64
        /// The stamp of the catalog served (0 when no catalog has the table in this language).
        var catalogStamp: UInt64 = 0
    }

    /// A String Catalog the store has a good version of: its table in each of its languages.
    struct CatalogState: Sendable {
        var table: String
        var tables: [LanguageTag: TableContent]
        var stamp: UInt64
    }

    /// Random per store, below 2^53 so that a JSON number carries it exactly.
    package nonisolated let epoch: UInt64
    /// The canonical development language: the fallback after the selected language.
    package nonisolated let developmentLanguage: String
    /// The `seq` of the last event, 0 before any.
    package private(set) var seq: UInt64 = 0
    /// The app language chosen with `selectLanguage(_:)`, or `nil`.
    package private(set) var selectedLanguage: LanguageTag?

    let developmentTag: LanguageTag
    /// Matches requests to the languages the store has tables in; replaced when that set changes.
    private var matcher = LanguageMatcher(languages: [])
    /// Each preference list's chain for the current languages and selection (see `chain(for:)`).
    private var chains: [[String]: [LanguageTag]] = [:]
    /// How many preference lists' chains are kept; beyond that the cache starts afresh.
    static let chainCacheLimit = 256
    private var files: [String: FileState] = [:]
    private var filesByID: [TableID: [String]] = [:]
    private var served: [TableID: Served] = [:]
    private var catalogs: [String: CatalogState] = [:]
    /// The catalogs of each table name, by path.
    private var catalogsByTable: [String: [String]] = [:]
    private var lastStamp: UInt64 = 0
    /// The pseudo-languages derived from the development language's tables (see `StringsStore+Pseudo.swift`).
    let pseudoLocalizers: [PseudoLocalizer]

    /// Creates an empty store.
    ///
    /// - Parameters:
    ///   - developmentLanguage: the language lookups fall back to before `Base`; it must be a valid
    ///     tag (check user input with `LanguageTag(_:)` first).
    ///   - selectedLanguage: a selection restored from an earlier run; kept without checking that
    ///     the bundle has it (there are no tables yet), dropped if it is not a tag.
    ///   - epoch: a fixed epoch for tests; random when `nil`.
    ///   - pseudoLanguages: whether to serve `en-XA` and `ar-XB`, derived from the development language's tables.
    package init(developmentLanguage: String = "en", selectedLanguage: String? = nil, epoch: UInt64? = nil,
                 pseudoLanguages: Bool = false) {
        guard let tag = LanguageTag(developmentLanguage) else {
            preconditionFailure("invalid development language '\(developmentLanguage)'")
        }
        self.developmentTag = tag
        self.developmentLanguage = tag.identifier
        self.epoch = epoch ?? UInt64.random(in: 1..<(1 << 53))
        let selected = selectedLanguage.flatMap { LanguageTag($0) }.flatMap { $0.isBase ? nil : $0 }
        self.selectedLanguage = selected
        self.pseudoLocalizers = pseudoLanguages ? PseudoLocalizer.allCases.filter { $0.language != tag } : []
    }

    // MARK: - Applying changes

    /// Applies one batch and returns the events it causes, each with the next `seq`.
    ///
    /// The events come in this order: `resync` when the batch has a reason; one `reload` listing
    /// every table whose keys or values changed (none when nothing did, as when a file is written
    /// again with the same content); an `error` for each failed update, in batch order, then one for each of
    /// the batch's own problems.
    ///
    /// - Complexity: O(k) in the keys of the tables the batch touches.
    package func apply(_ batch: ChangeBatch) -> [StoreEvent] {
        var before: [TableID: Served?] = [:]
        var problems: [FileProblem] = []
        var seen = Set<String>(minimumCapacity: batch.isFullScan ? batch.updates.count : 0)
        /// Files read again with the same values, beside another file of their table.
        var rereadFiles: Set<String> = []
        /// Tables with a catalog parsed in this batch (checked for a second catalog of the same table).
        var parsedCatalogTables: Set<String> = []

        for update in batch.updates {
            if batch.isFullScan { seen.insert(update.file) }
            switch update.content {
            case .parsed(let content):
                if let existing = files[update.file], existing.id != update.id {
                    remove(file: update.file, remembering: &before)
                }
                remember(update.id, in: &before)
                // The files of one table (`T.strings` and `T.stringsdict`) are read together when one changes: a
                // change names the one whose values differ.
                if (filesByID[update.id]?.count ?? 0) > 1, let existing = files[update.file],
                   Self.hasSameValues(existing.content, content) {
                    rereadFiles.insert(update.file)
                } else {
                    rereadFiles.remove(update.file)
                }
                lastStamp += 1
                if files.updateValue(FileState(id: update.id, content: content, stamp: lastStamp),
                                     forKey: update.file) == nil {
                    filesByID[update.id, default: []].append(update.file)
                }
            case .catalog(let catalog):
                problems += catalog.problems
                if files[update.file] != nil { remove(file: update.file, remembering: &before) }
                lastStamp += 1
                setCatalog(update.file, to: CatalogState(table: update.id.table, tables: catalog.tables,
                                                         stamp: lastStamp), remembering: &before)
                parsedCatalogTables.insert(update.id.table)
            case .failed(let problem):
                problems.append(problem)
            case .removed:
                if catalogs[update.file] != nil {
                    setCatalog(update.file, to: nil, remembering: &before)
                } else {
                    remove(file: update.file, remembering: &before)
                }
            }
        }
        if batch.isFullScan {
            for file in files.keys where !seen.contains(file) { remove(file: file, remembering: &before) }
            for file in catalogs.keys where !seen.contains(file) { setCatalog(file, to: nil, remembering: &before) }
        }
        problems += parsedCatalogTables.sorted().flatMap(catalogConflicts(ofTable:))

        var changes: [TableChange] = []
        for (id, old) in before.sorted(by: { $0.key < $1.key }) {
            let new = servedTable(for: id)
            served[id] = new
            guard old?.stamp != new?.stamp || old?.catalogStamp != new?.catalogStamp else { continue }
            var file = new?.file ?? old?.file ?? ""
            // A pseudo table names the file its source names.
            let source = pseudoLocalizer(for: id.language) == nil
                ? id : TableID(language: developmentTag, table: id.table)
            if rereadFiles.contains(file), let changed = (filesByID[source] ?? []).first(where: { other in
                other != file && !rereadFiles.contains(other) && Self.source(of: other) == Self.source(of: file)
            }) {
                file = changed
            }
            if let change = TableChange.between(old?.content, new?.content, id: id, file: file) {
                changes.append(change)
            }
        }

        if !before.isEmpty { updateMatcher() }
        var events: [StoreEvent] = []
        if let reason = batch.resync { events.append(.resync(seq: nextSeq(), reason: reason)) }
        if !changes.isEmpty { events.append(.reload(seq: nextSeq(), changes: changes)) }
        for problem in problems + batch.problems { events.append(.error(seq: nextSeq(), problem)) }
        return events
    }

    /// Whether two contents of one file hold the same keys and values (comments and places may differ).
    private static func hasSameValues(_ old: TableContent, _ new: TableContent) -> Bool {
        guard old.count == new.count, old.rules == new.rules else { return false }
        let differences = new.differences(from: old)
        return differences.added.isEmpty && differences.changed.isEmpty && differences.removed.isEmpty
    }

    private func nextSeq() -> UInt64 {
        seq += 1
        return seq
    }

    /// Notes what `id` served before the batch touched it, once per batch.
    private func remember(_ id: TableID, in before: inout [TableID: Served?]) {
        if before.index(forKey: id) == nil { before.updateValue(served[id], forKey: id) }
        if id.language == developmentTag {
            for localizer in pseudoLocalizers {
                remember(TableID(language: localizer.language, table: id.table), in: &before)
            }
        }
    }

    private func remove(file: String, remembering before: inout [TableID: Served?]) {
        guard let state = files.removeValue(forKey: file) else { return }
        remember(state.id, in: &before)
        filesByID[state.id]?.removeAll { $0 == file }
        if filesByID[state.id]?.isEmpty == true { filesByID[state.id] = nil }
    }

    /// Replaces (or with `nil` removes) the catalog at `file`, noting what every table it may change served before:
    /// each language of each catalog of its table, since which catalog wins may change too.
    private func setCatalog(_ file: String, to state: CatalogState?, remembering before: inout [TableID: Served?]) {
        let table = state?.table ?? catalogs[file]?.table
        guard let table else { return }
        var languages = Set<LanguageTag>()
        if let state { languages.formUnion(state.tables.keys) }
        for path in catalogsByTable[table] ?? [] {
            if let other = catalogs[path] { languages.formUnion(other.tables.keys) }
        }
        // A catalog read again keeps the tables of the languages a save did not touch (the same values): what they
        // serve stays as it is, so they are not looked at again (a save of a 19-language catalog changes one).
        if let state, let old = catalogs[file], old.table == table {
            languages = languages.filter { language in
                guard let kept = state.tables[language], let was = old.tables[language] else { return true }
                return !kept.isCopy(of: was)
            }
        }
        for language in languages { remember(TableID(language: language, table: table), in: &before) }
        if let old = catalogs[file], old.table != table || state == nil {
            catalogsByTable[old.table]?.removeAll { $0 == file }
            if catalogsByTable[old.table]?.isEmpty == true { catalogsByTable[old.table] = nil }
        }
        guard let state else {
            catalogs[file] = nil
            return
        }
        if catalogs.updateValue(state, forKey: file)?.table != table {
            catalogsByTable[table, default: []].append(file)
        }
    }

    /// The catalog served for `table` among several: the one nearest the root, then the first in byte order.
    private func winningCatalog(ofTable table: String) -> String? {
        (catalogsByTable[table] ?? []).min { left, right in
            let (leftDepth, rightDepth) = (Self.depth(of: left), Self.depth(of: right))
            return leftDepth != rightDepth ? leftDepth < rightDepth : left.utf8.lexicographicallyPrecedes(right.utf8)
        }
    }

    private static func depth(of path: String) -> Int { path.utf8.count { $0 == UInt8(ascii: "/") } }

    /// A problem for each catalog of `table` that is not served because another catalog of the table wins.
    private func catalogConflicts(ofTable table: String) -> [FileProblem] {
        guard let winner = winningCatalog(ofTable: table) else { return [] }
        return (catalogsByTable[table] ?? []).filter { $0 != winner }.sorted().map { loser in
            FileProblem(file: loser, message: "table '\(table)' is also the catalog \(winner), which is served: this "
                + "one is not (of two catalogs of one table, the one nearest the root wins, then the first by name)")
        }
    }

    /// The table served for `id`: its folder's files (see `servedFolderTable`) over the winning catalog's table in
    /// that language, the folder's files winning key by key.
    func servedTable(for id: TableID) -> Served? {
        if let localizer = pseudoLocalizer(for: id.language) { return pseudoTable(id, localizer) }
        let folder = servedFolderTable(for: id)
        guard let path = winningCatalog(ofTable: id.table), let catalog = catalogs[path],
              let content = catalog.tables[id.language] else { return folder }
        guard let folder else { return Served(file: path, content: content, stamp: 0, catalogStamp: catalog.stamp) }
        return Served(file: folder.stamp > catalog.stamp ? folder.file : path,
                      content: content.overlaid(by: folder.content), stamp: folder.stamp, catalogStamp: catalog.stamp)
    }

    /// The table of the folder whose file holding `id` was most recently parsed: the union of that folder's files
    /// of the table (`T.strings`, `T.stringsdict`), in the order they were parsed.
    private func servedFolderTable(for id: TableID) -> Served? {
        var latest: (file: String, state: FileState)?
        for file in filesByID[id] ?? [] {
            guard let state = files[file], state.stamp > latest?.state.stamp ?? 0 else { continue }
            latest = (file, state)
        }
        guard let latest else { return nil }
        let folder = Self.source(of: latest.file)
        let siblings = (filesByID[id] ?? []).compactMap { file in
            Self.source(of: file) == folder ? files[file] : nil
        }
        guard siblings.count > 1 else {
            return Served(file: latest.file, content: latest.state.content, stamp: latest.state.stamp)
        }
        let union = TableContent.union(siblings.sorted { $0.stamp < $1.stamp }.map(\.content))
        return Served(file: latest.file, content: union, stamp: latest.state.stamp)
    }

    /// The files of one folder's table share this: the path without its extension (`de.lproj/Localizable`).
    private static func source(of file: String) -> Substring {
        let name = file.lastIndex(of: "/").map { file[file.index(after: $0)...] } ?? file[...]
        guard let dot = name.lastIndex(of: ".") else { return file[...] }
        return file[..<dot]
    }

    // MARK: - Reading

    /// The served tables, optionally only those of some languages (matched exactly, after
    /// canonicalization) and table names, sorted by language and table.
    package func snapshot(languages: [String]? = nil, tables: [String]? = nil) -> Snapshot {
        let languageFilter = languages.map { Set($0.compactMap { LanguageTag($0) }) }
        let tableFilter = tables.map(Set.init)
        var selected: [TableSnapshot] = []
        for (id, entry) in served {
            if let languageFilter, !languageFilter.contains(id.language) { continue }
            if let tableFilter, !tableFilter.contains(id.table) { continue }
            selected.append(TableSnapshot(id: id, file: entry.file, content: entry.content))
        }
        selected.sort { $0.id < $1.id }
        return Snapshot(epoch: epoch, seq: seq, tables: selected)
    }

    /// The plain strings of the table served for `id`, or `nil` when there is no such table.
    package func table(_ id: TableID) -> StringsTable? {
        served[id]?.content.strings
    }

    /// The content (strings and rules) of the table served for `id`, or `nil`.
    package func content(_ id: TableID) -> TableContent? {
        served[id]?.content
    }

    /// Looks `key` up in `table`, trying each language of the fallback chain in turn.
    ///
    /// The chain is what `LanguageMatcher` finds in the store's languages for each preference (`zh-TW` finds
    /// `zh-Hant`, `es-MX` finds `es-419`, then `es`), then for the selected app language, then for the
    /// development language, each language once, then `Base`. Preferences that are not tags are skipped.
    /// When no language has the key, the value is the key itself, `language` is `nil` and `found` is false. A
    /// key that has a format rule in the language that answers comes with the rule (`Lookup.rule`) and its plain
    /// text as the value.
    ///
    /// - Complexity: O(length of the chain); the chain of a preference list is resolved once for the
    ///   current languages and selection.
    package func lookup(_ key: String, table: String = "Localizable", preferences: [String]) -> Lookup {
        for language in chain(for: preferences) {
            if let found = lookup(key, table: table, language: language) { return found }
        }
        return Lookup(value: key, language: nil, found: false)
    }

    /// The languages a lookup with `preferences` tries, in order, ending with `Base`.
    package func chain(for preferences: [String]) -> [LanguageTag] {
        if let cached = chains[preferences] { return cached }
        let chain = matcher.chain(preferences: preferences.compactMap { LanguageTag($0) }, selected: selectedLanguage,
                                  development: developmentTag)
        if chains.count >= Self.chainCacheLimit { chains.removeAll(keepingCapacity: true) }
        chains[preferences] = chain
        return chain
    }

    /// Each step of the chain of `preferences`, with the request it answers and why (`languages --resolve`).
    package func resolve(preferences: [String]) -> [LanguageMatcher.Step] {
        matcher.resolve(preferences: preferences.compactMap { LanguageTag($0) }, selected: selectedLanguage,
                        development: developmentTag)
    }

    /// A new matcher when the set of languages with tables changed; the cached chains go with the old one.
    private func updateMatcher() {
        let languages = Set(served.keys.lazy.map(\.language).filter { !$0.isBase })
        guard languages != matcher.languages else { return }
        matcher = LanguageMatcher(languages: languages)
        chains.removeAll(keepingCapacity: true)
    }

    private func lookup(_ key: String, table: String, language: LanguageTag) -> Lookup? {
        guard let value = served[TableID(language: language, table: table)]?.content[key] else { return nil }
        return Lookup(value: value, language: language.identifier)
    }

    /// The languages that have tables, sorted, with each table's key count.
    package func languages() -> [LanguageSummary] {
        var byLanguage: [LanguageTag: [String: Int]] = [:]
        for (id, entry) in served { byLanguage[id.language, default: [:]][id.table] = entry.content.count }
        return byLanguage.sorted { $0.key < $1.key }.map {
            LanguageSummary(language: $0.key.identifier, tables: $0.value)
        }
    }

    // MARK: - The app language

    /// Selects the app language that lookups try after the requested ones, or clears it with `nil`.
    ///
    /// A language is supported when `LanguageMatcher` finds a language of the bundle for it (`de-CH` is
    /// accepted when there is `de`, `zh-TW` when there is `zh-Hant`); `Base` is not a language to select.
    /// Selecting the language already selected returns no event.
    ///
    /// - Returns: a `language` event with the next `seq`, or nothing when the selection is unchanged.
    /// - Throws: `StoreError.unsupportedLanguage` listing the available languages.
    package func selectLanguage(_ language: String?) throws(StoreError) -> [StoreEvent] {
        let tag = try checkedSelection(language)
        guard tag != selectedLanguage else { return [] }
        let previous = selectedLanguage
        selectedLanguage = tag
        chains.removeAll(keepingCapacity: true)
        return [.language(seq: nextSeq(), language: selectedLanguage, previous: previous)]
    }

    /// The selection `language` asks for (its tag; `nil` clears the selection), checked as `selectLanguage(_:)`
    /// checks it, and nothing selected: a service saves the selection first (off its core), then selects it.
    /// - Throws: `StoreError.unsupportedLanguage` listing the available languages.
    package func checkedSelection(_ language: String?) throws(StoreError) -> LanguageTag? {
        guard let language else { return nil }
        guard let requested = LanguageTag(language), !requested.isBase, matcher.supports(requested) else {
            throw .unsupportedLanguage(language, available: matcher.languages.map(\.identifier).sorted())
        }
        return requested
    }

    /// Numbers problems that are not about one table's content (a folder that cannot be watched, a
    /// folder name that is no language) as `error` events; nothing is served differently.
    package func report(_ problems: [FileProblem]) -> [StoreEvent] {
        problems.map { .error(seq: nextSeq(), $0) }
    }
}

extension TableContent {
    /// This table (a catalog's) with `folder`'s keys on top: a key the folder's files have takes their value (its
    /// string or its rule), the others keep this table's; this table's keys first, in their order.
    /// - Complexity: O(n + m).
    func overlaid(by folder: TableContent) -> TableContent {
        var result = TableContent()
        for entry in strings.entries where folder[entry.key] == nil { result.strings.append(entry) }
        for entry in folder.strings.entries { result.strings.append(entry) }
        for (key, rule) in rules.entries where folder[key] == nil { result.rules[key] = rule }
        for (key, rule) in folder.rules.entries { result.rules[key] = rule }
        return result
    }
}
