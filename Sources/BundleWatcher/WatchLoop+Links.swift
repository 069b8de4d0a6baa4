import BundleChanges
import LinuxSystem
import StringsFormat

/// A directory as the kernel knows it: the same device and inode is the same directory, whatever path reached it.
struct DirectoryIdentity: Hashable {
    var device: UInt64
    var inode: UInt64
}

/// Links in the bundle's root: a release swapped by renaming a link (`..data -> rel2`) while the old release stays
/// on disk changes no watched directory, so the watcher looks again at where every folder's path leads.
///
/// inotify watches a directory, not a path: `en.lproj -> ..data/en.lproj` is watched where it led when the watch
/// was added, and swapping `..data` leaves that watch on the old release. So whenever a link of the root is put in
/// place, every language folder is resolved again; one that now reaches another directory is watched there and
/// all its tables are read, in one batch for the whole swap (files that did not change make no event).
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
        let entries = (try? FileSystem.listDirectory(atPath: root)) ?? []
        let broken = brokenLinks(among: entries)
        for (link, target) in broken.reported where brokenLinks[link] != target {
            pendingProblems.append(FileProblem(
                file: link,
                message: "symbolic link to '\(target)', which does not exist: the tables reached through it stay "
                    + "as they were until it does"
            ))
        }
        brokenLinks = broken.reported
        rescanRootCatalogs(noting: .finished, at: now)
        for entry in entries where BundleLayout.language(ofFolder: entry.name) != nil {
            if let identity = directoryIdentity(entry.name), let language = servedLanguage(ofFolder: entry.name) {
                guard folderWatches[entry.name] == nil || folderTargets[entry.name] != identity else { continue }
                if let watch = folderWatches[entry.name] {
                    inotify.removeWatch(watch)
                    forget(watch: watch)
                }
                if let problem = watchFolder(entry.name, language: language) {
                    pendingProblems.append(problem)
                    continue
                }
                rescanFolder(entry.name, language: language, noting: .finished, at: now)
            } else if folderWatches[entry.name] != nil, !broken.all.contains(entry.name) {
                // The swap made it lead nowhere: its tables are gone for sure, not an editor's delete-and-recreate
                // to wait out, so their removal is read in the swap's batch (one reload for the whole release).
                removeFolder(entry.name, noting: .finished, at: now)
            }
        }
        // A watched folder whose entry is gone altogether: the install unlinks a dropped language right after the
        // swap, and by the time the swap's events are handled the link may be gone already.
        let listed = Set(entries.map(\.name))
        for folder in folderWatches.keys.sorted() where !listed.contains(folder) {
            removeFolder(folder, noting: .finished, at: now)
        }
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
        for (link, first) in firstSteps {
            let stepPath = first.step.hasPrefix("/") ? first.step : root + "/" + first.step
            if first.step.isEmpty || first.step == "." || first.step == ".." { continue }
            if (try? FileSystem.status(atPath: stepPath, followingSymlinks: false)) == nil {
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

    /// The directory `name` (relative to the root) leads to, following links, or nil when it leads to no directory.
    func directoryIdentity(_ name: String) -> DirectoryIdentity? {
        guard let status = try? FileSystem.status(atPath: root + "/" + name), status.kind == .directory else {
            return nil
        }
        return DirectoryIdentity(device: status.device, inode: status.inode)
    }

    /// The language of the folder `name`, when it is served: its name is a language folder's, made of a language
    /// tag (one that is not is reported once, when first seen), it leads to a directory, and that directory is
    /// inside the bundle unless external links are allowed (one leading outside is reported once, too).
    ///
    /// The one place where a folder's name becomes a language: everything after it works with the `TableID`s made
    /// of this tag.
    func servedLanguage(ofFolder name: String) -> LanguageTag? {
        guard let written = BundleLayout.language(ofFolder: name), isDirectory(name) else { return nil }
        guard let language = LanguageTag(written) else {
            if nonLanguageFolders.insert(name).inserted {
                pendingProblems.append(FileProblem(
                    file: name, message: "'\(written)' is not a language tag; the folder is not served: rename it"
                ))
            }
            return nil
        }
        guard !reader.followsExternalSymlinks, let resolved = try? FileSystem.resolvedPath(root + "/" + name),
              !reader.isInsideRoot(resolved) else {
            outsideFolders.remove(name)
            return language
        }
        if outsideFolders.insert(name).inserted {
            pendingProblems.append(FileProblem(
                file: name,
                message: "leads outside the bundle, to \(DisplayText.escaped(resolved, limit: 200)); not read "
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
