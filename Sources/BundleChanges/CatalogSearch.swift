/// Where String Catalogs are looked for below a bundle's root besides the root and its language folders: the rule
/// the watcher serves them by, and the one `publish` checks a bundle by.
package enum CatalogSearch {
    /// How many folders below the root are searched at most, by default.
    package static let defaultDepth = 16

    /// Whether the folder `name` (in the root or in a folder searched already) is searched for String Catalogs: any
    /// folder but a language folder (`*.lproj`, which holds its tables itself), a hidden one (`..data` and the
    /// release folders `..2026_…`, editors' and sync tools' temporaries) and a backup ending in `~`.
    ///
    /// Only real folders are searched: a symbolic link to a folder is not followed.
    package static func isSearched(folder name: String) -> Bool {
        !name.isEmpty && !name.hasPrefix(".") && !name.hasSuffix("~") && !name.hasSuffix(".lproj")
    }
}
