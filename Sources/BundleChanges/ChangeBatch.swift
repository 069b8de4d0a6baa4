import StringsFormat

/// What happened to the files of one table, as one look at the disk found them.
package struct TableUpdate: Sendable {
    /// What the file holds now.
    package enum Content: Sendable {
        /// The file was read and parsed: a `.strings` file's strings, a `.stringsdict` file's rules.
        case parsed(TableContent)
        /// A String Catalog (`T.xcstrings`) was read and parsed: its table in each of its languages.
        case catalog(CatalogTables)
        /// The file could not be read or parsed; the last good table stays served.
        case failed(FileProblem)
        /// The file no longer exists (or is no longer a table).
        case removed
    }

    /// The table the file holds. A String Catalog holds its table in many languages (they are in its content):
    /// its updates name the table with the language `Base`, which nothing reads.
    package var id: TableID
    /// The path relative to the bundle root, such as `de.lproj/Localizable.strings`.
    package var file: String
    /// What the file holds now.
    package var content: Content

    /// Creates an update.
    package init(id: TableID, file: String, content: Content) {
        self.id = id
        self.file = file
        self.content = content
    }

    /// Whether the file is a String Catalog (`T.xcstrings`), which holds its table in every language it has.
    package var isCatalog: Bool {
        BundleNames.format(ofFile: String(file.split(separator: "/").last ?? "")) == .catalog
    }
}

/// What one String Catalog holds: its table in each of its languages, compiled as Xcode's build compiles it.
package struct CatalogTables: Sendable {
    /// The table in each language the catalog has (the source language's holds every key).
    package var tables: [LanguageTag: TableContent]
    /// Languages of the catalog that are not served (a name that is no language tag), each reported.
    package var problems: [FileProblem]

    /// Creates a catalog's tables.
    package init(tables: [LanguageTag: TableContent], problems: [FileProblem] = []) {
        self.tables = tables
        self.problems = problems
    }
}

/// Why the whole bundle was looked at again, and subscribers must drop what they hold and take a fresh snapshot.
package enum ResyncReason: String, Sendable, Hashable, CaseIterable {
    /// The kernel's event queue overflowed; the bundle was scanned again.
    case overflow
    /// The bundle root was deleted; the last good tables are still served.
    case rootRemoved = "root-removed"
    /// The bundle root came back and was scanned again.
    case rootRestored = "root-restored"
    /// A full rescan was asked for (SIGHUP, or a consumer that fell behind the watcher).
    case requested
    /// A subscriber fell too far behind to be sent the events it missed.
    case slowClient = "slow-client"
}

/// One settled batch of changes of a bundle: what the watcher hands on and the store applies at once.
package struct ChangeBatch: Sendable {
    /// The files that changed, applied in order (a later update of the same file wins).
    package var updates: [TableUpdate]
    /// Whether `updates` describe every file of the bundle (after a scan): files not mentioned are
    /// gone and their tables are deleted.
    package var isFullScan: Bool
    /// Set when the batch comes from a rescan that subscribers must be told about.
    package var resync: ResyncReason?
    /// Problems that are not about one table's content: a folder that cannot be watched or is no language, a
    /// name that is not UTF-8, a vanished root. Reported as `error` events after the updates' own.
    package var problems: [FileProblem]

    /// Creates a batch.
    package init(
        updates: [TableUpdate] = [], isFullScan: Bool = false, resync: ResyncReason? = nil,
        problems: [FileProblem] = []
    ) {
        self.updates = updates
        self.isFullScan = isFullScan
        self.resync = resync
        self.problems = problems
    }

    /// Whether the batch says nothing.
    package var isEmpty: Bool { updates.isEmpty && !isFullScan && resync == nil && problems.isEmpty }
}
