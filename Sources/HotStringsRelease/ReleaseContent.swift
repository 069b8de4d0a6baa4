import BundleChanges
import StringsFormat

/// The checks every file of a release passes, at publish time and again before a pull installs it: tables must
/// parse the way the watcher will parse them.
package enum ReleaseContent {
    /// Whether the file at bundle path `path` is a table by its name (`T.strings`, `T.stringsdict`, `T.xcstrings`,
    /// by `BundleNames`): what the watcher serves, and what `validate` parses.
    package static func isTable(_ path: String) -> Bool {
        format(of: path) != nil
    }

    private static func format(of path: String) -> BundleNames.Format? {
        BundleNames.format(ofFile: String(path.split(separator: "/", omittingEmptySubsequences: false).last ?? ""))
    }

    /// Checks the file at bundle path `path` (`de.lproj/Localizable.strings`) holding `bytes`.
    ///
    /// `.strings` and `.stringsdict` files must parse as the watcher parses them (a `.stringsdict` entry must be a
    /// valid format rule within the expansion bounds); `.xcstrings` String Catalogs (in the root or in a language
    /// folder) must parse as the watcher's `StringCatalog` reads them. Other files (which `publish` no longer
    /// writes, but a release published before may name) are carried as they are.
    /// - Throws: `ReleaseError.invalidTable` with the path and, for parse errors, the line and column.
    package static func validate(_ bytes: [UInt8], path: String) throws(ReleaseError) {
        do throws(ParseError) {
            switch format(of: path) {
            case .strings: _ = try StringsFile.parse(bytes)
            case .catalog: _ = try StringCatalog.parse(bytes)
            // The watcher's own parse, so a release carries no entry it would refuse (one whose variables
            // expand without bound, say), and the error has the entry's line.
            case .stringsdict: _ = try StringsdictFile.parse(bytes)
            case nil: break
            }
        } catch {
            throw .invalidTable(FileProblem(file: path, error))
        }
    }
}
