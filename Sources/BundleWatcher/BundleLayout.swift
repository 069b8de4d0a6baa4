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
    var isCatalog: Bool { BundleNames.format(ofFile: name) == .catalog }

    /// What the file settles by: its table, or the catalog itself.
    var key: SettleKey { isCatalog ? .catalog(path) : .table(id) }

    static func < (lhs: TableFile, rhs: TableFile) -> Bool { (lhs.folder, lhs.name) < (rhs.folder, rhs.name) }
}

/// The files of a bundle as the watcher keeps them: a table's files and catalogs made into `TableFile`s, by the
/// naming rules of `BundleNames` (which names are language folders, tables and catalogs, and which are never read:
/// rsync's `.Localizable.strings.Xa9f3Q`, vim's `.swp`, Kubernetes' `..data`, backups ending in `~`).
enum BundleLayout {
    /// The catalog `name` (of table `table`) in `folder` (empty for the root).
    static func catalog(named name: String, ofTable table: String, in folder: String) -> TableFile {
        TableFile(folder: folder, name: name, id: TableID(language: .base, table: table))
    }

    /// The table file or catalog `name` in the language folder `folder`, or `nil` when it is neither.
    static func file(named name: String, in folder: String, language: LanguageTag) -> TableFile? {
        guard case .table(let table, let format) = BundleNames.file(named: name) else { return nil }
        return format == .catalog ? catalog(named: name, ofTable: table, in: folder)
            : file(named: name, ofTable: table, in: folder, language: language)
    }

    /// The file `name` (of table `table`) in `folder` (holding `language`).
    static func file(named name: String, ofTable table: String, in folder: String, language: LanguageTag)
        -> TableFile {
        TableFile(folder: folder, name: name, id: TableID(language: language, table: table))
    }

    /// Every file table `table` may have in `folder` (holding `language`): its `.strings` and its `.stringsdict`.
    static func files(ofTable table: String, in folder: String, language: LanguageTag) -> [TableFile] {
        [BundleNames.Format.strings, .stringsdict].map {
            file(named: table + $0.suffix, ofTable: table, in: folder, language: language)
        }
    }

    /// Whether a change to `name` inside a language folder may change what its symlinks point to:
    /// Kubernetes swaps `..data` (a symlink to a timestamped folder) to update a ConfigMap volume.
    static func isSymlinkSwap(_ name: String) -> Bool {
        name == "..data" || name.hasPrefix("..data_")
    }
}
