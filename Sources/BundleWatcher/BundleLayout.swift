import StringsFormat

/// Where a file sits in a bundle: `<root>/<language>.lproj/<Table>.strings`.
package struct TableLocation: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The folder name without `.lproj`, as written (`de`, `German`, `pt_BR`).
    package var folderLanguage: String
    /// The table name: the file name without `.strings`.
    package var table: String

    /// The path relative to the bundle root: `de.lproj/Localizable.strings`.
    package var relativePath: String { "\(folderLanguage).lproj/\(table).strings" }

    package var description: String { relativePath }

    package static func < (lhs: TableLocation, rhs: TableLocation) -> Bool { lhs.relativePath < rhs.relativePath }
}

/// The naming rules of a bundle: which folders are languages and which files are tables.
///
/// Names that editors and sync tools use for temporary files are never tables: hidden names
/// (rsync's `.Localizable.strings.Xa9f3Q`, vim's `.swp`, Kubernetes' `..data`), backups ending in
/// `~`, and folders such as rsync's `.~tmp~`.
package enum BundleLayout {
    /// The language folder name for `name` (`de` for `de.lproj`), or `nil` when it is not one.
    package static func language(ofFolder name: String) -> String? {
        guard name.hasSuffix(".lproj"), !name.hasPrefix("."), !name.hasSuffix("~") else { return nil }
        let language = String(name.dropLast(".lproj".count))
        return language.isEmpty ? nil : language
    }

    /// The table name for a file `name` in a language folder, or `nil` when it is not a table.
    package static func table(ofFile name: String) -> String? {
        guard name.hasSuffix(".strings"), !name.hasPrefix("."), !name.hasSuffix("~") else { return nil }
        let table = String(name.dropLast(".strings".count))
        return table.isEmpty ? nil : table
    }

    /// Whether a change to `name` inside a language folder may change what its symlinks point to:
    /// Kubernetes swaps `..data` (a symlink to a timestamped folder) to update a ConfigMap volume.
    package static func isSymlinkSwap(_ name: String) -> Bool {
        name == "..data" || name.hasPrefix("..data_")
    }
}
