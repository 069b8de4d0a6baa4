import BundleChanges
import HotStringsProtocol
import LinuxSystem
import StringsFormat

extension BundleEditor {
    /// The file an edit is made in.
    struct Place: Sendable, Hashable {
        enum Kind: Sendable, Hashable { case strings, stringsdict, catalog }

        var kind: Kind
        /// The folder holding the file, relative to the root (empty for the root).
        var folder: String
        /// The file, relative to the root.
        var file: String
        /// For a catalog: the language as the catalog spells it (a new localization: as `languages` lists it).
        var language: String
        /// Whether the folder is a new language's, made only once the edit is judged acceptable.
        var isNewFolder = false

        init(_ kind: Kind, folder: String, name: String, language: String = "") {
            self.kind = kind
            self.folder = folder
            file = folder.isEmpty ? name : folder + "/" + name
            self.language = language
        }
    }

    /// Where `edit` goes: where the key is served from for its language. The language folder's `T.strings` (or
    /// `T.stringsdict` for a plural form) wins over a catalog; a key only in a catalog `T.xcstrings` is edited there;
    /// a new key goes into the folder's `T.strings`, unless the table is served only by catalogs.
    func place(of edit: Edit) throws(Failure) -> Place {
        guard let language = LanguageTag(edit.language) else {
            throw try unknownLanguage(edit.language)
        }
        let folder = try servedFolder(of: language)
        let table = edit.table
        if edit.device != nil { return try devicePlace(of: edit, language: language, folder: folder) }
        if case .form = edit.change {
            let inFolder = folder.map { rules($0 + "/" + table + ".stringsdict")?[edit.key] != nil } ?? false
            if !inFolder, let place = catalogPlace(of: edit, language: language) { return place }
            guard let folder, exists(folder + "/" + table + ".stringsdict") else {
                throw Failure(.noSuchKey, "'\(DisplayText.escaped(edit.key))' has no plural forms in "
                              + "\(display((folder ?? language.identifier + ".lproj") + "/" + table + ".stringsdict"))")
            }
            return Place(.stringsdict, folder: folder, name: table + ".stringsdict")
        }
        if let folder {
            // A key with a rule is served as the rule, whatever `T.strings` holds for it (`TableContent`), so the
            // `.stringsdict` is looked at first: a plain value written to `T.strings` would change nothing shown.
            // Removing such a key removes the rule; a second removal takes the `.strings` value it then serves.
            if let rules = rules(folder + "/" + table + ".stringsdict"), rules[edit.key] != nil {
                if case .removal = edit.change {
                    return Place(.stringsdict, folder: folder, name: table + ".stringsdict")
                }
                throw Failure(.invalidInput, "'\(DisplayText.escaped(edit.key))' is a plural entry of "
                              + "\(display(folder + "/" + table + ".stringsdict")); set one form with --form")
            }
            // By the key's exact characters, as the table and the editors find it (not Swift's canonical ==).
            if strings(folder + "/" + table + ".strings")?[edit.key] != nil {
                return Place(.strings, folder: folder, name: table + ".strings")
            }
        }
        let catalogs = catalogFiles(ofTable: table)
        var servingCatalog: (path: String, language: String)?
        for path in catalogs {
            guard let catalog = catalog(path),
                  let entry = catalog.entries.first(where: { $0.key.utf8.elementsEqual(edit.key.utf8) })
            else { continue }
            let spelled = entry.localizations.keys.first { LanguageTag($0) == language }
            if case .removal = edit.change, spelled == nil { continue }
            servingCatalog = (path, spelled ?? language.identifier)
            break
        }
        if let (path, spelled) = servingCatalog {
            return Place(.catalog, folder: parent(path), name: lastComponent(path), language: spelled)
        }
        if case .removal = edit.change {
            throw Failure(.noSuchKey, "no entry '\(DisplayText.escaped(edit.key))' in table "
                          + "'\(DisplayText.escaped(table))' of '\(language.identifier)'")
        }
        if let first = catalogs.first, !tableHasFolderFiles(table) {
            let spelled = catalog(first).flatMap { catalog in
                catalog.entries.lazy.flatMap(\.localizations.keys).first { LanguageTag($0) == language }
            }
            return Place(.catalog, folder: parent(first), name: lastComponent(first),
                         language: spelled ?? language.identifier)
        }
        if let folder { return Place(.strings, folder: folder, name: table + ".strings") }
        // A language served by a catalog only, or a new one: its folder is made (by `apply`, once the edit is judged).
        guard edit.createsLanguage || catalogLanguages().contains(language) else {
            throw try unknownLanguage(edit.language)
        }
        guard let created = BundleNames.languageFolder(written: language.identifier) else {
            throw Failure(.invalidInput, "'\(DisplayText.escaped(language.identifier))' names no language folder")
        }
        var place = Place(.strings, folder: created, name: table + ".strings")
        place.isNewFolder = true
        return place
    }

    /// Where a device's text (or form) goes: the language folder's `.stringsdict` entry when it serves the key (its
    /// `NSStringDeviceSpecificRuleType` devices), else a catalog's device variations; a key the folder's `.strings`
    /// serves has no devices.
    private func devicePlace(of edit: Edit, language: LanguageTag, folder: String?) throws(Failure) -> Place {
        let shown = DisplayText.escaped(edit.key)
        if let folder {
            if rules(folder + "/" + edit.table + ".stringsdict")?[edit.key] != nil {
                return Place(.stringsdict, folder: folder, name: edit.table + ".stringsdict")
            }
            let plain = folder + "/" + edit.table + ".strings"
            if strings(plain)?[edit.key] != nil {
                throw Failure(.invalidInput, "'\(shown)' is served from \(display(plain)), which has no device texts "
                              + "(a .stringsdict's NSStringDeviceSpecificRuleType or a String Catalog's has)")
            }
        }
        guard let place = catalogPlace(of: edit, language: language) else {
            throw Failure(.noSuchKey, "'\(shown)' has no localization in '\(language.identifier)' in a catalog of "
                          + "table '\(DisplayText.escaped(edit.table))'")
        }
        return place
    }

    /// The error for a language the bundle does not serve, listing those it serves.
    private func unknownLanguage(_ language: String) throws(Failure) -> Failure {
        var served = Set(try languageFolders().keys)
        served.formUnion(catalogLanguages())
        return Failure(.unknownLanguage, "the bundle has no language '\(DisplayText.escaped(language))' (give "
                       + "--create-language to add it)", available: served.map(\.identifier).sorted())
    }

    /// The folder `language` is served from (of several folders of one language, the one `BundleNames.clash`
    /// serves).
    func servedFolder(of language: LanguageTag) throws(Failure) -> String? {
        guard let names = try languageFolders()[language] else { return nil }
        return names.count == 1 ? names[0] : BundleNames.clash(of: language, among: names).served
    }

    /// The language folders of the root by language.
    private func languageFolders() throws(Failure) -> [LanguageTag: [String]] {
        let entries: [FileSystem.DirectoryEntry]
        do {
            entries = try FileSystem.listDirectory(atPath: root)
        } catch {
            throw Failure(.cannotWrite, "cannot list the bundle: \(error)")
        }
        var folders: [LanguageTag: [String]] = [:]
        for entry in entries where entry.isNameValidUTF8 && entry.kind != .file {
            guard let tag = BundleNames.language(ofFolder: entry.name), isDirectory(entry.name) else { continue }
            folders[tag, default: []].append(entry.name)
        }
        return folders
    }

    /// Every String Catalog the watcher serves: in the root, in the language folders served (one of each
    /// language), and in the folders `BundleNames.isSearched` admits (real folders, not links), relative to the
    /// root, in byte order.
    func catalogFiles() -> [String] {
        var found: [String] = []
        let servedFolders = Set(((try? languageFolders()) ?? [:]).map { language, names in
            names.count == 1 ? names[0] : BundleNames.clash(of: language, among: names).served
        })
        func search(_ folder: String, depth: Int) {
            guard let entries = try? FileSystem.listDirectory(atPath: path(of: folder)) else { return }
            for entry in entries where entry.isNameValidUTF8 {
                let relative = folder.isEmpty ? entry.name : folder + "/" + entry.name
                if entry.kind == .file, BundleNames.catalogTable(ofFile: entry.name) != nil {
                    found.append(relative)
                } else if entry.kind == .directory, depth < BundleNames.catalogSearchDepth,
                          BundleNames.isSearched(folder: entry.name) {
                    search(relative, depth: depth + 1)
                } else if folder.isEmpty, servedFolders.contains(entry.name) {
                    search(relative, depth: BundleNames.catalogSearchDepth)
                }
            }
        }
        search("", depth: 0)
        return found.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// The String Catalogs of `table` the watcher serves (`catalogFiles()`).
    func catalogFiles(ofTable table: String) -> [String] {
        catalogFiles().filter { BundleNames.catalogTable(ofFile: lastComponent($0)) == table }
    }

    /// The languages the catalogs serve: each one's source language and the languages of its localizations.
    private func catalogLanguages() -> Set<LanguageTag> {
        var languages: Set<LanguageTag> = []
        for path in catalogFiles() {
            guard let catalog = catalog(path) else { continue }
            if let source = LanguageTag(catalog.sourceLanguage) { languages.insert(source) }
            for entry in catalog.entries {
                for name in entry.localizations.keys { if let tag = LanguageTag(name) { languages.insert(tag) } }
            }
        }
        return languages
    }

    /// Whether any language folder has a `.strings` or `.stringsdict` file of `table`.
    private func tableHasFolderFiles(_ table: String) -> Bool {
        guard let folders = try? languageFolders() else { return false }
        return folders.values.joined().contains { folder in
            exists(folder + "/" + table + ".strings") || exists(folder + "/" + table + ".stringsdict")
        }
    }

    // MARK: - Reading

    func exists(_ relative: String) -> Bool {
        (try? FileSystem.status(atPath: path(of: relative)))?.kind == .file
    }

    private func isDirectory(_ relative: String) -> Bool {
        (try? FileSystem.status(atPath: path(of: relative)))?.kind == .directory
    }

    private func bytes(_ relative: String) -> [UInt8]? {
        try? FileSystem.readFile(atPath: path(of: relative), maximumSize: maximumFileSize)
    }

    /// The `.strings` file's table, nil when it is missing or does not parse.
    func strings(_ relative: String) -> StringsTable? {
        bytes(relative).flatMap { try? StringsFile.parse($0) }
    }

    /// The `.stringsdict` file's entries, nil when it is missing or does not parse.
    func rules(_ relative: String) -> StringsdictTable? {
        bytes(relative).flatMap { try? StringsdictFile.parse($0) }
    }

    /// The catalog of `edit.table` that has a localization of `edit.key` in `language`, if one does.
    private func catalogPlace(of edit: Edit, language: LanguageTag) -> Place? {
        for path in catalogFiles(ofTable: edit.table) {
            guard let catalog = catalog(path),
                  let entry = catalog.entries.first(where: { $0.key.utf8.elementsEqual(edit.key.utf8) }),
                  let spelled = entry.localizations.keys.first(where: { LanguageTag($0) == language })
            else { continue }
            return Place(.catalog, folder: parent(path), name: lastComponent(path), language: spelled)
        }
        return nil
    }

    /// The catalog, nil when it is missing or does not parse.
    func catalog(_ relative: String) -> StringCatalog? {
        bytes(relative).flatMap { try? StringCatalog.parse($0) }
    }

    func lastComponent(_ path: String) -> String {
        path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
    }

    private func parent(_ path: String) -> String {
        path.lastIndex(of: "/").map { String(path[..<$0]) } ?? ""
    }
}
