import BundleChanges
import StringsFormat

/// One file of a table as the watcher found it: the folder and name it has on disk, and the table it holds.
///
/// The table's identity is made once, when the folder is found (its language resolved there), and travels with
/// the file: nothing is parsed back out of a path.
struct TableFile: Sendable, Hashable, Comparable {
    /// The language folder's name on disk (`de.lproj`, `German.lproj`).
    var folder: String
    /// The file's name (`Localizable.strings`).
    var name: String
    /// The table the file holds.
    var id: TableID

    /// The path relative to the bundle root: `de.lproj/Localizable.strings`.
    var path: String { folder + "/" + name }

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
