import BundleWatcher
import StringsFormat
import StringsStore

extension WatchBatch {
    /// The store's batch for this watcher batch, and the problems to report beside it: the watcher's own, and
    /// one for each folder whose name is no language tag (its files are left out of the batch).
    package func storeBatch() -> (StoreBatch, problems: [FileProblem]) {
        var problems = problems
        var updates: [TableUpdate] = []
        for change in changes {
            guard let language = LanguageTag(change.location.folderLanguage) else {
                problems.append(FileProblem(
                    file: change.location.relativePath,
                    message: "'\(change.location.folderLanguage).lproj' is not a language folder name"
                ))
                continue
            }
            let content: TableUpdate.Content
            switch change.content {
            case .parsed(let table): content = .parsed(TableContent(strings: table))
            case .failed(let problem): content = .failed(problem)
            case .removed: content = .removed
            }
            updates.append(TableUpdate(
                id: TableID(language: language, table: change.location.table),
                file: change.location.relativePath, content: content
            ))
        }
        let reason = resync.flatMap { ResyncReason(rawValue: $0.rawValue) }
        return (StoreBatch(updates: updates, isFullScan: isFullScan, resync: reason), problems)
    }
}

extension StringsStore {
    /// Applies a watcher batch: its tables, then its problems as `error` events; returns the events in order.
    package func apply(_ batch: WatchBatch) -> [StoreEvent] {
        let (storeBatch, problems) = batch.storeBatch()
        return apply(storeBatch) + report(problems)
    }
}
