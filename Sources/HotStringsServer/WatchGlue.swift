import BundleWatcher
import HotStringsProtocol
import StringsFormat
import StringsStore

/// Turns what the watcher saw into what the store applies.
package enum WatchGlue {
    /// Applies a watcher batch to `store`: its tables, then its problems (and folders that name no language)
    /// as `error` events; returns the store's events in order.
    package static func apply(_ batch: WatchBatch, to store: StringsStore) async -> [StoreEvent] {
        let (storeBatch, problems) = storeBatch(batch)
        return await store.apply(storeBatch) + store.report(problems)
    }

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

/// The last problems the store reported, oldest first, at most `limit`: what `status` shows as `lastErrors`.
package struct RecentProblems: Sendable {
    /// How many are kept.
    package static let limit = 10

    package private(set) var problems: [FileProblem] = []

    package init() {}

    /// Keeps `problem`, dropping the oldest beyond the limit.
    package mutating func append(_ problem: FileProblem) {
        problems.append(problem)
        if problems.count > Self.limit { problems.removeFirst(problems.count - Self.limit) }
    }

    /// Keeps the problems of the `error` events among `events`.
    package mutating func record(_ events: [StoreEvent]) {
        for case .error(_, let problem) in events { append(problem) }
    }

    /// The `lastErrors` array of a `status` answer: file, line, column (null when unknown) and message.
    package var json: JSONValue {
        .array(problems.map { problem in
            .object([("file", .string(problem.file)), ("line", problem.line.map { .integer($0) } ?? .null),
                     ("column", problem.column.map { .integer($0) } ?? .null), ("message", .string(problem.message))])
        })
    }
}
