import BundleChanges
import StringsFormat

/// What a look at a table file turns into: a change in the batch, a read again later, or nothing.
extension WatchLoop {
    /// The longest wait between two reads of a file whose reads keep failing for a passing reason.
    static let longestRetryDelay: Duration = .seconds(2)

    /// How long a file that a writer holds open must stay quiet before what it holds is taken as a version: long
    /// enough that a writer between its truncate and its write is not caught (only a writer stopped for that
    /// long would be), short enough for a writer that never closes its file.
    var heldQuietTime: Duration { settler.configuration.settleTime * 10 }

    /// Adds what `read` found of `file` to `batch`, or arranges to look again (its whole table, when it is due).
    ///
    /// - A whole version (parsed or a lasting problem) is the table's new state; an absent file is a removal of a
    ///   table known before.
    /// - A file that changed while it was read is read again once it settles (its newer write's events are noted
    ///   already, or are on their way); in a full scan, where a missing table would mean a deleted one, what was
    ///   read stands until then.
    /// - An empty file that a writer holds open is read again later, never published.
    /// - A passing failure (out of descriptors, out of memory) is reported once as an `error` (the last good
    ///   table stays) and the file is read again after a delay that doubles, up to `longestRetryDelay`, until a
    ///   read succeeds or fails for good: an edit is never lost to a moment without descriptors.
    func record(
        _ read: TableRead, of file: TableFile, in batch: inout ChangeBatch,
        at now: ContinuousClock.Instant, isFullScan: Bool
    ) {
        switch read {
        case .content(let content):
            publish(content, of: file, in: &batch)
        case .writerOpen(let content):
            // A writer holds the file: maybe one that truncated it and has not written yet. Published only once the
            // file has stayed quiet that long (a writer that keeps its file open for good); any event of the file
            // starts the wait over.
            let since = awaitingWriter[file] ?? now
            if !isFullScan, now - since >= heldQuietTime {
                publish(content, of: file, in: &batch)
            } else {
                awaitingWriter[file] = since
                settler.retry(file.key, after: settler.configuration.settleTime, at: now)
                if isFullScan { keepLastGood(file, in: &batch, because: "is being written") }
            }
        case .emptyWhileWritten:
            // A writer stalled between its truncate and its write (a loaded machine, a stopped process) must not
            // empty the table for every client: the last good stays until the writer writes or closes the file.
            awaitingWriter[file] = nil
            settler.retry(file.key, after: heldQuietTime, at: now)
            if isFullScan { keepLastGood(file, in: &batch, because: "is empty while a writer holds it open") }
        case .absent:
            failedReads[file] = nil
            awaitingWriter[file] = nil
            if known.remove(file) != nil, !isFullScan {
                batch.updates.append(TableUpdate(id: file.id, file: file.path, content: .removed))
            }
        case .unsettled:
            settler.note(.modified, to: file.key, at: now)
            if isFullScan { keepLastGood(file, in: &batch, because: "changed while it was read") }
        case .transient(let problem):
            let failures = failedReads[file, default: 0]
            failedReads[file] = failures + 1
            let delay = min(settler.configuration.settleTime * (1 << min(failures, 16)), Self.longestRetryDelay)
            settler.retry(file.key, after: delay, at: now)
            if failures == 0 || isFullScan {
                known.insert(file)
                batch.updates.append(TableUpdate(id: file.id, file: file.path, content: .failed(problem)))
            }
        }
    }

    private func publish(_ content: TableUpdate.Content, of file: TableFile, in batch: inout ChangeBatch) {
        failedReads[file] = nil
        awaitingWriter[file] = nil
        known.insert(file)
        batch.updates.append(TableUpdate(id: file.id, file: file.path, content: content))
    }

    /// A full scan lists every table, or the store deletes it: one that cannot be read whole now is listed as a
    /// failure, which keeps its last good table, until the settled read replaces it.
    func keepLastGood(_ file: TableFile, in batch: inout ChangeBatch, because reason: String) {
        known.insert(file)
        batch.updates.append(TableUpdate(id: file.id, file: file.path, content: .failed(FileProblem(
            file: file.path, message: "\(reason); reading it again once it settles"
        ))))
    }
}
