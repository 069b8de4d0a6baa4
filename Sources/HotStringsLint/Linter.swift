import BundleChanges
import Foundation
import LinuxSystem
import StringsFormat

/// One finding about one file.
package struct Diagnostic: Sendable, Equatable {
    package enum Severity: String, Sendable {
        /// `note`: what was left alone and why (a name the daemon does not serve, such as an editor's backup).
        case error, warning, note
    }

    /// What the finding is about; the text output caps the long per-key kinds.
    package enum Kind: Sendable, Equatable {
        case unreadable, parseError, duplicateKey, emptyFile, missingKey, extraKey
        /// A plural category the language does not use, or one it uses that the entry lacks (a catalog's plural
        /// group, a `.stringsdict` entry).
        case pluralCategory
        /// A catalog language's count of `new`, `needs_review` and `stale` strings.
        case translationState
        /// A catalog language (or `sourceLanguage`) that is not a language tag: `compile` refuses it, since
        /// it names a folder (`../x` would be one outside OUTDIR).
        case language
        /// A `.stringsdict` entry that cannot format: no `other`, an undefined variable.
        case ruleError
        /// A value whose format specifiers take other arguments than the development language's value of the
        /// same key (a `%d` translated as `%@`), leave one out, or mix positioned and plain specifiers
        /// (`FormatSpecifiers.problems(of:against:developmentLanguage:)`): a `.strings` value, a `.stringsdict`
        /// entry, a String Catalog's localization.
        case formatSpecifiers
        /// A language folder that is the same language as another of its bundle (`DE.lproj` beside `de.lproj`):
        /// only one of them is served.
        case languageClash
        /// A name the daemon does not serve (`BundleNames.NotServed`): a suffix in other case (`X.STRINGS`,
        /// `DE.LPROJ`), a `.lproj` folder that is no language tag (warnings), a backup or an editor's temporary file of
        /// a table (notes).
        case notServed
    }

    package var severity: Severity
    package var kind: Kind
    package var location: SourceLocation?
    package var message: String
    /// The key the finding is about, if any.
    package var key: String?
}

extension Diagnostic {
    /// The error of a file that does not parse, at its place.
    package init(_ error: ParseError) {
        self.init(severity: .error, kind: .parseError, location: SourceLocation(line: error.line, column: error.column),
                  message: error.reason)
    }
}

/// Where a file sits in a localization bundle: `<root>/<language>.lproj/<table>.strings` (or `.stringsdict`), by the
/// names the daemon serves (`BundleNames`).
package struct BundlePlace: Sendable, Hashable {
    /// The folder holding the `.lproj` folders, standardized so the same root given twice matches.
    package var root: String
    /// The `.lproj` folder's name (`en.lproj`).
    package var folder: String
    /// The folder's language as the daemon serves it (`de` for `DE.lproj`, `pt-BR` for `pt_BR.lproj`, `Base`).
    package var language: String
    /// The file name without `.strings` or `.stringsdict` (`Localizable`).
    package var table: String
    /// The file's extension with its dot: `.strings` or `.stringsdict`.
    package var fileExtension: String

    /// The place of `path`, or `nil` when the daemon would not serve it as a table of a language folder: its folder
    /// is no language folder, or it is no `.strings` or `.stringsdict` file.
    package init?(path: String) {
        let url = URL(fileURLWithPath: path).standardizedFileURL
        let folderURL = url.deletingLastPathComponent()
        let folder = folderURL.lastPathComponent
        guard let language = BundleNames.language(ofFolder: folder),
              case .table(let table, let format) = BundleNames.file(named: url.lastPathComponent), format != .catalog
        else {
            return nil
        }
        self.root = folderURL.deletingLastPathComponent().path
        self.folder = folder
        self.language = language.identifier
        self.table = table
        self.fileExtension = format.suffix
    }

    /// Whether this is `Base.lproj`, which is a fallback and never compared.
    package var isBase: Bool { language == LanguageTag.base.identifier }

    /// Whether the folder's language is `tag` (read as a `LanguageTag`: `de_DE` and `de-de` are `de-DE`).
    package func isLanguage(_ tag: String) -> Bool {
        LanguageTag(tag)?.identifier == language
    }
}

/// The outcome of linting one file.
package struct LintedFile: Sendable {
    /// The path as found (relative paths stay relative).
    package var path: String
    package var place: BundlePlace?
    /// The parsed table; `nil` when the file could not be read or parsed, or is a `.stringsdict`.
    package var table: StringsTable?
    /// The parsed String Catalog, for a `.xcstrings` file.
    package var catalog: StringCatalog?
    /// The parsed rules of a `.stringsdict`; `nil` when it could not be read or parsed, or is another kind.
    package var rules: StringsdictTable?
    /// Where each rule's `<key>` is in a `.stringsdict`.
    package var ruleLocations: [String: SourceLocation] = [:]
    package var diagnostics: [Diagnostic] = []
    /// Whether the file was left unread: a name the daemon does not serve, found in a folder (its one diagnostic
    /// says why).
    package var isSkipped = false
}

extension LintedFile {
    /// What `parse` returns; nil when it throws, its error then recorded as this file's diagnostic.
    mutating func parsing<Parsed>(_ parse: () throws(ParseError) -> Parsed) -> Parsed? {
        do throws(ParseError) {
            return try parse()
        } catch {
            diagnostics.append(Diagnostic(error))
            return nil
        }
    }
}

/// Everything `lint` found, in path order.
package struct LintReport: Sendable {
    package var files: [LintedFile]

    /// How many files were read and checked.
    package var checkedCount: Int { files.count(where: { !$0.isSkipped }) }
    /// How many names were left unread, as the daemon leaves them (`LintedFile.isSkipped`).
    package var skippedCount: Int { files.count(where: \.isSkipped) }

    package var keyCount: Int {
        files.reduce(0) { $0 + ($1.table?.count ?? $1.catalog?.entries.count ?? 0) + ($1.rules?.count ?? 0) }
    }
    package var errorCount: Int { count(.error) }
    package var warningCount: Int { count(.warning) }

    private func count(_ severity: Diagnostic.Severity) -> Int {
        files.reduce(0) { $0 + $1.diagnostics.count { $0.severity == severity } }
    }
}

/// Checks `.strings` and `.stringsdict` files one by one (syntax, duplicates, emptiness, plural forms) and across
/// the languages of a bundle.
package struct Linter {
    /// The language translations are compared against (`en`).
    package var developmentLanguage: String

    /// A linter comparing translations against `developmentLanguage`.
    package init(developmentLanguage: String) {
        self.developmentLanguage = developmentLanguage
    }

    /// Lints the files and folders at `paths`: folders recursively, the tables and catalogs the daemon would serve
    /// by their names (`BundleNames`); each name it would not serve although it looks meant as a table, a catalog or a
    /// language folder is listed as skipped, with the reason. A file named in `paths` is checked whatever its name,
    /// with a word when the daemon would not serve it.
    package func lint(paths: [String]) -> LintReport {
        var files: [LintedFile] = []
        var seen: Set<String> = []
        func add(_ file: LintedFile) {
            if seen.insert(URL(fileURLWithPath: file.path).standardizedFileURL.path).inserted { files.append(file) }
        }
        for path in paths {
            guard Self.isDirectory(path) else {
                var file = lintFile(at: path)
                if let notServed = Self.notServed(path) {
                    file.diagnostics.insert(Self.diagnostic(notServed), at: 0)
                }
                add(file)
                continue
            }
            let found = Self.stringsFiles(under: path)
            for error in found.errors { add(unreadable(error, path: error.path ?? path)) }
            let skipped = Dictionary(found.skipped.map { ($0.path, $0.notServed) }) { first, _ in first }
            for file in (found.files + skipped.keys).sorted() {
                guard let notServed = skipped[file] else {
                    add(lintFile(at: file))
                    continue
                }
                add(LintedFile(path: file, place: nil, diagnostics: [Self.diagnostic(notServed)], isSkipped: true))
            }
        }
        compareLanguages(&files)
        compareSpecifiers(&files)
        reportLanguageClashes(&files)
        return LintReport(files: files)
    }

    /// Reads (whatever `path` names: a FIFO too) and parses one file, with its own diagnostics.
    package func lintFile(at path: String) -> LintedFile {
        let bytes: [UInt8]
        do throws(SystemError) {
            bytes = try FileSystem.readToEnd(atPath: path)
        } catch {
            return unreadable(error, path: path)
        }
        return lint(bytes, path: path)
    }

    /// Parses bytes read from `path`, in the format its name is (or is meant as: `X.STRINGSDICT`), else as `.strings`.
    package func lint(_ bytes: [UInt8], path: String) -> LintedFile {
        let format = BundleNames.readableFormat(ofFile: URL(fileURLWithPath: path).lastPathComponent)
        if format == .catalog { return CatalogLinter.lint(bytes, path: path) }
        if format == .stringsdict { return lintStringsdict(bytes, path: path) }
        var file = LintedFile(path: path, place: BundlePlace(path: path))
        guard let table = file.parsing({ () throws(ParseError) in try StringsFile.parse(bytes) }) else { return file }
        file.table = table
        for duplicate in table.duplicates {
            let first = duplicate.first.map { " (first defined at \($0))" } ?? ""
            file.diagnostics.append(Diagnostic(
                severity: .warning, kind: .duplicateKey, location: duplicate.duplicate,
                message: "duplicate key '\(DisplayText.escaped(duplicate.key))'\(first); the last value wins",
                key: duplicate.key))
        }
        if table.isEmpty {
            file.diagnostics.append(Diagnostic(severity: .warning, kind: .emptyFile, message: "file is empty"))
        }
        return file
    }

    /// A name the daemon does not serve, said as a warning when it is likely a mistake, else as a note.
    static func diagnostic(_ notServed: BundleNames.NotServed) -> Diagnostic {
        Diagnostic(severity: notServed.isMistake ? .warning : .note, kind: .notServed,
                   message: notServed.reason)
    }

    /// `path`, which could not be read or listed, with the system's reason (`No such file or directory`).
    private func unreadable(_ error: SystemError, path: String) -> LintedFile {
        var file = LintedFile(path: path, place: nil)
        file.diagnostics.append(Diagnostic(severity: .error, kind: .unreadable, message: error.errno.message))
        return file
    }

    /// Warns about keys the development language has and a translation lacks, and the other way round.
    ///
    /// Files are grouped by bundle root and table; `Base.lproj` and files that did not parse take no
    /// part, and a root without the development language is not compared at all.
    package func compareLanguages(_ files: inout [LintedFile]) {
        var groups: [BundleGroup: [(index: Int, place: BundlePlace)]] = [:]
        for (index, file) in files.enumerated() {
            guard let place = file.place, !place.isBase, file.table != nil else { continue }
            groups[BundleGroup(root: place.root, table: place.table), default: []].append((index, place))
        }
        for members in groups.values {
            guard let reference = members.first(where: { $0.place.isLanguage(developmentLanguage) }),
                  let referenceTable = files[reference.index].table else {
                continue
            }
            let referenceName = DisplayText.escaped("\(reference.place.folder)/\(reference.place.table).strings")
            for member in members where !member.place.isLanguage(developmentLanguage) {
                guard let table = files[member.index].table else { continue }
                for entry in referenceTable.entries where table[entry.key] == nil {
                    files[member.index].diagnostics.append(Diagnostic(
                        severity: .warning, kind: .missingKey,
                        message: "key '\(DisplayText.escaped(entry.key))' is missing (present in \(referenceName))",
                        key: entry.key))
                }
                for entry in table.entries where referenceTable[entry.key] == nil {
                    files[member.index].diagnostics.append(Diagnostic(
                        severity: .warning, kind: .extraKey, location: entry.location,
                        message: "key '\(DisplayText.escaped(entry.key))' is not in the development language "
                            + "(\(developmentLanguage))",
                        key: entry.key))
                }
            }
        }
    }

    /// Reports language folders of one bundle that are one language, by the rule the watcher serves by
    /// (`BundleNames.clashes`): an error on the first file of each folder that is not served, naming the one that is.
    package func reportLanguageClashes(_ files: inout [LintedFile]) {
        var folders: [String: [String: Int]] = [:]
        for (index, file) in files.enumerated() {
            guard let place = file.place else { continue }
            if let first = folders[place.root]?[place.folder], files[first].path <= file.path { continue }
            folders[place.root, default: [:]][place.folder] = index
        }
        for (_, firstFiles) in folders.sorted(by: { $0.key < $1.key }) {
            for clash in BundleNames.clashes(among: firstFiles.keys) {
                for folder in clash.unserved {
                    guard let index = firstFiles[folder] else { continue }
                    files[index].diagnostics.append(Diagnostic(
                        severity: .error, kind: .languageClash, message: clash.message))
                }
            }
        }
    }

    private struct BundleGroup: Hashable {
        var root: String
        var table: String
    }
}
