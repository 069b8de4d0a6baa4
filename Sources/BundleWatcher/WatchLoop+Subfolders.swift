import BundleChanges
import LinuxSystem
import StringsFormat

/// String Catalogs anywhere in the bundle: `Resources/Settings.xcstrings`, `Features/Chat/Localizable.xcstrings`.
///
/// Every real folder below the root that `BundleNames.isSearched(folder:)` admits (not a language folder, not
/// hidden) is searched, at any depth up to `SearchLimits.depth`, and has a watch of its own with the root's mask, so
/// a catalog saved, written in place, made or removed there is seen as in the root. A folder made or moved in is
/// watched first and listed after, as new language folders are: files written before its watch existed are found
/// by the listing, files written after by their events.
///
/// Symbolic links to folders are not followed (the watch is added with `IN_DONT_FOLLOW`, and listings skip links):
/// a link cannot make the search loop or leave the bundle. A catalog file that is itself a link is read like any
/// other, so the rule that links out of the bundle are not read stays the reader's.
extension WatchLoop {
    /// How far the search for catalogs goes.
    struct SearchLimits: Sendable {
        /// Folders at most this deep are searched (`Resources` is 1 deep, `Features/Chat` 2).
        var depth = 16
        /// At most this many folders are watched for catalogs (each takes one of the user's inotify watches).
        var folders = 1024
    }

    /// Handles an event of a folder searched for catalogs.
    func handleSubfolderEvent(_ event: InotifyEvent, in folder: String, at now: ContinuousClock.Instant) {
        guard event.isNameValidUTF8 else {
            if event.mask.contains(.create) || event.mask.contains(.movedTo) || event.mask.contains(.closeWrite) {
                reportInvalidName(folder + "/" + event.name)
            }
            return
        }
        if event.mask.contains(.deleteSelf) || event.mask.contains(.moveSelf) {
            // Its parent's event has usually dropped it already; this covers one it has not yet.
            if folders.subfolders[folder] == event.watch { removeSubfolder(folder, at: now) }
            return
        }
        if event.name.isEmpty {
            // Its own permissions changed: what it holds may be readable again (or no longer).
            if event.mask.contains(.attrib) { addSubfolder(folder, noting: .finished, at: now) }
            return
        }
        if let table = BundleNames.catalogTable(ofFile: event.name) {
            note(event, to: BundleLayout.catalog(named: event.name, ofTable: table, in: folder), at: now)
            return
        }
        noteOtherFile(event, path: folder + "/" + event.name, at: now)
        guard BundleNames.isSearched(folder: event.name) else { return }
        noteSearchedEntry(event, path: folder + "/" + event.name, at: now)
    }

    /// Notes what `event` says happened to the entry at `path` (relative to the root), whose name makes it a folder
    /// searched for catalogs if it is a real folder: made or moved in, it is searched; gone, its catalogs go.
    func noteSearchedEntry(_ event: InotifyEvent, path: String, at now: ContinuousClock.Instant) {
        // `IN_ISDIR` is set for folders only, not for links to them: links are not followed.
        guard event.mask.contains(.isDirectory) else { return }
        if event.mask.contains(.delete) || event.mask.contains(.movedFrom) {
            removeSubfolder(path, at: now)
        } else if event.mask.contains(.create) || event.mask.contains(.movedTo) || event.mask.contains(.attrib) {
            guard isRealDirectory(path) else { return }
            // A folder moved in is complete; one just made may still be being filled (`mkdir -p a/b && cp`), and a
            // catalog found in it may be half written: wait until it is quiet (or its CLOSE_WRITE comes).
            addSubfolder(path, noting: event.mask.contains(.create) ? .modified : .finished, at: now)
        }
    }

    /// Watches and searches `folder` and every folder below it, noting each catalog found as `found` and each
    /// catalog known there before but gone as removed (the catalogs of a folder that cannot be listed stay).
    func addSubfolder(_ folder: String, noting found: Settler<SettleKey>.Change, at now: ContinuousClock.Instant) {
        var visited: Set<String> = []
        var unlisted: Set<String> = []
        let present = searchFolder(folder, visited: &visited, unlisted: &unlisted)
        for file in present { settler.note(found, to: file.key, at: now) }
        let foundSet = Set(present)
        for file in known where file.isCatalog && Self.isFolder(file.folder, inside: folder)
            && !foundSet.contains(file) && !unlisted.contains(where: { Self.isFolder(file.folder, inside: $0) }) {
            settler.note(.removed, to: file.key, at: now)
        }
        // Watched folders below it that the search no longer reached (removed while it was unreadable).
        for (path, watch) in folders.subfolders where Self.isFolder(path, inside: folder) && !visited.contains(path)
            && !unlisted.contains(where: { Self.isFolder(path, inside: $0) }) {
            inotify.removeWatch(watch)
            folders.forget(watch: watch)
        }
        noteSearchedFolderCount()
    }

    /// Stops watching `folder` and every folder below it, and notes their catalogs as removed.
    func removeSubfolder(_ folder: String, at now: ContinuousClock.Instant) {
        for (path, watch) in folders.subfolders where Self.isFolder(path, inside: folder) {
            inotify.removeWatch(watch)
            folders.forget(watch: watch)
        }
        for file in known where file.isCatalog && Self.isFolder(file.folder, inside: folder) {
            settler.note(.removed, to: file.key, at: now)
        }
        tooDeepFolders = tooDeepFolders.filter { !Self.isFolder($0, inside: folder) }
        noteSearchedFolderCount()
    }

    /// Searches every folder of the root again (after a change of the root's permissions).
    func searchSubfoldersAgain(at now: ContinuousClock.Instant) {
        guard let entries = try? FileSystem.listDirectory(atPath: root) else { return }
        var present: Set<String> = []
        for entry in entries where entry.isNameValidUTF8 && entry.kind == .directory
            && BundleNames.isSearched(folder: entry.name) {
            present.insert(entry.name)
            addSubfolder(entry.name, noting: .finished, at: now)
        }
        let gone = Set(folders.subfolders.keys.map { String($0.prefix { $0 != "/" }) }).subtracting(present)
        for folder in gone.sorted() { removeSubfolder(folder, at: now) }
    }

    /// Watches `folder` and lists it and every folder below it (depth first, in name order): the catalogs found.
    ///
    /// Each folder reached is added to `visited`; one that cannot be listed (permissions) to `unlisted`, with a
    /// problem. A folder deeper than the limit is reported once and not searched; so is the first folder beyond the
    /// limit on watched folders.
    func searchFolder(_ folder: String, visited: inout Set<String>, unlisted: inout Set<String>) -> [TableFile] {
        let depth = folder.utf8.count { $0 == UInt8(ascii: "/") } + 1
        guard depth <= searchLimits.depth else {
            if tooDeepFolders.insert(folder).inserted {
                pendingProblems.append(FileProblem(
                    file: folder, message: "more than \(searchLimits.depth) folders below the root: not searched "
                        + "for String Catalogs (a catalog here is not served)"
                ))
            }
            return []
        }
        guard watchSubfolder(folder) else { return [] }
        visited.insert(folder)
        let entries: [FileSystem.DirectoryEntry]
        do {
            entries = try FileSystem.listDirectory(atPath: root + "/" + folder)
        } catch {
            if error.errno == .noSuchFileOrDirectory || error.errno == .notDirectory { return [] }
            unlisted.insert(folder)
            pendingProblems.append(FileProblem(
                file: folder, message: "cannot list the folder: \(error.errno); its catalogs stay as they were"
            ))
            return []
        }
        var found: [TableFile] = []
        for entry in entries {
            guard entry.isNameValidUTF8 else {
                reportInvalidName(folder + "/" + entry.name)
                continue
            }
            if let table = BundleNames.catalogTable(ofFile: entry.name) {
                found.append(BundleLayout.catalog(named: entry.name, ofTable: table, in: folder))
            } else if entry.kind == .directory, BundleNames.isSearched(folder: entry.name) {
                found += searchFolder(folder + "/" + entry.name, visited: &visited, unlisted: &unlisted)
            }
        }
        return found
    }

    /// Puts a watch on `folder` (kept if it has one on the same directory); false when it must not be searched:
    /// the limit on watched folders is reached, or the directory is the root or a language folder (a bind mount).
    ///
    /// A folder that cannot be watched is still searched (its catalogs are served, their changes not seen); the
    /// problem says so.
    private func watchSubfolder(_ folder: String) -> Bool {
        if folders.subfolders[folder] == nil, folders.subfolders.count >= searchLimits.folders {
            if !isSearchLimitReported {
                isSearchLimitReported = true
                pendingProblems.append(FileProblem(
                    file: folder, message: "more than \(searchLimits.folders) folders below the root to search "
                        + "for String Catalogs: this one and those found after it are not searched"
                ))
            }
            return false
        }
        let watch: Int32
        do {
            // The kernel gives the watch the directory already has, if any: the same number means the same
            // directory, another number that the path now leads to another one.
            watch = try inotify.addWatch(root + "/" + folder, mask: Self.rootMask.union(.dontFollow))
        } catch {
            pendingProblems.append(watchProblem(error, path: folder))
            return true
        }
        switch folders.watchSubfolder(folder, watch: watch) {
        case .searched(let replaced):
            // A directory that was at this path before (the old one's watch is forgotten already).
            if let replaced { inotify.removeWatch(replaced) }
            return true
        case .watchedAlready:
            // The root or a language folder mounted again inside the bundle: searched, or served, already.
            return false
        }
    }

    /// Lets the limit on watched folders be reported again once fewer folders are watched.
    func noteSearchedFolderCount() {
        if folders.subfolders.count < searchLimits.folders { isSearchLimitReported = false }
    }

    /// Whether `path` (relative to the root) is a folder itself, not a link to one.
    func isRealDirectory(_ path: String) -> Bool {
        (try? FileSystem.status(atPath: root + "/" + path, followingSymlinks: false))?.kind == .directory
    }

    /// Whether the folder `path` is `folder` or below it.
    static func isFolder(_ path: String, inside folder: String) -> Bool {
        path == folder || (path.hasPrefix(folder) && path.utf8.dropFirst(folder.utf8.count).first == UInt8(ascii: "/"))
    }
}
