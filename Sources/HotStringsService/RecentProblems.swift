import HotStringsProtocol
import StringsFormat
import StringsStore

/// The last problems the store reported, oldest first, at most `limit`: what `status` shows as `lastErrors`.
package struct RecentProblems: Sendable {
    /// How many are kept.
    package static let limit = 10

    /// The problems kept, oldest first.
    package private(set) var problems: [FileProblem] = []

    /// No problems yet.
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
}
