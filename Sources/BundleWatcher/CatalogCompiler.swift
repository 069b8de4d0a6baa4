import BundleChanges
import StringsFormat
import Synchronization

/// Compiles String Catalogs for the watcher, each save reading and compiling only the keys whose JSON changed.
///
/// A save usually changes a few keys of one or two languages, but reading the whole JSON and compiling every
/// language costs many times a `.strings` save of the same bundle (IceCubesApp's 2 MB, 19 languages). The compiler
/// keeps a `CompiledCatalog` per catalog (by path): the last good version's bytes with each key's compiled entry,
/// and each language's table. One per watched catalog, dropped when the file goes.
final class CatalogCompiler: Sendable {
    /// The last good version of each catalog, by path; catalogs are read on the watcher's thread, or on several in
    /// a parallel scan (each file by one of them).
    private let last = Mutex<[String: CompiledCatalog]>([:])

    /// The catalog's table in each of its languages (a language whose name is no tag is reported and left out).
    ///
    /// - Throws: the `ParseError` of `StringCatalog.parse` for these bytes; the last good version stays.
    func tables(reading bytes: [UInt8], file: String) throws(ParseError) -> CatalogTables {
        // Taken out while it is read, so that updating it copies nothing.
        var compiled = last.withLock { $0.removeValue(forKey: file) } ?? CompiledCatalog()
        defer { last.withLock { [compiled] in $0[file] = compiled } }
        try compiled.read(bytes)
        var tables = CatalogTables(tables: [:])
        for language in compiled.languages {
            guard let tag = LanguageTag(language) else {
                tables.problems.append(FileProblem(
                    file: file, message: "'\(DisplayText.escaped(language, limit: 80))' is not a language tag; "
                        + "its strings are not served"
                ))
                continue
            }
            tables.tables[tag] = compiled.tables[language]
        }
        return tables
    }

    /// Forgets the catalog at `file` (it is gone).
    func forget(_ file: String) {
        _ = last.withLock { $0.removeValue(forKey: file) }
    }

    /// How many catalogs are kept (for tests: one per catalog read and not gone).
    var count: Int { last.withLock { $0.count } }
}
