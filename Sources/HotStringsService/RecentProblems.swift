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

    /// The `lastErrors` array of a `status` answer: file, line, column (null when unknown) and message.
    package var json: JSONValue { .array(problems.map(Self.json)) }

    /// One problem as `status` shows it: file, line, column (null when unknown) and message.
    static func json(_ problem: FileProblem) -> JSONValue {
        .object([("file", .string(problem.file)), ("line", problem.line.map { .integer($0) } ?? .null),
                 ("column", problem.column.map { .integer($0) } ?? .null), ("message", .string(problem.message))])
    }
}
