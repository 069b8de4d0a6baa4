import BundleChanges
import LinuxSystem
import StringsFormat

/// Language folders of the root that are one language (`de.lproj` and `DE.lproj`): one is served, by the rule of
/// `BundleNames`, and the clash is reported once (an `error`, and so in `status`) until it is resolved. The
/// others are not watched, and their tables are removed: a key only they hold would otherwise be unreachable without
/// a word, or served from whichever folder was read last.
///
/// The language folders of the root are kept by language (`languageFolderNames`), rebuilt by every listing of the
/// root and updated by its events, so deciding costs nothing for a bundle without clashes.
extension WatchLoop {
    /// Rebuilds the language folders of the root from a listing of it.
    func noteLanguageFolders(among entries: [FileSystem.DirectoryEntry]) {
        languageFolderNames = [:]
        for entry in entries where entry.isNameValidUTF8 {
            guard let language = BundleNames.language(ofFolder: entry.name) else { continue }
            languageFolderNames[language, default: []].insert(entry.name)
        }
        clashLosers.formIntersection(Set(entries.map(\.name)))
    }

    /// Notes a language folder of the root made, moved in, removed or moved out; returns whether its language has, or
    /// had, other folders (then every folder is resolved again, to serve the one the rule picks now).
    func noteLanguageFolderEntry(_ event: InotifyEvent) -> Bool {
        guard let language = BundleNames.language(ofFolder: event.name) else { return false }
        if event.mask.contains(.create) || event.mask.contains(.movedTo) {
            languageFolderNames[language, default: []].insert(event.name)
        } else if event.mask.contains(.delete) || event.mask.contains(.movedFrom) {
            languageFolderNames[language]?.remove(event.name)
            clashLosers.remove(event.name)
        } else {
            return false
        }
        let others = languageFolderNames[language, default: []].subtracting([event.name])
        if languageFolderNames[language]?.isEmpty == true { languageFolderNames[language] = nil }
        return !others.isEmpty
    }

    /// Whether the folder `name` of `language` is served, as far as other folders of its language go: it is when no
    /// other folder leading to a directory is that language, or when the rule picks it. A clash is reported once.
    func isServedAmongItsLanguage(_ name: String, language: LanguageTag) -> Bool {
        var names = languageFolderNames[language] ?? []
        names.insert(name)
        if names.count > 1 {
            // Only folders that lead to a directory take part: a stale link does not hide a folder.
            names = names.filter { $0 == name || resolveFolder($0) != nil }
        }
        guard names.count > 1 else {
            reportedClashes[language] = nil
            clashLosers.remove(name)
            return true
        }
        let clash = BundleNames.clash(of: language, among: names)
        if reportedClashes[language] != clash {
            reportedClashes[language] = clash
            pendingProblems.append(FileProblem(file: clash.unserved[0], message: clash.message))
        }
        guard clash.served == name else {
            clashLosers.insert(name)
            return false
        }
        clashLosers.remove(name)
        return true
    }
}
