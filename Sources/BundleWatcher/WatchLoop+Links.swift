import BundleChanges
import LinuxSystem
import StringsFormat

/// A directory as the kernel knows it: the same device and inode is the same directory, whatever path reached it.
struct DirectoryIdentity: Hashable {
    var device: UInt64
    var inode: UInt64
}

/// Where a language folder's path leads: the directory, and its real path (for the check that it is in the bundle).
struct ResolvedFolder: Hashable {
    var identity: DirectoryIdentity
    var path: String
}

/// Links in the bundle's root: a release swapped by renaming a link (`..data -> rel2`) while the old release stays
/// on disk changes no watched directory, so the watcher looks again at where every folder's path leads.
///
/// inotify watches a directory, not a path: `en.lproj -> ..data/en.lproj` is watched where it led when the watch
/// was added, and swapping `..data` leaves that watch on the old release. So whenever a link of the root is put in
/// place, every language folder is resolved again; one that now reaches another directory is watched there and
/// all its tables are read, in one batch for the whole swap (files that did not change make no event).
///
/// The work stays linear in the number of folders: a link made for one language resolves that folder alone, the
/// folders are all resolved again at most once per read of events (a read's events all happened before the look
/// at the disk), and each look at a folder is one `open(O_PATH)` (see `resolveFolder`).
extension WatchLoop {
    /// A change of a root entry that names no language folder: a link (`..data`), a release folder, a temporary.
    func noteRootEntryChange(_ event: InotifyEvent, at now: ContinuousClock.Instant) {
        let isPutInPlace = event.mask.contains(.movedTo) || event.mask.contains(.create)
        if event.mask.contains(.movedTo) || (isPutInPlace && isSymlink(event.name)) {
            // A link made or renamed into place, or a folder moved in whole: resolve again now, so that a release
            // swap is read in the same batch window as any other finished write.
            reresolveFolders(at: now)
        } else if isPutInPlace || event.mask.contains(.delete) || event.mask.contains(.movedFrom) {
            // A folder being made (perhaps the missing target of a link, still being filled) or an entry removed
            // (perhaps a link about to be made again): look again once the root has been quiet for a while.
            relinkDue = now + settler.configuration.settleTime
        }
    }

    /// Resolves every language folder of the root again: re-watches and re-reads the ones that lead to another
    /// directory now, drops the ones that lead nowhere (the new release lacks the language; their removal is in
    /// the same batch as the rest of the swap), and keeps the ones reached through a link whose target does not
    /// exist (reported once, naming the link).
    func reresolveFolders(at now: ContinuousClock.Instant) {
        guard !isResolvedForRead else { return }
        isResolvedForRead = true
        let entries = (try? FileSystem.listDirectory(atPath: root)) ?? []
        languageFolderNames.rebuild(from: entries)
        let broken = brokenLinks(among: entries)
        for (link, target) in broken.reported.sorted(by: { $0.key < $1.key }) where brokenLinks[link] != target {
            reportBrokenLink(link, target)
        }
        brokenLinks = broken.reported
        rescanRootCatalogs(noting: .finished, at: now)
        var brokenAfterwards: Set<String>?
        for entry in entries where BundleNames.folder(named: entry.name).isLanguageFolderName {
            let resolved = resolveFolder(entry.name)
            var isBroken = broken.all.contains(entry.name)
            if resolved == nil, !isBroken {
                // Leading nowhere, through no broken link when the links were looked at: the swap may have come
                // between the two looks (`..data` renamed to a release not there yet while this read's first event,
                // the new link's, was handled). Its links are looked at again, once, after the folder: a folder
                // whose release lacks it is dropped, one behind a broken link keeps its tables.
                brokenAfterwards = brokenAfterwards ?? brokenLinks(among: entries).all
                isBroken = brokenAfterwards?.contains(entry.name) == true
            }
            relink(entry.name, resolved: resolved, isBroken: isBroken, at: now)
        }
        // A watched folder whose entry is gone altogether: the install unlinks a dropped language right after the
        // swap, and by the time the swap's events are handled the link may be gone already.
        let listed = Set(entries.map(\.name))
        for folder in folders.languageFolders.keys.sorted() where !listed.contains(folder) {
            removeFolder(folder, noting: .finished, at: now)
        }
    }

    /// Resolves the language folder `name` again after its link was made or swapped: re-watched and re-read when it
    /// leads to another directory now. A new link that leads nowhere because its first step is missing is reported
    /// once; a watched folder that now leads nowhere is left to a look at every folder (its link may be broken, its
    /// tables then kept, or lead through a broken link).
    func relinkFolder(_ name: String, at now: ContinuousClock.Instant) {
        // Resolved already with every folder while this read's events were handled.
        guard !isResolvedForRead else { return }
        let resolved = resolveFolder(name)
        guard resolved != nil || folders.languageFolders[name] == nil else {
            reresolveFolders(at: now)
            return
        }
        if resolved == nil, let text = try? FileSystem.linkTarget(atPath: root + "/" + name) {
            let broken = brokenLinks(among: [FileSystem.DirectoryEntry(name: name, kind: .symlink)])
            if broken.reported[name] != nil, brokenLinks[name] != text { reportBrokenLink(name, text) }
            brokenLinks[name] = broken.reported[name]
        }
        relink(name, resolved: resolved, isBroken: false, at: now)
    }

    /// Watches and reads the language folder `name` when its path leads to a served directory (`resolved`) other than
    /// the one watched, or drops it when it leads nowhere and `isBroken` is false.
    private func relink(_ name: String, resolved: ResolvedFolder?, isBroken: Bool, at now: ContinuousClock.Instant) {
        if let resolved, let language = servedLanguage(ofFolder: name, resolved: resolved) {
            let watched = folders.languageFolders[name]
            guard watched == nil || watched?.target != resolved.identity else { return }
            if let watch = watched?.watch {
                inotify.removeWatch(watch)
                folders.forget(watch: watch)
            }
            if let problem = watchFolder(name, language: language, target: resolved.identity) {
                pendingProblems.append(problem)
                return
            }
            rescanFolder(name, language: language, noting: .finished, at: now)
        } else if folders.languageFolders[name] != nil, !isBroken {
            // The swap made it lead nowhere: its tables are gone for sure, not an editor's delete-and-recreate
            // to wait out, so their removal is read in the swap's batch (one reload for the whole release).
            removeFolder(name, noting: .finished, at: now)
        }
    }

    func reportBrokenLink(_ link: String, _ target: String) {
        pendingProblems.append(FileProblem(
            file: link,
            message: "symbolic link to '\(target)', which does not exist: the tables reached through it stay "
                + "as they were until it does"
        ))
    }

    /// The root's links that lead nowhere because their first step is missing (`reported`, with their text), and
    /// those plus every link whose first step is such a link (`all`): `en.lproj -> ..data/en.lproj` with `..data`
    /// pointing at a folder not made yet. A link whose first step exists but whose last does not is not broken:
    /// its release simply lacks that folder.
    func brokenLinks(among entries: [FileSystem.DirectoryEntry]) -> (reported: [String: String], all: Set<String>) {
        var firstSteps: [String: (step: String, text: String)] = [:]
        for entry in entries where entry.kind == .symlink {
            guard let text = try? FileSystem.linkTarget(atPath: root + "/" + entry.name) else { continue }
            let step = text.hasPrefix("/") ? text : String(text.split(separator: "/").first ?? "")
            firstSteps[entry.name] = (step, text)
        }
        var reported: [String: String] = [:]
        var all: Set<String> = []
        // Most links share their first step (`..data`): looked at once.
        var stepExists: [String: Bool] = [:]
        for (link, first) in firstSteps {
            let stepPath = first.step.hasPrefix("/") ? first.step : root + "/" + first.step
            if first.step.isEmpty || first.step == "." || first.step == ".." { continue }
            let exists = stepExists[stepPath] ?? {
                let exists = (try? FileSystem.status(atPath: stepPath, followingSymlinks: false)) != nil
                stepExists[stepPath] = exists
                return exists
            }()
            if !exists {
                reported[link] = first.text
                all.insert(link)
            }
        }
        // Links through broken links, a few steps deep (a longer chain is resolved as far as it goes).
        for _ in 0..<8 {
            let before = all.count
            for (link, first) in firstSteps where all.contains(first.step) { all.insert(link) }
            if all.count == before { break }
        }
        return (reported, all)
    }

    /// The directory `name` (relative to the root) leads to, following links, and where it really is; nil when it
    /// leads to no directory. One `open(O_PATH)` resolves the links in the kernel, where `realpath` would read every
    /// link on the way, component by component.
    func resolveFolder(_ name: String) -> ResolvedFolder? {
        folderResolutions += 1
        guard let directory = try? FileSystem.resolvedDirectory(atPath: root + "/" + name) else { return nil }
        return ResolvedFolder(
            identity: DirectoryIdentity(device: directory.status.device, inode: directory.status.inode),
            path: directory.path
        )
    }

    /// The language of the folder `name`, when it is served: its name is a language folder's, made of a language
    /// tag (one that is not is reported once, when first seen), it leads to a directory (`resolved`), and that is
    /// inside the bundle unless external links are allowed (one leading outside is reported once, too).
    ///
    /// The one place where a folder's name becomes a language: everything after it works with the `TableID`s made
    /// of this tag.
    func servedLanguage(ofFolder name: String, resolved: ResolvedFolder?) -> LanguageTag? {
        guard let resolved else { return nil }
        let language: LanguageTag
        switch BundleNames.folder(named: name) {
        case .language(let tag):
            language = tag
        case .notALanguage:
            if nonLanguageFolders.insert(name).inserted, let notServed = BundleNames.notServed(folder: name) {
                pendingProblems.append(FileProblem(file: name, message: notServed.reason))
            }
            return nil
        case .searched, .ignored:
            return nil
        }
        guard isServedAmongItsLanguage(name, language: language) else { return nil }
        guard !reader.followsExternalSymlinks, !reader.isInsideRoot(resolved.path) else {
            outsideFolders.remove(name)
            return language
        }
        if outsideFolders.insert(name).inserted {
            pendingProblems.append(FileProblem(
                file: name,
                message: "leads outside the bundle, to \(DisplayText.escaped(resolved.path, limit: 200)); not read "
                    + "(--follow-external-symlinks allows it)"
            ))
        }
        return nil
    }

    /// Whether `name` (relative to the root) is itself a symbolic link.
    func isSymlink(_ name: String) -> Bool {
        (try? FileSystem.status(atPath: root + "/" + name, followingSymlinks: false))?.kind == .symlink
    }
}
