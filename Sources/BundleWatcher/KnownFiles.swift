/// The table files that exist on disk as far as the watcher's last look knew, indexed by folder and by what they
/// settle by: a release of thousands of languages looks up one folder's or one table's files thousands of times,
/// and a scan of every known file each time made serving it quadratic.
struct KnownFiles: Sequence {
    private var files: Set<TableFile> = []
    private var byFolder: [String: Set<TableFile>] = [:]
    private var byKey: [SettleKey: Set<TableFile>] = [:]

    /// How many files are known.
    var count: Int { files.count }

    /// Whether `file` is known.
    func contains(_ file: TableFile) -> Bool { files.contains(file) }

    /// The known files of the folder `folder` (relative to the root; empty for the root's catalogs).
    func files(inFolder folder: String) -> Set<TableFile> { byFolder[folder] ?? [] }

    /// The known files that settle by `key`.
    func files(settlingBy key: SettleKey) -> Set<TableFile> { byKey[key] ?? [] }

    mutating func insert(_ file: TableFile) {
        guard files.insert(file).inserted else { return }
        byFolder[file.folder, default: []].insert(file)
        byKey[file.key, default: []].insert(file)
    }

    /// Forgets `file`; returns it when it was known.
    @discardableResult
    mutating func remove(_ file: TableFile) -> TableFile? {
        guard let removed = files.remove(file) else { return nil }
        Self.remove(file, under: file.folder, from: &byFolder)
        Self.remove(file, under: file.key, from: &byKey)
        return removed
    }

    func makeIterator() -> Set<TableFile>.Iterator { files.makeIterator() }

    private static func remove<Key: Hashable>(_ file: TableFile, under key: Key, from index: inout [Key: Set<TableFile>]) {
        index[key]?.remove(file)
        if index[key]?.isEmpty == true { index[key] = nil }
    }
}
