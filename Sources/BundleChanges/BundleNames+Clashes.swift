import StringsFormat

/// Language folders whose names are one language: `de.lproj` and `DE.lproj`, `de_DE.lproj` and `de-de.lproj`,
/// `German.lproj` and `de.lproj`. A language is served from one folder, so one of them is served and the others are
/// not, by one rule that the watcher serves by, `lint` reports by, `publish` refuses by and the editor writes by.
extension BundleNames {
    /// Folders of one bundle that are the same language.
    package struct Clash: Sendable, Hashable {
        /// The language they all are.
        package var language: LanguageTag
        /// The folder that is served: the one whose name is the canonical form (`de-DE.lproj`), else the first in
        /// byte order.
        package var served: String
        /// The other folders, in byte order: not served.
        package var unserved: [String]

        /// What is wrong and what to do, naming every folder.
        package var message: String {
            let all = ([served] + unserved).sorted(by: BundleNames.inByteOrder)
            let names = all.map { "'\($0)'" }
            let listed = names.count == 2 ? names.joined(separator: " and ")
                : names.dropLast().joined(separator: ", ") + " and " + names.last!
            let others = unserved.map { "'\($0)'" }.joined(separator: ", ")
            return "\(listed) are the same language (\(language.identifier)): only '\(served)' is served, "
                + "\(others) \(unserved.count == 1 ? "is" : "are") not; merge \(unserved.count == 1 ? "it" : "them") "
                + "into '\(served)' or remove \(unserved.count == 1 ? "it" : "them")"
        }
    }

    /// The clashes among the language folders named `folders` (names in one folder, `de.lproj`; names that are no
    /// language folder, hidden ones and repeats are ignored), in the order of their served folder's name.
    package static func clashes(among folders: some Sequence<String>) -> [Clash] {
        var byLanguage: [LanguageTag: Set<String>] = [:]
        for name in folders {
            guard let language = language(ofFolder: name) else { continue }
            byLanguage[language, default: []].insert(name)
        }
        return byLanguage.compactMap { language, names in
            names.count > 1 ? clash(of: language, among: names) : nil
        }.sorted { inByteOrder($0.served, $1.served) }
    }

    /// The clash of the folders `names` (more than one), all of `language`.
    package static func clash(of language: LanguageTag, among names: some Collection<String>) -> Clash {
        precondition(names.count > 1, "a clash takes two folders or more")
        let sorted = names.sorted(by: inByteOrder)
        let served = sorted.first { $0 == language.identifier + languageFolderSuffix } ?? sorted[0]
        return Clash(language: language, served: served, unserved: sorted.filter { $0 != served })
    }

    /// Byte order of the names' UTF-8 (`DE.lproj` before `de.lproj`), whatever the locale.
    static func inByteOrder(_ left: String, _ right: String) -> Bool {
        left.utf8.lexicographicallyPrecedes(right.utf8)
    }
}
