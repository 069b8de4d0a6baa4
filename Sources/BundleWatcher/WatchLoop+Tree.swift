import BundleChanges
import LinuxSystem
import StringsFormat

/// The tree: the first scan and rescans, folders found, watched, rescanned and forgotten, and the files each holds.
extension WatchLoop {
    /// Watches the root and every language folder, reads every table, and reports them all.
    func scan(cause: ResyncReason?) -> ChangeBatch {
        var batch = ChangeBatch(isFullScan: true, resync: cause, problems: pendingProblems)
        settler.reset()
        folders.forgetNotedRemovals()
        pendingProblems = []
        if !folders.isRootWatched {
            do {
                let watch = try inotify.addWatch(root, mask: Self.rootMask)
                folders.watchRoot(watch)
                rootIsPresent = true
            } catch {
                // No full scan, which would delete every table: the last good tables stay served.
                let isGone = error.errno == .noSuchFileOrDirectory || error.errno == .notDirectory
                var failed = ChangeBatch(problems: batch.problems)
                if !isGone { failed.problems.append(watchProblem(error, path: ".")) }
                if rootIsPresent {
                    rootLost()
                } else {
                    // The root came back and went again before it could be watched: still gone, still awaited.
                    failed.resync = .rootRemoved
                    watchParent(lookingForTheRoot: isGone)
                }
                return failed
            }
        }
        var files: [TableFile] = []
        var unlistedFolders: Set<String> = []
        var searched: Set<String> = []
        let entries = (try? FileSystem.listDirectory(atPath: root)) ?? []
        languageFolderNames.rebuild(from: entries)
        var present: Set<String> = []
        for entry in entries {
            guard entry.isNameValidUTF8 else {
                reportInvalidName(entry.name)
                continue
            }
            if let table = BundleNames.catalogTable(ofFile: entry.name) {
                files.append(BundleLayout.catalog(named: entry.name, ofTable: table, in: ""))
                continue
            }
            if entry.kind == .directory, BundleNames.isSearched(folder: entry.name) {
                files += searchFolder(entry.name, visited: &searched, unlisted: &unlistedFolders)
                continue
            }
            let resolved = resolveFolder(entry.name)
            guard let language = servedLanguage(ofFolder: entry.name, resolved: resolved) else { continue }
            present.insert(entry.name)
            if let watched = folders.languageFolders[entry.name], watched.target != resolved?.identity {
                // Its path leads to another directory since it was watched (a link swapped meanwhile).
                inotify.removeWatch(watched.watch)
                folders.forget(watch: watched.watch)
            }
            if folders.languageFolders[entry.name] == nil,
               let problem = watchFolder(entry.name, language: language, target: resolved?.identity) {
                batch.problems.append(problem)
            }
            if let found = tables(inFolder: entry.name, language: language) {
                files += found
            } else {
                unlistedFolders.insert(entry.name)
            }
        }
        for (folder, watched) in folders.languageFolders where !present.contains(folder) {
            inotify.removeWatch(watched.watch)
            folders.forget(watch: watched.watch)
        }
        for (folder, watch) in folders.subfolders where !searched.contains(folder) {
            inotify.removeWatch(watch)
            folders.forget(watch: watch)
        }
        noteSearchedFolderCount()
        let contents = reader.read(files)
        let previouslyKnown = known
        known = KnownFiles()
        for (file, read) in zip(files, contents) {
            record(read, of: file, in: &batch, at: .now, isFullScan: true)
        }
        // A folder that cannot be listed now (permissions) keeps its tables, and those of the folders below it; its
        // attribute change brings a rescan.
        for file in previouslyKnown.sorted()
            where unlistedFolders.contains(where: { Self.isFolder(file.folder, inside: $0) }) {
            keepLastGood(file, in: &batch, because: "its folder cannot be listed")
        }
        batch.problems += pendingProblems
        pendingProblems = []
        return batch
    }

    func addFolder(_ folder: String, noting found: Settler<SettleKey>.Change, at now: ContinuousClock.Instant) {
        let resolved = resolveFolder(folder)
        guard let language = servedLanguage(ofFolder: folder, resolved: resolved) else { return }
        if folders.languageFolders[folder] == nil,
           let problem = watchFolder(folder, language: language, target: resolved?.identity) {
            pendingProblems.append(problem)
            return
        }
        // Files written before the watch existed produce no events: find them now.
        rescanFolder(folder, language: language, noting: found, at: now)
    }

    /// Notes every table in `folder` as `found`, and every table known there but gone as removed.
    func rescanFolder(
        _ folder: String, language: LanguageTag, noting found: Settler<SettleKey>.Change,
        at now: ContinuousClock.Instant
    ) {
        guard let present = tables(inFolder: folder, language: language) else { return }
        for file in present { settler.note(found, to: file.key, at: now) }
        let foundSet = Set(present)
        for file in known.files(inFolder: folder) where !foundSet.contains(file) {
            settler.note(.removed, to: file.key, at: now)
        }
    }

    /// Finds the folders of the root again and notes every table in each (after a change of permissions).
    func rescanAllFolders(at now: ContinuousClock.Instant) {
        isRescannedForRead = true
        reresolveFolders(at: now)
        for (folder, watched) in folders.languageFolders {
            rescanFolder(folder, language: watched.language, noting: .finished, at: now)
        }
    }

    /// Notes every catalog in the root as `found`, and every one known there but gone as removed (after a change
    /// of the root's permissions, or a link swapped in it: `Settings.xcstrings -> ..data/Settings.xcstrings`).
    func rescanRootCatalogs(noting found: Settler<SettleKey>.Change, at now: ContinuousClock.Instant) {
        guard let entries = try? FileSystem.listDirectory(atPath: root) else { return }
        var present: Set<String> = []
        for entry in entries where entry.isNameValidUTF8 {
            guard let table = BundleNames.catalogTable(ofFile: entry.name) else { continue }
            present.insert(entry.name)
            settler.note(found, to: BundleLayout.catalog(named: entry.name, ofTable: table, in: "").key, at: now)
        }
        for file in known.files(inFolder: "") where file.isCatalog && !present.contains(file.name) {
            settler.note(.removed, to: file.key, at: now)
        }
    }

    /// Stops watching `folder` and notes its known tables as `change`: `.removed` (due once they have stayed gone
    /// for the settle time) when the folder itself went away, `.finished` (read in the current batch) when a swap
    /// made its path lead nowhere.
    ///
    /// Once per dropped watch: the over-the-air install unlinks a dropped language right after the swap, and that
    /// unlink's event, often handled while the swap's batch is being read, must not note the tables again (a
    /// note during the read discards what it read, and the removal would settle into a second reload).
    func removeFolder(
        _ folder: String, noting change: Settler<SettleKey>.Change = .removed, at now: ContinuousClock.Instant
    ) {
        nonLanguageFolders.remove(folder)
        if let watch = folders.languageFolders[folder]?.watch {
            inotify.removeWatch(watch)
            folders.forget(watch: watch)
            _ = folders.noteRemoval(of: folder)
        } else if !folders.noteRemoval(of: folder) {
            return
        }
        for file in known.files(inFolder: folder) {
            settler.note(change, to: file.key, at: now)
        }
    }

    /// Watches the language folder `folder`, whose path led to `target` (looked at before the watch is added: if a
    /// swap comes in between, the next look finds a mismatch and watches again, where looking after could miss that
    /// the watch is on the old directory).
    func watchFolder(_ folder: String, language: LanguageTag, target: DirectoryIdentity?) -> FileProblem? {
        do {
            let watch = try inotify.addWatch(root + "/" + folder, mask: Self.folderMask)
            folders.watchFolder(folder, watch: watch, language: language, target: target)
            return nil
        } catch {
            return watchProblem(error, path: folder)
        }
    }

    /// The tables in `folder`; nil, with a problem reported, when it cannot be listed (its tables then stay as they
    /// were: a folder made unreadable for a moment must not delete them).
    func tables(inFolder folder: String, language: LanguageTag) -> [TableFile]? {
        let entries: [FileSystem.DirectoryEntry]
        do {
            entries = try FileSystem.listDirectory(atPath: root + "/" + folder)
        } catch {
            if error.errno == .noSuchFileOrDirectory || error.errno == .notDirectory { return [] }
            pendingProblems.append(FileProblem(
                file: folder, message: "cannot list the folder: \(error.errno); its tables stay as they were"
            ))
            return nil
        }
        return entries.compactMap { entry in
            guard entry.isNameValidUTF8 else {
                reportInvalidName(folder + "/" + entry.name)
                return nil
            }
            return BundleLayout.file(named: entry.name, in: folder, language: language)
        }.sorted()
    }

    func isDirectory(_ name: String) -> Bool {
        (try? FileSystem.status(atPath: root + "/" + name))?.kind == .directory
    }

    /// Reports a table file or language folder whose name is not UTF-8: no language tag or table name can be made
    /// of it, so it is not served, but never silently (other such names, not tables, are left alone).
    func reportInvalidName(_ shown: String) {
        let name = String(shown.split(separator: "/").last ?? "")
        guard BundleNames.format(ofFile: name) != nil || BundleNames.folder(named: name).isLanguageFolderName else {
            return
        }
        pendingProblems.append(FileProblem(
            file: shown, message: "the name is not valid UTF-8 (its other bytes shown as \\xNN); not served: rename it"
        ))
    }

    func watchProblem(_ error: SystemError, path: String) -> FileProblem {
        let advice = error.errno == .noSpace
            ? "out of inotify watches: raise fs.inotify.max_user_watches; changes here are not seen" : "\(error.errno)"
        return FileProblem(file: path, message: "cannot watch: \(advice)")
    }
}

/// What the watcher is doing, for `status`.
package struct WatcherStatus: Sendable, Hashable {
    /// The bundle root being watched.
    package var root: String
    /// Whether the root exists (when not, the last good tables are still served).
    package var isRootPresent: Bool
    /// How many directories have an inotify watch.
    package var watchedDirectories: Int
    /// How many table files exist, parsed or not.
    package var files: Int
    /// How many paths are waiting to settle.
    package var pendingPaths: Int
}
