import StringsFormat

/// The directories the watcher has an inotify watch on and what each is to it: the root, a language folder (with its
/// language and the directory its path led to), a folder searched for String Catalogs, or the root's parent while the
/// root is gone; with the language folders whose removal was noted when their watch went.
///
/// A value, kept in step in one place: a watch names one directory, a language folder is indexed by its watch, its
/// name and its language at once, and forgetting a watch forgets what it was. The kernel gives a directory one watch
/// however it is reached, so a path watched again may get a watch another path holds (a link to the same folder):
/// the later one takes it over, and forgetting that watch forgets only the path that holds it now.
/// `WatchLoop` makes and removes the watches with inotify and tells the index; the index never calls the kernel.
struct FolderIndex {
    /// What a watch is on.
    enum Watched: Equatable {
        /// The bundle's root.
        case root
        /// A language folder of the root, by name (`de.lproj`).
        case folder(String)
        /// A folder searched for String Catalogs, by its path relative to the root (`Features/Chat`).
        case subfolder(String)
        /// The root's parent, watched while the root is gone, to see it come back.
        case parent
    }

    /// A watched language folder.
    struct LanguageFolder: Equatable {
        /// Its watch.
        var watch: Int32
        /// Its language, resolved once when it was found.
        var language: LanguageTag
        /// The directory its path led to when the watch was put on it (nil: not known): a link swapped in the root
        /// shows as a folder whose path now reaches another directory.
        var target: DirectoryIdentity?
    }

    /// What `watchSubfolder` made of a folder searched for catalogs.
    enum SubfolderWatch: Equatable {
        /// The folder is searched under this watch; `replacing` is the watch it had before on another directory,
        /// forgotten here and to be removed from inotify.
        case searched(replacing: Int32?)
        /// The directory is the root, a language folder or the root's parent, mounted again inside the bundle: it is
        /// served or searched already.
        case watchedAlready
    }

    private var watched: [Int32: Watched] = [:]
    /// The watched language folders, by name.
    private(set) var languageFolders: [String: LanguageFolder] = [:]
    private var foldersByLanguage: [LanguageTag: Set<String>] = [:]
    /// The folders searched for catalogs that have a watch, by path relative to the root.
    private(set) var subfolders: [String: Int32] = [:]
    /// Language folders no longer watched whose tables were noted as gone when their watch went.
    private var removalsNoted: Set<String> = []

    /// How many directories have a watch.
    var watchCount: Int { watched.count }

    /// Every watch.
    var watches: [Int32] { Array(watched.keys) }

    /// Whether the root has a watch.
    var isRootWatched: Bool { watched.values.contains(.root) }

    /// What `watch` is on; nil for a watch it does not know (one forgotten, whose last events still come).
    subscript(watch watch: Int32) -> Watched? { watched[watch] }

    /// The watched language folders of `language`.
    func folders(of language: LanguageTag) -> Set<String> { foldersByLanguage[language] ?? [] }

    /// Notes the root's watch.
    mutating func watchRoot(_ watch: Int32) {
        watched[watch] = .root
    }

    /// Notes a watch on the root's parent.
    mutating func watchParent(_ watch: Int32) {
        watched[watch] = .parent
    }

    /// Forgets the watches on the root's parent (the root is back); returns them, for inotify.
    mutating func forgetParentWatches() -> [Int32] {
        let parents = watched.filter { $0.value == .parent }.map(\.key)
        for watch in parents { watched[watch] = nil }
        return parents
    }

    /// Notes the language folder `folder` of `language` watched with `watch`, its path leading to `target`.
    ///
    /// A watch a searched folder had is taken over (a link to a folder searched for catalogs, `de.lproj ->
    /// Resources/de`): dropping that folder's search later must not remove it. A removal noted for `folder` is
    /// forgotten: it is watched again.
    mutating func watchFolder(_ folder: String, watch: Int32, language: LanguageTag, target: DirectoryIdentity?) {
        if case .subfolder(let path) = watched[watch] { subfolders[path] = nil }
        watched[watch] = .folder(folder)
        languageFolders[folder] = LanguageFolder(watch: watch, language: language, target: target)
        removalsNoted.remove(folder)
        foldersByLanguage[language, default: []].insert(folder)
    }

    /// Notes the folder searched for catalogs `folder` watched with `watch`, unless that directory is the root, a
    /// language folder or the parent already. A directory renamed from another path without the event being seen (a
    /// rescan after an overflow) is indexed under its new path.
    mutating func watchSubfolder(_ folder: String, watch: Int32) -> SubfolderWatch {
        switch watched[watch] {
        case .subfolder(let other) where other != folder:
            subfolders[other] = nil
        case .root, .folder, .parent:
            return .watchedAlready
        default:
            break
        }
        var replaced: Int32?
        if let old = subfolders[folder], old != watch {
            replaced = old
            forget(watch: old)
        }
        watched[watch] = .subfolder(folder)
        subfolders[folder] = watch
        return .searched(replacing: replaced)
    }

    /// Forgets `watch` and, when it is still the watch of the folder it was on, that folder.
    mutating func forget(watch: Int32) {
        switch watched[watch] {
        case .folder(let folder) where languageFolders[folder]?.watch == watch:
            if let language = languageFolders.removeValue(forKey: folder)?.language {
                foldersByLanguage[language]?.remove(folder)
                if foldersByLanguage[language]?.isEmpty == true { foldersByLanguage[language] = nil }
            }
        case .subfolder(let folder) where subfolders[folder] == watch:
            subfolders[folder] = nil
        default:
            break
        }
        watched[watch] = nil
    }

    /// Notes that the tables of `folder`, whose watch went, were noted as gone; false when that was noted already
    /// since it was last watched (an unlink's event after the swap that dropped it must not note them again).
    mutating func noteRemoval(of folder: String) -> Bool {
        removalsNoted.insert(folder).inserted
    }

    /// Forgets every removal noted (a full scan notes what is gone itself).
    mutating func forgetNotedRemovals() {
        removalsNoted = []
    }
}
