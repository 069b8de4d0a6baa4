import BundleChanges
import LinuxSystem
import StringsFormat

/// The root's language folders by language, as its last listing and its events since tell, and which of several
/// folders of one language is served (`BundleNames.clash`): a value, so that deciding costs nothing for a bundle
/// without clashes and each clash is reported once until it is resolved (see `WatchLoop+Clashes`).
struct LanguageFolderNames {
    private var namesByLanguage: [LanguageTag: Set<String>] = [:]
    /// Language folders not served because another folder of the root is the same language.
    private(set) var unserved: Set<String> = []
    /// The clash of each language last reported.
    private var reportedClashes: [LanguageTag: BundleNames.Clash] = [:]

    /// The root's folders of `language`.
    func names(of language: LanguageTag) -> Set<String> { namesByLanguage[language] ?? [] }

    /// Rebuilds the language folders from a listing of the root; a folder no longer listed is no longer unserved.
    mutating func rebuild(from entries: [FileSystem.DirectoryEntry]) {
        namesByLanguage = [:]
        for entry in entries where entry.isNameValidUTF8 {
            guard let language = BundleNames.language(ofFolder: entry.name) else { continue }
            namesByLanguage[language, default: []].insert(entry.name)
        }
        unserved.formIntersection(Set(entries.map(\.name)))
    }

    /// Notes a language folder of the root made, moved in, removed or moved out (`event`, of the root's watch);
    /// returns whether its language has, or had, other folders (then every folder is resolved again, to serve the
    /// one the rule picks now).
    mutating func note(_ event: InotifyEvent) -> Bool {
        guard let language = BundleNames.language(ofFolder: event.name) else { return false }
        if event.mask.contains(.create) || event.mask.contains(.movedTo) {
            namesByLanguage[language, default: []].insert(event.name)
        } else if event.mask.contains(.delete) || event.mask.contains(.movedFrom) {
            namesByLanguage[language]?.remove(event.name)
            unserved.remove(event.name)
        } else {
            return false
        }
        let others = namesByLanguage[language, default: []].subtracting([event.name])
        if namesByLanguage[language]?.isEmpty == true { namesByLanguage[language] = nil }
        return !others.isEmpty
    }

    /// Whether the folder `name` of `language` is served, as far as other folders of its language go: it is when no
    /// other folder of the language leads to a directory (`leadsToDirectory`, asked only when there are others: a
    /// stale link does not hide a folder), or when the rule picks it. `clashToReport` is the clash when it is not
    /// the one reported last for the language.
    mutating func decide(_ name: String, language: LanguageTag, leadsToDirectory: (String) -> Bool)
        -> (isServed: Bool, clashToReport: BundleNames.Clash?) {
        var names = namesByLanguage[language] ?? []
        names.insert(name)
        if names.count > 1 {
            names = names.filter { $0 == name || leadsToDirectory($0) }
        }
        guard names.count > 1 else {
            reportedClashes[language] = nil
            unserved.remove(name)
            return (true, nil)
        }
        let clash = BundleNames.clash(of: language, among: names)
        var clashToReport: BundleNames.Clash?
        if reportedClashes[language] != clash {
            reportedClashes[language] = clash
            clashToReport = clash
        }
        guard clash.served == name else {
            unserved.insert(name)
            return (false, clashToReport)
        }
        unserved.remove(name)
        return (true, clashToReport)
    }
}
