import StringsFormat

/// The checks every file of a release passes, at publish time and again before a pull installs it: tables must
/// parse the way the watcher will parse them.
package enum ReleaseContent {
    /// The kinds of file a release carries: the tables the watcher serves. `publish` leaves other files out.
    package static let tableExtensions = [".strings", ".stringsdict", ".xcstrings"]

    /// Whether the file at `path` is a table by its name (`.strings`, `.stringsdict`, `.xcstrings`): `validate`
    /// parses it.
    package static func isTable(_ path: String) -> Bool {
        tableExtensions.contains { path.hasSuffix($0) }
    }

    /// Checks the file at bundle path `path` (`de.lproj/Localizable.strings`) holding `bytes`.
    ///
    /// `.strings` and `.stringsdict` files must parse as the watcher parses them (a `.stringsdict` entry must be a
    /// valid format rule within the expansion bounds); `.xcstrings` String Catalogs (in the root or in a language
    /// folder) must parse as the watcher's `StringCatalog` reads them. Other files (which `publish` no longer
    /// writes, but a release published before may name) are carried as they are.
    /// - Throws: `ReleaseError.invalidTable` with the path and, for parse errors, the line and column.
    package static func validate(_ bytes: [UInt8], path: String) throws(ReleaseError) {
        if path.hasSuffix(".strings") {
            do throws(ParseError) {
                _ = try StringsFile.parse(bytes)
            } catch {
                throw .invalidTable(FileProblem(file: path, error))
            }
        } else if path.hasSuffix(".xcstrings") {
            do throws(ParseError) {
                _ = try StringCatalog.parse(bytes)
            } catch {
                throw .invalidTable(FileProblem(file: path, error))
            }
        } else if path.hasSuffix(".stringsdict") {
            // The watcher's own parse, so a release carries no entry it would refuse (one whose variables
            // expand without bound, say), and the error has the entry's line.
            do throws(ParseError) {
                _ = try StringsdictFile.parse(bytes)
            } catch {
                throw .invalidTable(FileProblem(file: path, error))
            }
        }
    }
}
