/// A line over the framer's cap: the peer is answered with `too_large` and the connection closed.
package struct LineTooLong: Error, Sendable, Hashable, CustomStringConvertible {
    /// The cap that was exceeded, in bytes.
    package var maximumLineLength: Int

    /// Creates the error for `maximumLineLength`.
    package init(maximumLineLength: Int) {
        self.maximumLineLength = maximumLineLength
    }

    /// "line longer than N bytes".
    package var description: String { "line longer than \(maximumLineLength) bytes" }
}

/// Splits incoming bytes into lines ending in `"\n"` (or `"\r\n"`), with a cap on the length of a line.
///
/// Feed it what each `read` returned, then take lines until `nextLine()` is `nil`. A partial line that
/// already exceeds the cap is reported at once, without waiting for its newline, and the framer stays
/// failed: the connection is to be answered with `too_large` and closed. The buffer therefore never holds
/// more than one read beyond the cap.
package struct LineFramer: Sendable {
    /// The default cap on a line, without its line ending: 64 KiB.
    package static let maximumLineLength = 65_536

    /// The cap on a line of this framer, without its line ending.
    package let maximumLineLength: Int
    private var buffer: [UInt8] = []
    /// The first byte not yet returned.
    private var start = 0
    /// Bytes before this index (from `start`) are known to contain no newline.
    private var scanned = 0
    /// Set once a line was too long; nothing is buffered after that.
    package private(set) var hasFailed = false

    /// Creates a framer that accepts lines up to `maximumLineLength` bytes (the line ending not counted).
    package init(maximumLineLength: Int = LineFramer.maximumLineLength) {
        precondition(maximumLineLength > 0, "the line cap must be positive")
        self.maximumLineLength = maximumLineLength
    }

    /// The bytes received but not yet returned as lines.
    package var bufferedByteCount: Int { buffer.count - start }

    /// Adds received bytes; ignored once the framer has failed.
    package mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard !hasFailed, !bytes.isEmpty else { return }
        compact()
        buffer.append(contentsOf: bytes)
    }

    /// Adds received bytes; ignored once the framer has failed.
    package mutating func append(contentsOf bytes: some Sequence<UInt8>) {
        guard !hasFailed else { return }
        compact()
        buffer.append(contentsOf: bytes)
    }

    /// The next complete line without its `"\n"` or `"\r\n"`, `nil` when no complete line is buffered, or
    /// `LineTooLong` (from then on, every time) when a line — complete or not — exceeds the cap.
    ///
    /// - Complexity: amortized O(n) in the bytes appended; each byte is scanned for a newline once.
    package mutating func nextLine() -> Result<[UInt8], LineTooLong>? {
        if hasFailed { return .failure(LineTooLong(maximumLineLength: maximumLineLength)) }
        let end = buffer.count
        guard let newline = buffer[scanned..<end].firstIndex(of: 0x0A) else {
            scanned = end
            let pending = end - start
            // A trailing "\r" may be the first half of "\r\n", which does not count against the cap.
            let allowed = maximumLineLength + (pending > 0 && buffer[end - 1] == 0x0D ? 1 : 0)
            if pending > allowed { return fail() }
            return nil
        }
        var lineEnd = newline
        if lineEnd > start && buffer[lineEnd - 1] == 0x0D { lineEnd -= 1 }
        if lineEnd - start > maximumLineLength { return fail() }
        let line = Array(buffer[start..<lineEnd])
        start = newline + 1
        scanned = start
        return .success(line)
    }

    private mutating func fail() -> Result<[UInt8], LineTooLong>? {
        hasFailed = true
        buffer = []
        start = 0
        scanned = 0
        return .failure(LineTooLong(maximumLineLength: maximumLineLength))
    }

    /// Drops the bytes already returned once they are at least half the buffer, so copying stays amortized.
    private mutating func compact() {
        guard start > 0 else { return }
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
        } else if start >= buffer.count / 2 {
            buffer.removeSubrange(0..<start)
        } else {
            return
        }
        scanned -= start
        start = 0
    }
}
