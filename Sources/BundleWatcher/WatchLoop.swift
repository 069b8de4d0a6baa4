import BundleChanges
import LinuxSystem
import StringsFormat

/// The watcher's state and event handling, confined to the watcher's thread.
///
/// Watches are on directories only: the root, each `.lproj` folder, and every other real folder below the root
/// that is searched for String Catalogs (see `WatchLoop+Subfolders`). Paths are derived from the current tree
/// (watch descriptor → folder path, updated on every rename); events from watch descriptors it no longer knows are
/// ignored.
final class WatchLoop {
    static let folderMask: InotifyMask = [
        .closeWrite, .movedTo, .movedFrom, .create, .delete, .modify, .attrib,
        .deleteSelf, .moveSelf, .onlyDirectory, .excludeUnlinked,
    ]
    /// The root holds language folders, links and String Catalogs: writes are seen for the catalogs. Folders
    /// searched for catalogs are watched the same way.
    static let rootMask: InotifyMask = [
        .closeWrite, .movedTo, .movedFrom, .create, .delete, .modify, .attrib, .deleteSelf, .moveSelf,
        .onlyDirectory, .excludeUnlinked,
    ]

    let root: String
    let inotify: Inotify
    let reader: TableReader
    /// Settles by table: every file of a table is read together once the table is due.
    var settler: Settler<SettleKey>
    /// The watched directories: the root, its language folders (their languages and where their paths led), the
    /// folders searched for catalogs, the root's parent while it is gone.
    var folders = FolderIndex()
    /// The root's links whose target does not exist, with their text, reported once: the folders behind them
    /// keep their last good tables until the target appears.
    var brokenLinks: [String: String] = [:]
    /// When to look again at where the folders' paths lead (after a folder of the root was made or removed).
    var relinkDue: ContinuousClock.Instant?
    /// Table files that exist on disk as far as the last look knew, parsed or not.
    var known = KnownFiles()
    /// How many times in a row each file's read failed for a passing reason (the backoff's exponent).
    var failedReads: [TableFile: Int] = [:]
    /// Language folders whose path leads outside the bundle, not served (reported when first seen).
    var outsideFolders: Set<String> = []
    /// The root's language folders by language, and those not served because another folder of the root is the
    /// same language (see `+Clashes`).
    var languageFolderNames = LanguageFolderNames()
    /// `.lproj` folders whose name is no language tag, not served (reported when first seen).
    var nonLanguageFolders: Set<String> = []
    /// Files last read while a writer had them open, with when that wait began (see `heldQuietTime`).
    var awaitingWriter: [TableFile: ContinuousClock.Instant] = [:]
    /// How deep and how many folders are searched for catalogs.
    let searchLimits: SearchLimits
    /// Folders too deep to be searched, reported once each (forgotten when a folder above them goes).
    var tooDeepFolders: Set<String> = []
    /// Whether the limit on searched folders was reported since the count was last below it.
    var isSearchLimitReported = false
    var rootIsPresent = true
    var pendingProblems: [FileProblem] = []
    var pendingRescan: ResyncReason?
    /// How many times a folder's path was resolved (links followed to a directory): counted for tests, which show
    /// that the work of a release grows with its languages, not with their square.
    var folderResolutions = 0
    /// Whether every folder of the root was resolved again while the events of the current read were handled: it
    /// saw the disk as every one of them left it, so the read's other events need not resolve them again.
    var isResolvedForRead = false
    /// Whether every folder of the root was listed again while the events of the current read were handled.
    var isRescannedForRead = false
    /// The table a read ahead published last, and when: an event other than that file's finished write within the
    /// batch window after it means the read ahead cut a bulk save.
    var lastReadAhead: (key: SettleKey, at: ContinuousClock.Instant)?
    /// The tables a read ahead published within the last minute, and when (at most `recentReadAheadLimit`): one of
    /// them saved again is an editor's session, read ahead with the short quiet time (`SettleTiming.readAheadQuiet`).
    var recentReadAheads: [SettleKey: ContinuousClock.Instant] = [:]
    /// Waits until inotify has events queued or the instant passes (the read ahead's quiet time); the watcher's
    /// thread polls the inotify descriptor, tests that drive the loop step by step do not wait.
    var waitForEvents: (ContinuousClock.Instant) -> Void = { _ in }

    init(
        root: String, inotify: Inotify, reader: TableReader, settler: Settler<SettleKey>,
        searchLimits: SearchLimits = SearchLimits()
    ) {
        self.root = root
        self.inotify = inotify
        self.reader = reader
        self.settler = settler
        self.searchLimits = searchLimits
    }

    /// The next instant at which `takeSettled` has something, or `nil`.
    var nextDeadline: ContinuousClock.Instant? {
        if pendingRescan != nil || !pendingProblems.isEmpty { return .now }
        // A key offered for a read ahead by events handled after the look for one (those that came while a due
        // table was read): look again at once, not at the batch window's end.
        if settler.hasOpenOffer, !settler.isToolWriting(at: .now) { return .now }
        return [settler.nextDeadline, relinkDue].compactMap { $0 }.min()
    }

    /// A summary for `status`.
    var statistics: WatcherStatus {
        WatcherStatus(
            root: root, isRootPresent: rootIsPresent, watchedDirectories: folders.watchCount,
            files: known.count, pendingPaths: settler.pendingCount
        )
    }

    /// Watches the root and its language folders and reads every table: the first batch.
    func start() -> ChangeBatch {
        scan(cause: nil)
    }

    /// Asks for a full rescan at the next turn of the loop.
    func requestRescan(_ reason: ResyncReason) {
        pendingRescan = reason
    }

    // MARK: - Events

    /// Takes in one read's worth of events.
    func handle(_ events: [InotifyEvent], at now: ContinuousClock.Instant) {
        isResolvedForRead = false
        isRescannedForRead = false
        for event in events {
            let notes = settler.noteCount
            handle(event, at: now)
            // An event after the one that opened a batch that notes nothing (the next save's temporary file, a
            // folder's event) says more is happening: the batch waits for its window. One that notes something
            // other than the same finished write withdraws the offer in the settler.
            if settler.noteCount == notes { settler.withdrawOffer() }
            if let last = lastReadAhead, now < last.at + settler.configuration.batchWindow,
               settler.offeredKey != last.key {
                // The read ahead published the first file of several: hold it back while the writer goes on.
                holdReadAhead(at: now)
            }
        }
    }

    private func handle(_ event: InotifyEvent, at now: ContinuousClock.Instant) {
        if event.mask.contains(.queueOverflow) {
            pendingRescan = .overflow
            return
        }
        guard let watched = folders[watch: event.watch] else { return }
        if event.mask.contains(.ignored) {
            folders.forget(watch: event.watch)
            return
        }
        switch watched {
        case .root: handleRootEvent(event, at: now)
        case .folder(let folder): handleFolderEvent(event, in: folder, at: now)
        case .subfolder(let folder): handleSubfolderEvent(event, in: folder, at: now)
        case .parent: handleParentEvent(event)
        }
    }

    private func handleRootEvent(_ event: InotifyEvent, at now: ContinuousClock.Instant) {
        guard event.isNameValidUTF8 else {
            if event.mask.contains(.create) || event.mask.contains(.movedTo) { reportInvalidName(event.name) }
            return
        }
        if event.mask.contains(.deleteSelf) || event.mask.contains(.moveSelf) {
            rootLost()
            return
        }
        if let table = BundleNames.catalogTable(ofFile: event.name) {
            let catalog = BundleLayout.catalog(named: event.name, ofTable: table, in: "")
            if event.mask.contains(.create), isSymlink(event.name) {
                // A link is made whole (`Settings.xcstrings -> ..data/Settings.xcstrings`): finished, as a link
                // moved in is. Noted as a modification it would wait out the settle time, and a release whose
                // swap was read in the same read of events (folders are resolved once per read) would reach
                // subscribers in two reloads.
                awaitingWriter[catalog] = nil
                settler.note(.finished, to: catalog.key, at: now)
            } else {
                note(event, to: catalog, at: now)
            }
            return
        }
        // Other files of the root are nobody's: a write to one wakes the watcher and changes nothing.
        if event.mask.contains(.closeWrite) || event.mask.contains(.modify) { return }
        if event.mask.contains(.attrib) {
            // The root's permissions changed (name empty), or a folder's in it: look at every folder again.
            if event.name.isEmpty || BundleNames.folder(named: event.name).isLanguageFolderName {
                // Once per read: `chmod -R` on a bundle of thousands of languages is one event per folder.
                if !isRescannedForRead { rescanAllFolders(at: now) }
            }
            if event.name.isEmpty {
                searchSubfoldersAgain(at: now)
            } else if BundleNames.isSearched(folder: event.name) {
                noteSearchedEntry(event, path: event.name, at: now)
            }
            return
        }
        guard BundleNames.folder(named: event.name).isLanguageFolderName else {
            if BundleNames.isSearched(folder: event.name) { noteSearchedEntry(event, path: event.name, at: now) }
            noteOtherFile(event, path: event.name, at: now)
            noteRootEntryChange(event, at: now)
            return
        }
        let isInClash = languageFolderNames.note(event)
        defer {
            // Another folder is, or was, the same language: the rule may pick another one to serve now.
            if isInClash { reresolveFolders(at: now) }
        }
        if event.mask.contains(.create) || event.mask.contains(.movedTo), isSymlink(event.name) {
            // A language folder that is a link, made or swapped: it may lead to another directory now. Only this
            // one: a release adding thousands of languages makes a link for each.
            relinkFolder(event.name, at: now)
        } else if event.mask.contains(.create) || event.mask.contains(.movedTo) {
            // A folder moved in is complete; a folder just made may still be being filled (mkdir, cp -r), and a
            // file found in it may be half written: wait until it is quiet (or its CLOSE_WRITE comes).
            let found: Settler<SettleKey>.Change = event.mask.contains(.movedTo) ? .finished : .modified
            addFolder(event.name, noting: found, at: now)
        } else if event.mask.contains(.delete) || event.mask.contains(.movedFrom) {
            removeFolder(event.name, at: now)
        }
    }

    private func handleFolderEvent(_ event: InotifyEvent, in folder: String, at now: ContinuousClock.Instant) {
        guard event.isNameValidUTF8 else {
            if event.mask.contains(.closeWrite) || event.mask.contains(.movedTo) {
                reportInvalidName(folder + "/" + event.name)
            }
            return
        }
        guard let watched = folders.languageFolders[folder] else { return }
        let language = watched.language
        if event.mask.contains(.deleteSelf) || event.mask.contains(.moveSelf) {
            if watched.watch == event.watch { removeFolder(folder, at: now) }
            return
        }
        if event.name.isEmpty {
            // The folder's own permissions or owner changed: what it holds may be readable again (or no longer).
            if event.mask.contains(.attrib) { rescanFolder(folder, language: language, noting: .finished, at: now) }
            return
        }
        guard let file = BundleLayout.file(named: event.name, in: folder, language: language) else {
            noteOtherFile(event, path: folder + "/" + event.name, at: now)
            // A link other than a table put in place (a ConfigMap's `..data` swap): every table reached through it
            // may now have new content.
            if event.mask.contains(.movedTo) || event.mask.contains(.create),
               BundleLayout.isSymlinkSwap(event.name) || isSymlink(folder + "/" + event.name) {
                rescanFolder(folder, language: language, noting: .finished, at: now)
            }
            return
        }
        note(event, to: file, at: now)
    }

    /// Notes what `event` says happened to `file` (a table's file or a catalog).
    func note(_ event: InotifyEvent, to file: TableFile, at now: ContinuousClock.Instant) {
        // The file is not quiet: a wait for a writer holding it starts over.
        awaitingWriter[file] = nil
        if event.mask.contains(.closeWrite) || event.mask.contains(.movedTo) {
            settler.note(.finished, to: file.key, at: now)
        } else if event.mask.contains(.delete) || event.mask.contains(.movedFrom) {
            settler.note(.removed, to: file.key, at: now)
        } else {
            settler.note(.modified, to: file.key, at: now)
        }
    }

    /// Tells the settler of a file that is no table (a temporary file) made, or renamed away or removed: one made
    /// while a batch is open holds it until it is gone (`Settler.noteOtherFile`).
    func noteOtherFile(_ event: InotifyEvent, path: String, at now: ContinuousClock.Instant) {
        guard !event.mask.contains(.isDirectory) else { return }
        if event.mask.contains(.create) {
            settler.noteOtherFile(path, isMade: true, at: now)
        } else if event.mask.contains(.movedFrom) || event.mask.contains(.delete) {
            settler.noteOtherFile(path, isMade: false, at: now)
        }
    }

    private func handleParentEvent(_ event: InotifyEvent) {
        guard event.name == rootName, event.mask.contains(.create) || event.mask.contains(.movedTo) else { return }
        restoreRoot()
    }
}
