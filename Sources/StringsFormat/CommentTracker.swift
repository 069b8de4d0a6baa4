/// Remembers the comment written just before an entry, so the table can keep translator comments.
///
/// The translator comment of an entry is the last `/* */` comment, or run of `//` lines, before its
/// key, with no blank line in between. A comment on the same line as the previous entry's `;` is a
/// trailing remark on that entry and is not carried over to the next.
struct CommentTracker {
    enum Kind { case line, block }

    private var start = -1
    private var end = -1
    private var kind = Kind.block
    /// Offset just after the previous entry's `;`, or -1 before the first entry.
    private var previousTerminator = -1
    /// Where the comment the last `take` returned is in the text, delimiters included.
    private(set) var takenSpan: Range<Int>?

    mutating func record(_ kind: Kind, from start: Int, to end: Int, in text: UnsafeBufferPointer<UInt8>) {
        if previousTerminator >= 0 {
            guard lineBreaks(in: text, from: previousTerminator, to: start) > 0 else {
                // Still on the terminator's line: skip it, and scan only from here next time, so that a
                // run of comments costs linear time. A comment spanning lines ends on a later line.
                previousTerminator = lineBreaks(in: text, from: start, to: end) > 0 ? -1 : end
                return
            }
            previousTerminator = -1
        }
        if kind == .line, self.kind == .line, self.start >= 0, lineBreaks(in: text, from: self.end, to: start) == 1 {
            self.end = end
        } else {
            self.start = start
            self.end = end
            self.kind = kind
        }
    }

    /// The comment for an entry whose key starts at `keyStart`, if one stands right before it.
    mutating func take(
        for keyStart: Int, in text: UnsafeBufferPointer<UInt8>, storingInto storage: inout [UInt8]
    ) -> StoredRange? {
        takenSpan = nil
        guard start >= 0 else { return nil }
        defer { start = -1 }
        guard end <= keyStart, lineBreaks(in: text, from: end, to: keyStart) <= 1 else { return nil }
        takenSpan = start..<end
        let storedStart = UInt32(storage.count)
        switch kind {
        case .block:
            appendTrimmed(text, from: start + 2, to: end - 2, to: &storage)
        case .line:
            var isFirstLine = true
            var lineStart = start
            var index = start
            while index <= end {
                if index == end || text[index] == 0x0A || text[index] == 0x0D {
                    var contentStart = lineStart
                    while contentStart < index, isSpace(text[contentStart]) { contentStart += 1 }
                    if contentStart + 1 < index, text[contentStart] == UInt8(ascii: "/"),
                       text[contentStart + 1] == UInt8(ascii: "/") {
                        if !isFirstLine { storage.append(0x0A) }
                        isFirstLine = false
                        appendTrimmed(text, from: contentStart + 2, to: index, to: &storage)
                    }
                    lineStart = index + 1
                }
                index += 1
            }
        }
        return StoredRange(start: storedStart, length: UInt32(storage.count) - storedStart)
    }

    /// Marks the end of an entry; comments seen inside it are dropped.
    mutating func terminatorEnded(at offset: Int) {
        previousTerminator = offset
        start = -1
    }

    private func lineBreaks(in text: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Int {
        var count = 0
        var index = start
        while index < end {
            if text[index] == 0x0A || (text[index] == 0x0D && !(index + 1 < end && text[index + 1] == 0x0A)) {
                count += 1
            }
            index += 1
        }
        return count
    }

    private func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) }

    private func appendTrimmed(
        _ text: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int, to storage: inout [UInt8]
    ) {
        var lower = start
        var upper = end
        while lower < upper, isSpace(text[lower]) { lower += 1 }
        while upper > lower, isSpace(text[upper - 1]) { upper -= 1 }
        storage.append(contentsOf: UnsafeBufferPointer(rebasing: text[lower..<upper]))
    }
}
