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

/// A problem the watcher met: a file that does not parse or cannot be read, or a folder it cannot watch.
package struct WatchProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// The path relative to the bundle root (`de.lproj/Localizable.strings`), or the root itself.
    package var file: String
    /// The 1-based line of a parse error.
    package var line: Int?
    /// The 1-based column of a parse error.
    package var column: Int?
    /// What went wrong.
    package var message: String

    /// Creates a problem report.
    package init(file: String, line: Int? = nil, column: Int? = nil, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    /// `file:line:column: error: message`, or `file: error: message` without a position.
    package var description: String {
        if let line, let column { return "\(file):\(line):\(column): error: \(message)" }
        return "\(file): error: \(message)"
    }
}

/// What a table file holds now, as read at the end of a settle.
package struct FileChange: Sendable {
    /// What the file holds.
    package enum Content: Sendable {
        /// The file parsed.
        case parsed(StringsTable)
        /// The file is there but could not be read or parsed; the last good table should stay.
        case failed(WatchProblem)
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
    package var problems: [WatchProblem] = []

    /// Whether the batch says nothing.
    package var isEmpty: Bool { changes.isEmpty && !isFullScan && resync == nil && problems.isEmpty }
}
