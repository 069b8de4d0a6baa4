import StringsFormat

/// Which names of a bundle the daemon serves, and as what: language folders, table files, String Catalogs, the
/// folders searched for catalogs, and the names it never reads (hidden names, backups, editors' temporary files).
///
/// One rule, decided here: the watcher serves by it, and `lint`, `publish`, the manifest check, the release store,
/// the catalog search and the editor follow it, so none of them reads, writes or ships a name the daemon does not
/// serve. Apple's layout, the case as written: a language folder is `<language>.lproj`, a table `T.strings` and
/// `T.stringsdict` in it, a String Catalog `T.xcstrings`; the suffixes are lower case exactly, so `DE.LPROJ`,
/// `X.STRINGS` and `Foo.XCSTRINGS` are none of these (an app's `Bundle` on a case-sensitive file system does not
/// find them either). The language part is read as a `LanguageTag`, case-insensitive with `_` and `-` alike:
/// `DE.lproj` is `de`, `de_DE.lproj` is `de-DE`, `zh-Hans.lproj` is `zh-Hans`, `German.lproj` is `de` and
/// `Base.lproj` is `Base` (the last fallback). Folders of one language are a clash (`BundleNames+Clashes`).
package enum BundleNames {
    /// The end of a language folder's name.
    package static let languageFolderSuffix = ".lproj"

    /// What a folder's name makes it.
    package enum Folder: Sendable, Hashable {
        /// A language folder (`de.lproj`, `DE.lproj`, `zh-Hans.lproj`, `Base.lproj`): in the root, it holds the
        /// tables of its language.
        case language(LanguageTag)
        /// A `.lproj` folder whose name is no language tag (`Not a tag!.lproj`): not served, and reported.
        case notALanguage(String)
        /// Any other folder: searched for String Catalogs, in the root and below it.
        case searched
        /// A name never read, nor searched.
        case ignored(Ignored)

        /// Whether the name is a language folder's, `<name>.lproj`, whether or not `name` is a language tag.
        package var isLanguageFolderName: Bool {
            switch self {
            case .language, .notALanguage: true
            case .searched, .ignored: false
            }
        }
    }

    /// The formats of the files the daemon serves.
    package enum Format: Sendable, Hashable, CaseIterable {
        /// `T.strings`: text or a binary property list, in a language folder.
        case strings
        /// `T.stringsdict`: plural and device rules, in a language folder.
        case stringsdict
        /// `T.xcstrings`: a String Catalog, anywhere the catalog search looks.
        case catalog

        /// The end of the file's name: `.strings`, `.stringsdict`, `.xcstrings`.
        package var suffix: String {
            switch self {
            case .strings: ".strings"
            case .stringsdict: ".stringsdict"
            case .catalog: ".xcstrings"
            }
        }
    }

    /// What a file's name makes it.
    package enum File: Sendable, Hashable {
        /// A file of table `T` (`Localizable` of `Localizable.strings`).
        case table(String, Format)
        /// Any other file (`notes.txt`): not served.
        case other
        /// A name never read.
        case ignored(Ignored)
    }

    /// Why a name is never read: the temporary names editors, sync tools and the release store use.
    package enum Ignored: Sendable, Hashable {
        /// A hidden name, starting with `.`: rsync's `.Localizable.strings.Xa9f3Q`, vim's `.x.strings.swp`, emacs'
        /// lock `.#x.strings`, Kubernetes' `..data`, the release folders `..r-…`, `.git`.
        case hidden
        /// A backup, ending in `~`: `Localizable.strings~`, `de.lproj~`.
        case backup
        /// An editor's temporary file: vim's swap files (`x.strings.swp`, `.swo` … `.swa`) and the file it makes to
        /// test a folder (`4913`), emacs' auto-save files (`#x.strings#`).
        case temporary

        /// What such a name is, for people.
        package var description: String {
            switch self {
            case .hidden: "a hidden name"
            case .backup: "a backup (it ends in '~')"
            case .temporary: "an editor's temporary file"
            }
        }
    }

    /// Why a name that looks meant as a language folder, a table or a catalog is not served.
    package struct NotServed: Sendable, Hashable {
        /// Why, and what to do: `'.STRINGS' is not '.strings' …; rename it 'X.strings'`.
        package var reason: String
        /// Whether it is likely a mistake (a suffix in other case, a folder that is no language tag), rather than a
        /// temporary name that is meant not to be served.
        package var isMistake: Bool
        /// For a file, the format its name is meant as (`.strings` for `X.STRINGS`), so that it can be checked all
        /// the same when someone names it.
        package var meantFormat: Format?
    }

    /// What the folder `name` is.
    package static func folder(named name: String) -> Folder {
        if let ignored = ignored(name) { return .ignored(ignored) }
        guard name.hasSuffix(languageFolderSuffix) else { return .searched }
        let written = name.dropLast(languageFolderSuffix.count)
        return LanguageTag(written).map { .language($0) } ?? .notALanguage(String(written))
    }

    /// The language of the folder `name`, or nil when it is no language folder.
    package static func language(ofFolder name: String) -> LanguageTag? {
        if case .language(let language) = folder(named: name) { language } else { nil }
    }

    /// Whether the folder `name` (in the root or in a folder searched already) is searched for String Catalogs: any
    /// folder but a language folder (which holds its catalogs itself, and is one of the root's), a hidden one, a
    /// backup or an editor's temporary name. Only real folders are searched: a link to a folder is not followed.
    package static func isSearched(folder name: String) -> Bool {
        folder(named: name) == .searched
    }

    /// How many folders below the root are searched for String Catalogs at most, by default.
    package static let catalogSearchDepth = 16

    /// What the file `name` is.
    package static func file(named name: String) -> File {
        if let ignored = ignored(name) { return .ignored(ignored) }
        guard let format = format(ofFile: name) else { return .other }
        return .table(String(name.dropLast(format.suffix.count)), format)
    }

    /// The table of a language folder's file `name` (`Localizable` for `Localizable.strings` or
    /// `Localizable.stringsdict`), or nil when it is no `.strings` or `.stringsdict` file.
    package static func table(ofFile name: String) -> String? {
        guard case .table(let table, let format) = file(named: name), format != .catalog else { return nil }
        return table
    }

    /// The table of a String Catalog's file `name` (`Settings` for `Settings.xcstrings`), or nil.
    package static func catalogTable(ofFile name: String) -> String? {
        guard case .table(let table, .catalog) = file(named: name) else { return nil }
        return table
    }

    /// The format of the file `name`, or nil when the daemon does not serve such a name. Allocates nothing: the
    /// watcher asks it of every file it settles.
    package static func format(ofFile name: String) -> Format? {
        guard ignored(name) == nil else { return nil }
        return formats.first { name.utf8.count > $0.suffix.utf8.count && name.hasSuffix($0.suffix) }
    }

    /// Every format, made once (`allCases` makes an array at each call).
    private static let formats = Format.allCases

    /// The format to read the file `name` in when someone names it (`lint FILE`, `dump FILE`): its own, or the one
    /// its name is meant as (`X.STRINGSDICT`, `Localizable.strings~`); nil for other names.
    package static func readableFormat(ofFile name: String) -> Format? {
        format(ofFile: name) ?? notServed(file: name)?.meantFormat
    }

    /// Whether `table` can name a table: its files (`T.strings`, `T.stringsdict`, `T.xcstrings`) are names the
    /// daemon serves, in one folder (no `/`, no NUL).
    package static func isTableName(_ table: String) -> Bool {
        !table.contains("/") && !table.utf8.contains(0)
            && formats.allSatisfy { file(named: table + $0.suffix) == .table(table, $0) }
    }

    /// The name of `language`'s folder as `written` (`zh-Hans.lproj`), or nil when that name would not be a folder of
    /// that language (`../x`, `a/b`, an empty name).
    package static func languageFolder(written: String) -> String? {
        let name = written + languageFolderSuffix
        guard !written.contains("/"), let language = LanguageTag(written), self.language(ofFolder: name) == language
        else { return nil }
        return name
    }

    /// Why the folder `name` is not served when it looks meant as a language folder: a `.lproj` folder whose name is
    /// no language tag, a suffix in other case (`DE.LPROJ`), or a hidden, backup or temporary name of one
    /// (`.de.lproj`, `de.lproj~`); nil for a language folder and for names that look like none (`..data`, `.git`).
    package static func notServed(folder name: String) -> NotServed? {
        switch folder(named: name) {
        case .language:
            return nil
        case .notALanguage(let written):
            return NotServed(reason: "'\(written)' is not a language tag: the folder is not served; rename it",
                             isMistake: true)
        case .ignored(let ignored):
            guard meant(name, trimming: true, endsWith: languageFolderSuffix) != nil else { return nil }
            return NotServed(reason: "\(ignored.description): not served as a language folder", isMistake: false)
        case .searched:
            guard let suffix = meant(name, trimming: false, endsWith: languageFolderSuffix) else { return nil }
            return NotServed(
                reason: "'\(suffix)' is not '\(languageFolderSuffix)' (names are case-sensitive): not a language "
                    + "folder, its tables are not served; rename it "
                    + "'\(name.dropLast(suffix.count))\(languageFolderSuffix)'",
                isMistake: true)
        }
    }

    /// Why the file `name` is not served when it looks meant as a table or a catalog: a suffix in other case
    /// (`X.STRINGS`, `Foo.XCSTRINGS`), or a hidden, backup or temporary name of one (`Localizable.strings~`,
    /// `.#Localizable.strings`, `x.strings.swp`); nil for a table or catalog and for names that look like none.
    package static func notServed(file name: String) -> NotServed? {
        switch file(named: name) {
        case .table:
            return nil
        case .ignored(let ignored):
            for format in formats where meant(name, trimming: true, endsWith: format.suffix) != nil {
                let kind = format == .catalog ? "a String Catalog" : "a table"
                return NotServed(reason: "\(ignored.description): not served as \(kind)", isMistake: false,
                                 meantFormat: format)
            }
            return nil
        case .other:
            for format in formats {
                guard let suffix = meant(name, trimming: false, endsWith: format.suffix) else { continue }
                return NotServed(
                    reason: "'\(suffix)' is not '\(format.suffix)' (names are case-sensitive): not served; rename "
                        + "it '\(name.dropLast(suffix.count))\(format.suffix)'",
                    isMistake: true, meantFormat: format)
            }
            return nil
        }
    }

    /// The suffix `name` ends with that is `suffix` in any case, after a name (the decorations of hidden, backup and
    /// temporary names taken off first, when `trimming`), or nil.
    private static func meant(_ name: String, trimming: Bool, endsWith suffix: String) -> Substring? {
        var core = Substring(name)
        if trimming {
            core = core.drop { $0 == "." || $0 == "#" }
            while let last = core.last, last == "~" || last == "#" { core = core.dropLast() }
            if isVimSwapFile(core) { core = core.dropLast(4) }
        }
        guard core.count > suffix.count else { return nil }
        let end = core.suffix(suffix.count)
        return end.lowercased() == suffix ? end : nil
    }

    /// Why the name `name` is never read, or nil when it may be.
    package static func ignored(_ name: String) -> Ignored? {
        if name.hasPrefix(".") { return .hidden }
        if name.hasSuffix("~") { return .backup }
        let isAutoSave = name.utf8.count > 1 && name.hasPrefix("#") && name.hasSuffix("#")
        if isVimSwapFile(Substring(name)) || name == "4913" || isAutoSave { return .temporary }
        return nil
    }

    /// Vim's swap files: `.swp`, then `.swo`, `.swn` … down to `.swa` when the earlier ones exist.
    private static func isVimSwapFile(_ name: Substring) -> Bool {
        let end = name.utf8.suffix(4)
        guard name.utf8.count > 4, let last = end.last, (UInt8(ascii: "a")...UInt8(ascii: "p")).contains(last)
        else { return false }
        return end.dropLast().elementsEqual(".sw".utf8)
    }
}
