import StringsFormat

/// Why the watcher rescanned the whole bundle instead of reporting single changes.
package enum ResyncCause: String, Sendable, Hashable {
    /// The kernel's event queue overflowed: events were lost.
    case overflow
    /// The bundle root was deleted or moved away; the last good tables stay served.
    case rootRemoved = "root-removed"
    /// The bundle root is back and has been scanned again.
    case rootRestored = "root-restored"
    /// A rescan was asked for (SIGHUP).
    case requested
}

/// What a table file holds now, as read at the end of a settle.
package struct FileChange: Sendable {
    /// What the file holds.
    package enum Content: Sendable {
        /// The file parsed.
        case parsed(StringsTable)
        /// The file is there but could not be read or parsed; the last good table should stay.
        case failed(FileProblem)
        /// The file is gone (after the settle time).
        case removed
    }

    /// Which table this is.
    package var location: TableLocation
    /// What it holds.
    package var content: Content
}

/// One settled set of changes: what the watcher hands on, once per settle.
package struct WatchBatch: Sendable {
    /// The tables that changed (or were found, in a full scan).
    package var changes: [FileChange] = []
    /// Whether this is a scan of the whole bundle: tables not in `changes` no longer exist.
    package var isFullScan = false
    /// Why the bundle was rescanned, when it was.
    package var resync: ResyncCause?
    /// Problems that are not about one table (a folder that cannot be watched, a vanished root).
    package var problems: [FileProblem] = []

    /// Whether the batch says nothing.
    package var isEmpty: Bool { changes.isEmpty && !isFullScan && resync == nil && problems.isEmpty }
}
