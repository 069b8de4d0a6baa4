/// The "did you mean" of a usage error: the known name closest to a misspelt one.
enum Suggestion {
    /// The candidate nearest to `name` by edit distance (insertions, deletions, substitutions and swaps of two
    /// neighbouring characters), if one is near enough to be a typo of it: at most a third of its length, and at
    /// most 2 edits. The first of equally near candidates wins.
    static func closest(to name: String, among candidates: [String]) -> String? {
        var best: (candidate: String, distance: Int)?
        for candidate in candidates where candidate != name {
            let distance = editDistance(Array(name), Array(candidate))
            guard distance <= min(2, max(1, candidate.count / 3)), distance < best?.distance ?? .max else { continue }
            best = (candidate, distance)
        }
        return best?.candidate
    }

    /// `message` followed by `; did you mean '<prefix><closest>'?` when a candidate is near `name`.
    static func message(_ message: String, name: String, among candidates: [String], prefix: String = "") -> String {
        guard let closest = closest(to: name, among: candidates) else { return message }
        return "\(message); did you mean '\(prefix)\(closest)'?"
    }

    /// The optimal string alignment distance between `a` and `b`.
    /// - Complexity: O(`a.count` × `b.count`).
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], previous2[j - 2] + 1)
                }
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }
}
