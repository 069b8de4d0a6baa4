import BundleChanges
import StringsFormat

/// What the watcher settles by: a table of one language (whose files are read together), or a String Catalog,
/// which is one file holding a table in many languages.
enum SettleKey: Sendable, Hashable, Comparable {
    /// The files of one table: `T.strings` and `T.stringsdict` of each folder of its language.
    case table(TableID)
    /// A String Catalog, by its path relative to the root.
    case catalog(String)

    static func < (lhs: SettleKey, rhs: SettleKey) -> Bool {
        switch (lhs, rhs) {
        case (.table(let left), .table(let right)): left < right
        case (.catalog(let left), .catalog(let right)): left < right
        case (.table, .catalog): true
        case (.catalog, .table): false
        }
    }
}

/// One file of a table as the watcher found it: the folder and name it has on disk, and the table it holds.
///
/// The table's identity is made once, when the folder is found (its language resolved there), and travels with
/// the file: nothing is parsed back out of a path.
struct TableFile: Sendable, Hashable, Comparable {
    /// The folder's path relative to the root: a language folder's name on disk (`de.lproj`, `German.lproj`), or for
    /// a catalog, the folder it was found in (`Features/Chat`; empty for the root).
    var folder: String
    /// The file's name (`Localizable.strings`).
    var name: String
    /// The table the file holds (for a catalog, its table with the language `Base`: its languages are inside).
    var id: TableID

    /// The path relative to the bundle root: `de.lproj/Localizable.strings`.
    var path: String { folder.isEmpty ? name : folder + "/" + name }

    /// Whether the file is a String Catalog.
    var isCatalog: Bool { name.hasSuffix(TableUpdate.catalogExtension) }

    /// What the file settles by: its table, or the catalog itself.
    var key: SettleKey { isCatalog ? .catalog(path) : .table(id) }

    static func < (lhs: TableFile, rhs: TableFile) -> Bool { (lhs.folder, lhs.name) < (rhs.folder, rhs.name) }
}

/// The naming rules of a bundle: which folders are languages and which files are tables.
///
/// Names that editors and sync tools use for temporary files are never tables: hidden names
/// (rsync's `.Localizable.strings.Xa9f3Q`, vim's `.swp`, Kubernetes' `..data`), backups ending in
/// `~`, and folders such as rsync's `.~tmp~`.
package enum BundleLayout {
    /// The language as the folder `name` writes it (`de` for `de.lproj`), or `nil` when it is no language folder.
    package static func language(ofFolder name: String) -> String? {
        guard name.hasSuffix(".lproj"), !name.hasPrefix("."), !name.hasSuffix("~") else { return nil }
        let language = String(name.dropLast(".lproj".count))
        return language.isEmpty ? nil : language
    }

    /// The extensions of the files a table is made of: `T.strings` and `T.stringsdict` of one folder are one
    /// table (the `.stringsdict` entry wins for a key both have).
    static let tableExtensions = [".strings", ".stringsdict"]

    /// The table name for a file `name` in a language folder, or `nil` when it is not a table's file.
    package static func table(ofFile name: String) -> String? {
        guard !name.hasPrefix("."), !name.hasSuffix("~"),
              let suffix = tableExtensions.first(where: name.hasSuffix) else { return nil }
        let table = String(name.dropLast(suffix.count))
        return table.isEmpty ? nil : table
    }

    /// The table name of a String Catalog's file `name` (`Settings` for `Settings.xcstrings`), or `nil`.
    ///
    /// Catalogs are found in the root, in each language folder and in every folder `CatalogSearch.isSearched(folder:)` admits,
    /// at any depth (see docs/GUIDE.md, "String Catalogs, live").
    package static func catalogTable(ofFile name: String) -> String? {
        guard !name.hasPrefix("."), name.hasSuffix(TableUpdate.catalogExtension) else { return nil }
        let table = String(name.dropLast(TableUpdate.catalogExtension.count))
        return table.isEmpty ? nil : table
    }

    /// The catalog `name` (of table `table`) in `folder` (empty for the root).
    static func catalog(named name: String, ofTable table: String, in folder: String) -> TableFile {
        TableFile(folder: folder, name: name, id: TableID(language: .base, table: table))
    }

    /// The table file or catalog `name` in the language folder `folder`, or `nil` when it is neither.
    static func file(named name: String, in folder: String, language: LanguageTag) -> TableFile? {
        if let table = table(ofFile: name) { return file(named: name, ofTable: table, in: folder, language: language) }
        return catalogTable(ofFile: name).map { catalog(named: name, ofTable: $0, in: folder) }
    }

    /// The file `name` (of table `table`) in `folder` (holding `language`).
    static func file(named name: String, ofTable table: String, in folder: String, language: LanguageTag)
        -> TableFile {
        TableFile(folder: folder, name: name, id: TableID(language: language, table: table))
    }

    /// Every file table `table` may have in `folder` (holding `language`): its `.strings` and its `.stringsdict`.
    static func files(ofTable table: String, in folder: String, language: LanguageTag) -> [TableFile] {
        tableExtensions.map { file(named: table + $0, ofTable: table, in: folder, language: language) }
    }

    /// Whether a change to `name` inside a language folder may change what its symlinks point to:
    /// Kubernetes swaps `..data` (a symlink to a timestamped folder) to update a ConfigMap volume.
    package static func isSymlinkSwap(_ name: String) -> Bool {
        name == "..data" || name.hasPrefix("..data_")
    }
}
