/// Rendered answers to `table` requests, kept while the store stays at the `seq` they were rendered at: the same
/// request then costs a copy of the kept answer instead of building and encoding the whole table again.
///
/// Bounded: at most `maximumCount` answers and `maximumBytes` in all; a change of the store (a new `seq`)
/// drops every kept answer at the next look.
struct TableAnswers<Answer> {
    /// What an answer is kept for: the request's words as given, at one position of the store.
    struct Key: Hashable {
        var language: String
        var table: String
        var seq: UInt64
    }

    let maximumCount: Int
    let maximumBytes: Int
    private var answers: [Key: (answer: Answer, size: Int)] = [:]
    private var bytes = 0

    init(maximumCount: Int = 16, maximumBytes: Int = 32 << 20) {
        self.maximumCount = maximumCount
        self.maximumBytes = maximumBytes
    }

    /// How many answers are kept.
    var count: Int { answers.count }

    /// The kept answer for `key`; answers of another `seq` are dropped first.
    mutating func answer(for key: Key) -> Answer? {
        dropOtherPositions(than: key.seq)
        return answers[key]?.answer
    }

    /// Keeps `answer` (of `size` bytes) for `key`, unless it alone is over the byte cap; when the count or the
    /// bytes would pass their cap, the answers kept so far are dropped to make room.
    mutating func keep(_ answer: Answer, for key: Key, size: Int) {
        dropOtherPositions(than: key.seq)
        guard size <= maximumBytes else { return }
        if let replaced = answers.removeValue(forKey: key) { bytes -= replaced.size }
        if answers.count >= maximumCount || bytes + size > maximumBytes {
            answers.removeAll()
            bytes = 0
        }
        answers[key] = (answer, size)
        bytes += size
    }

    private mutating func dropOtherPositions(than seq: UInt64) {
        guard let any = answers.keys.first, any.seq != seq else { return }
        answers = answers.filter { $0.key.seq == seq }
        bytes = answers.values.reduce(0) { $0 + $1.size }
    }
}
