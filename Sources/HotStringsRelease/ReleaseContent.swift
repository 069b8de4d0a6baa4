import StringsFormat

/// The checks every file of a release passes, at publish time and again before a pull installs it: tables must
/// parse the way the watcher will parse them.
package enum ReleaseContent {
    /// Whether `validate` parses a file at `path` (a table); other files are carried as they are.
    package static func isParsed(_ path: String) -> Bool {
        path.hasSuffix(".strings") || path.hasSuffix(".xcstrings") || path.hasSuffix(".stringsdict")
    }

    /// Checks the file at bundle path `path` (`de.lproj/Localizable.strings`) holding `bytes`.
    ///
    /// `.strings` files must parse as the watcher parses them; `.stringsdict` files must be property lists whose
    /// entries are valid format rules; `.xcstrings` String Catalogs (in the root or in a language folder) must
    /// parse as the watcher's `StringCatalog` reads them. Other files are carried as they are.
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
