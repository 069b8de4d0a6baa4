import BundleWatcher
import StringsFormat
import StringsStore

/// Turns what the watcher saw into what the store applies.
package enum WatchGlue {
    /// The store's batch for a watcher batch; folders whose name is no language tag become problems.
    package static func storeBatch(_ batch: WatchBatch) -> (StoreBatch, [FileProblem]) {
        var problems = batch.problems
        var updates: [TableUpdate] = []
        for change in batch.changes {
            guard let language = LanguageTag(change.location.folderLanguage) else {
                problems.append(FileProblem(
                    file: change.location.relativePath,
                    message: "'\(change.location.folderLanguage).lproj' is not a language folder name"
                ))
                continue
            }
            let content: TableUpdate.Content
            switch change.content {
            case .parsed(let table): content = .parsed(table)
            case .failed(let problem): content = .failed(problem)
            case .removed: content = .removed
            }
            updates.append(TableUpdate(
                id: TableID(language: language, table: change.location.table),
                file: change.location.relativePath, content: content
            ))
        }
        let resync = batch.resync.flatMap { ResyncReason(rawValue: $0.rawValue) }
        return (StoreBatch(updates: updates, isFullScan: batch.isFullScan, resync: resync), problems)
    }
}
