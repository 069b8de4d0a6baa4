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
    /// `.strings` files must parse as the watcher parses them; `.stringsdict` files must be property lists whose
    /// entries are valid format rules; `.xcstrings` String Catalogs (in the root or in a language folder) must
    /// parse as the watcher's `StringCatalog` reads them. Other files (which `publish` no longer writes, but a release
    /// published before may name) are carried as they are.
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
            let plist: PropertyListValue
            do throws(ParseError) {
                plist = try StringsdictFile.propertyList(bytes)
            } catch {
                throw .invalidTable(FileProblem(file: path, error))
            }
            do throws(FormatError) {
                _ = try StringsdictEntry.entries(of: plist)
            } catch {
                throw .invalidTable(FileProblem(file: path, message: error.reason))
            }
        }
    }
}
