import BundleChanges
import StringsFormat
import Synchronization

/// Compiles String Catalogs for the watcher, each language only when what it is compiled from changed.
///
/// A save usually changes a few keys of one or two languages, but compiling a language walks the whole catalog:
/// for IceCubesApp's 19 languages compiling them all costs about as much as parsing the file. The compiler keeps
/// the last version it compiled of each catalog (by path) and takes a language's table from it when the new
/// version gives that language the same entries: the same keys in the same order, the same comments, the same
/// source language and the same localizations in that language, which is everything `compiled(language:)` reads.
final class CatalogCompiler: Sendable {
    private struct Compiled: Sendable {
        var catalog: StringCatalog
        var tables: [String: TableContent]
    }

    /// The last version of each catalog, by path; catalogs are read on the watcher's thread, or on several in a
    /// parallel scan.
    private let last = Mutex<[String: Compiled]>([:])

    /// The catalog's table in each of its languages (a language whose name is no tag is reported and left out).
    func tables(of catalog: StringCatalog, file: String) -> CatalogTables {
        let previous = last.withLock { $0[file] }
        let changed = previous.flatMap { catalog.changedLanguages(since: $0.catalog) }
        var tables = CatalogTables(tables: [:])
        var compiled: [String: TableContent] = [:]
        for language in catalog.languages {
            guard let tag = LanguageTag(language) else {
                tables.problems.append(FileProblem(
                    file: file, message: "'\(DisplayText.escaped(language, limit: 80))' is not a language tag; "
                        + "its strings are not served"
                ))
                continue
            }
            let unchanged = changed.map { !$0.contains(language) } ?? false
            let table = (unchanged ? previous?.tables[language] : nil) ?? catalog.compiled(language: language)
            compiled[language] = table
            tables.tables[tag] = table
        }
        last.withLock { $0[file] = Compiled(catalog: catalog, tables: compiled) }
        return tables
    }

    /// Forgets the catalog at `file` (it is gone).
    func forget(_ file: String) {
        _ = last.withLock { $0.removeValue(forKey: file) }
    }
}

extension StringCatalog {
    /// The languages whose compiled table may differ from what `old` compiles to (each language whose localization
    /// of some key changed), or `nil` when every language's may: the source language, a key, the order of the keys
    /// or a comment changed.
    /// - Complexity: O(n × l) comparisons for n keys in l languages; the localizations of a key are compared in
    ///   the order both dictionaries hold them, so an unchanged key costs no hashing.
    func changedLanguages(since old: StringCatalog) -> Set<String>? {
        guard sourceLanguage == old.sourceLanguage, entries.count == old.entries.count else { return nil }
        var changed: Set<String> = []
        for (entry, previous) in zip(entries, old.entries) {
            guard entry.key == previous.key, entry.comment == previous.comment else { return nil }
            let (new, before) = (entry.localizations, previous.localizations)
            if new.count == before.count, zip(new, before).allSatisfy({ $0.key == $1.key && $0.value == $1.value }) {
                continue
            }
            for language in Set(new.keys).union(before.keys) where new[language] != before[language] {
                changed.insert(language)
            }
        }
        return changed
    }
}
