import BundleChanges
import StringsFormat

/// Language folders of the root that are one language (`de.lproj` and `DE.lproj`): one is served, by the rule of
/// `BundleNames`, and the clash is reported once (an `error`, and so in `status`) until it is resolved. The
/// others are not watched, and their tables are removed: a key only they hold would otherwise be unreachable without
/// a word, or served from whichever folder was read last.
///
/// The language folders of the root are kept by language (`LanguageFolderNames`), rebuilt by every listing of the
/// root and updated by its events, so deciding costs nothing for a bundle without clashes.
extension WatchLoop {
    /// Whether the folder `name` of `language` is served, as far as other folders of its language go: it is when no
    /// other folder leading to a directory is that language, or when the rule picks it. A clash is reported once.
    func isServedAmongItsLanguage(_ name: String, language: LanguageTag) -> Bool {
        let decision = languageFolderNames.decide(name, language: language) { resolveFolder($0) != nil }
        if let clash = decision.clashToReport {
            pendingProblems.append(FileProblem(file: clash.unserved[0], message: clash.message))
        }
        return decision.isServed
    }
}
