import BundleChanges
import LinuxSystem
import StringsFormat

/// Turning what settled into a batch: the batch window, the read ahead of it for a single save, and the whole-version
/// checks both share.
extension WatchLoop {
    /// The batch of whatever settled by `now`, or `nil` when nothing did.
    ///
    /// `queuedEvents` reads the events queued since the last read: those that came while files were read tell
    /// which reads a newer write may have overtaken (a writer truncating and rewriting in place).
    ///
    /// A finished write that opens a batch alone is read at once, ahead of the window (`readAhead`): a single save
    /// does not wait for writes that are not coming. Anything else waits for the window, as a bulk save does.
    func takeSettled(
        at now: ContinuousClock.Instant, queuedEvents: () throws(SystemError) -> [InotifyEvent]
    ) -> ChangeBatch? {
        var batch = ChangeBatch(problems: pendingProblems)
        pendingProblems = []
        if let reason = pendingRescan {
            pendingRescan = nil
            if reason == .rootRemoved {
                // The last good tables stay served; nothing is deleted until the root is back and scanned.
                batch.resync = .rootRemoved
                return batch
            }
            if rootIsPresent || reason == .rootRestored {
                var scanned = scan(cause: reason)
                scanned.problems = batch.problems + scanned.problems
                return scanned
            }
        }
        // Every event queued by now is handled before a batch is taken: a look at the disk while handling the last
        // ones (a re-resolution stats the folders after listing the root) may have seen a release swap that events
        // still queued belong to (the link of a language it adds). What they note joins the batch, whose window
        // starts over from `now`.
        handleQueuedEvents(queuedEvents, at: now)
        if let due = relinkDue, due <= now {
            relinkDue = nil
            isResolvedForRead = false
            reresolveFolders(at: now)
            batch.problems += pendingProblems
            pendingProblems = []
        }
        if readAhead(into: &batch, at: now, queuedEvents: queuedEvents) {
            return batch.isEmpty ? nil : batch
        }
        let dueKeys = settler.takeDue(at: now)
        // Several tables at once: a tool is writing (a checkout, a sync, a release); its next saves wait for the window
        // (until one table alone is saved again and again: `Settler.takeDue(at:)` ends the hold then).
        if dueKeys.count > 1 { holdReadAhead(at: now) }
        let due = dueKeys.flatMap(files(settlingBy:))
        let reads = read(due)
        // A file modified again while it was read may have been read half-written: its newer version is noted
        // again by these events and read once it settles, so the older read is never published.
        handleQueuedEvents(queuedEvents, at: .now)
        // After an overflow the events that would tell an overtaken read are lost: the rescan it brings reads
        // every table again, so nothing read now is published.
        if pendingRescan != .overflow {
            for (file, read) in reads where !settler.isPending(file.key) {
                record(read, of: file, in: &batch, at: now, isFullScan: false)
            }
        }
        return batch.isEmpty ? nil : batch
    }

    /// Reads the one key of a batch just opened (a single save) ahead of the batch window, and adds what it found to
    /// `batch` when nothing at all happened while it was read; returns whether it did.
    ///
    /// "Nothing at all" is no inotify event queued between the events that opened the batch and the end of the read,
    /// or the end of the quiet time after the event when the read was quicker (`quietTime(readingAhead:at:)`: short,
    /// `SettleTiming.readAheadQuiet`, for a table read ahead within the last minute; longer, `firstSaveQuiet`, for
    /// the first save of a table in a while, which may be a tool's first file):
    /// not another table's write (a bulk save: `git checkout`, `rsync`, a release's five files), not a temporary file
    /// made for the next one, not a write to this file (which may have overtaken the read). Any of them and the read
    /// is dropped: the events are handled, the batch grows as it would have, and it is read whole once its window
    /// closes: a bulk save whose next file shows (its temporary file made, or its rename) within the quiet time is
    /// one batch; one whose writer stalls longer after the first file is two. Only a finished write of the same file
    /// and nothing else (the save's own `CLOSE_WRITE` after its rename) makes it read again at once. A read ahead
    /// that turns out to have cut a bulk save (another event within the batch window after it), or a batch of
    /// several tables, holds the read ahead back for `SettleTiming.readAheadHold`: a tool's further saves are one
    /// batch each.
    ///
    /// What is published passes every check a batch's reads pass (`read`, `record`): size and times the same before
    /// and after, no writer holding a lease, the real path inside the root, a clash's loser served as absent.
    private func readAhead(
        into batch: inout ChangeBatch, at now: ContinuousClock.Instant,
        queuedEvents: () throws(SystemError) -> [InotifyEvent]
    ) -> Bool {
        guard pendingRescan == nil, !settler.isToolWriting(at: now) else { return false }
        // The same save's close after its rename, seen during the read, offers the key again: read it again, a few
        // times at most (a writer renaming onto the name without end waits for the window instead).
        for _ in 0..<3 {
            guard let key = settler.takeOffer(at: now) else { return false }
            let reads = read(files(settlingBy: key))
            let quietEnd = now + quietTime(readingAhead: key, at: now)
            if ContinuousClock.now < quietEnd { waitForEvents(quietEnd) }
            let arrived: [InotifyEvent]
            do {
                arrived = try queuedEvents()
            } catch {
                requestRescan(.overflow)
                return false
            }
            guard arrived.isEmpty else {
                handle(arrived, at: .now)
                continue
            }
            settler.take(key)
            lastReadAhead = (key, now)
            noteRecentReadAhead(key, at: now)
            for (file, read) in reads {
                record(read, of: file, in: &batch, at: now, isFullScan: false)
            }
            return true
        }
        return false
    }

    /// How long the read ahead of `key` waits for another event: the short quiet time for a table read ahead within
    /// the last minute (an editor's session: saved again and again), else the longer `SettleTiming.firstSaveQuiet`
    /// (the first save of a table in a while may be a tool's first file of several, whose next file can take a few
    /// hundred microseconds to show on a slow file system).
    func quietTime(readingAhead key: SettleKey, at now: ContinuousClock.Instant) -> Duration {
        guard let last = recentReadAheads[key], now - last < Self.recentReadAheadSpan else {
            return settler.configuration.firstSaveQuiet
        }
        return settler.configuration.readAheadQuiet
    }

    /// How long a table read ahead counts as an editor's (`quietTime(readingAhead:at:)`), and how many are kept.
    static let recentReadAheadSpan = Duration.seconds(60)
    static let recentReadAheadLimit = 64

    /// Remembers that a read ahead published `key` at `now`, forgetting the oldest past `recentReadAheadLimit` (one
    /// is added at a time; one older than the span is ignored where it is looked up).
    func noteRecentReadAhead(_ key: SettleKey, at now: ContinuousClock.Instant) {
        recentReadAheads[key] = now
        if recentReadAheads.count > Self.recentReadAheadLimit,
           let oldest = recentReadAheads.min(by: { $0.value < $1.value }) {
            recentReadAheads[oldest.key] = nil
        }
    }

    /// Makes no read ahead for `SettleTiming.readAheadHold` from `now`, and batches wait for the tool's next file
    /// longer (`Settler.noteToolWriting(at:)`): a tool is writing several files.
    func holdReadAhead(at now: ContinuousClock.Instant) {
        settler.noteToolWriting(at: now)
        lastReadAhead = nil
    }

    /// Reads `files`, a folder that loses a clash for its language as absent (its files are gone, whatever they
    /// hold).
    private func read(_ files: [TableFile]) -> [(TableFile, TableRead)] {
        let unserved = files.filter { languageFolderNames.unserved.contains($0.folder) }
        let readable = files.filter { !languageFolderNames.unserved.contains($0.folder) }
        let contents = reader.read(readable) + unserved.map { _ in TableRead.absent }
        return Array(zip(readable + unserved, contents))
    }

    private func handleQueuedEvents(
        _ queuedEvents: () throws(SystemError) -> [InotifyEvent], at now: ContinuousClock.Instant
    ) {
        do {
            handle(try queuedEvents(), at: now)
        } catch {
            requestRescan(.overflow)
        }
    }

    /// Every file to look at for `key`: a catalog's one file, or for a table, the table's file in each watched
    /// folder of its language, and any file known before in a folder that is gone (to be found absent, and
    /// reported removed).
    private func files(settlingBy key: SettleKey) -> [TableFile] {
        guard case .table(let id) = key else {
            guard case .catalog(let path) = key else { return [] }
            if let file = known.files(settlingBy: key).first { return [file] }
            let slash = path.lastIndex(of: "/")
            let folder = slash.map { String(path[..<$0]) } ?? ""
            let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
            return BundleNames.catalogTable(ofFile: name).map {
                [BundleLayout.catalog(named: name, ofTable: $0, in: folder)]
            } ?? []
        }
        var files = known.files(settlingBy: key)
        for folder in folders.folders(of: id.language) {
            files.formUnion(BundleLayout.files(ofTable: id.table, in: folder, language: id.language))
        }
        return files.sorted()
    }
}
