/// The bytes waiting to be written to one client, with a cap on its unsent events and a named rule for passing it.
///
/// Chunks are shared: a broadcast event is one `[UInt8]` referenced by every subscriber's outbox, so
/// 10,000 subscribers hold one copy of it. The cap counts the event bytes each client still has to read;
/// what it asked for (responses, the `resync` line, snapshots, an event stream's head) is neither counted nor ever
/// dropped, so a snapshot bigger than the cap, or answers waiting to be read, do not make the next event an
/// overflow. What an overflow does is the outbox's `OverflowRule`.
struct Outbox {
    /// What happens to a client whose unsent events would pass the cap.
    enum OverflowRule: Equatable {
        /// The socket's clients: the event backlog is dropped and the client resynchronized (`resync`, then, once it
        /// has read that, a fresh snapshot; events meanwhile are skipped, the snapshot replaces them). Its
        /// `closingAt`-th overflow closes it instead: a client that falls behind again and again costs a snapshot
        /// each time.
        case resynchronize(closingAt: Int)
        /// The page's event streams: closed. The page reconnects and reads the tables again.
        case close
    }

    /// Where the client is in the slow-client policy (`OverflowRule.resynchronize`).
    enum Phase: Equatable {
        /// Reading along.
        case current
        /// Over the cap: backlog dropped; waiting for the server to queue the `resync` line.
        case overflowed
        /// `resync` queued, not all written yet.
        case resyncing
        /// `resync` written (the flush that wrote it said so once): waiting for the fresh snapshot.
        case caughtUp
    }

    /// What `enqueue` did.
    enum Outcome: Equatable {
        /// Written whole at once: nothing is queued.
        case written
        /// Queued (what the socket did not take at once).
        case queued
        /// Dropped because the client is being resynchronized (a snapshot will replace it).
        case skipped
        /// The cap was crossed: the backlog is gone and the server must queue `resync`.
        case overflowed
        /// The cap was crossed and the rule closes the client: nothing more is queued.
        case closes
    }

    /// What `flush` did.
    enum Flush: Equatable {
        /// Bytes remain: the socket is full.
        case blocked
        /// Everything is written.
        case empty
        /// Everything is written, the `resync` line included: the client needs its fresh snapshot now (said once).
        case caughtUp
    }

    let limit: Int
    let rule: OverflowRule
    private(set) var phase = Phase.current
    /// How many times the client overflowed.
    private(set) var overflows = 0
    private var chunks: [Chunk] = []
    private var head = 0
    private var offset = 0
    private(set) var pendingBytes = 0
    /// The part of `pendingBytes` the client asked for (answers), which the event cap does not count; the
    /// I/O loop caps it separately (`IOLoop.Limits.answerBytesSoftCap` and `answerBytesHardCap`).
    private(set) var requestedBytes = 0

    private struct Chunk {
        var bytes: [UInt8]
        /// A response, the resync line or a snapshot rather than a broadcast event.
        var isRequested: Bool
    }

    /// An empty outbox whose unsent events may hold `limit` bytes, with `rule` past it.
    init(limit: Int, rule: OverflowRule) {
        self.limit = limit
        self.rule = rule
    }

    /// Whether nothing waits to be written.
    var isEmpty: Bool { pendingBytes == 0 }

    /// Whether an event would be the next bytes written: nothing waits and events are taken. The loop then writes
    /// it at once, and queues only what the socket did not take (`enqueue(_:written:)`).
    var writesEventsAtOnce: Bool { pendingBytes == 0 && phase == .current }

    /// Queues a line subject to the cap (events), but for its first `written` bytes, which the socket took at once.
    /// - Precondition: `written` is 0 unless `writesEventsAtOnce`.
    mutating func enqueue(_ bytes: [UInt8], written: Int = 0) -> Outcome {
        precondition(written == 0 || writesEventsAtOnce, "an event written ahead of queued bytes")
        switch phase {
        case .overflowed, .resyncing, .caughtUp:
            return .skipped
        case .current:
            let eventBytes = pendingBytes - requestedBytes
            guard eventBytes + bytes.count <= limit || eventBytes == 0 else { return overflow() }
            guard written < bytes.count else { return .written }
            append(bytes, isRequested: false)
            if written > 0 {
                // The rest of a line partly written: the outbox was empty, so it is the head chunk.
                offset = written
                pendingBytes -= written
            }
            return .queued
        }
    }

    private mutating func overflow() -> Outcome {
        overflows += 1
        guard case .resynchronize(let closingAt) = rule, overflows < closingAt else { return .closes }
        dropBacklog()
        phase = .overflowed
        return .overflowed
    }

    /// Queues a line whatever the cap (responses, the resync line and snapshots): the client asked for it.
    mutating func enqueueRegardless(_ bytes: [UInt8]) {
        append(bytes, isRequested: true)
    }

    /// Queues the `resync` line after an overflow.
    mutating func beginResync(_ line: [UInt8]) {
        append(line, isRequested: true)
        phase = .resyncing
    }

    /// Back to normal after the fresh snapshot was queued.
    mutating func endResync() {
        phase = .current
    }

    /// Writes as much as `write` takes.
    ///
    /// `write` returns the number of bytes it wrote; 0 means the socket is full.
    mutating func flush(_ write: (UnsafeRawBufferPointer) throws -> Int) rethrows -> Flush {
        while head < chunks.count {
            let written = try chunks[head].bytes.withUnsafeBytes { bytes in
                try write(UnsafeRawBufferPointer(rebasing: bytes[offset...]))
            }
            if written == 0 { return .blocked }
            offset += written
            pendingBytes -= written
            if chunks[head].isRequested { requestedBytes -= written }
            if offset == chunks[head].bytes.count {
                head += 1
                offset = 0
            }
        }
        chunks.removeAll(keepingCapacity: true)
        head = 0
        guard phase == .resyncing else { return .empty }
        phase = .caughtUp
        return .caughtUp
    }

    private mutating func append(_ bytes: [UInt8], isRequested: Bool) {
        guard !bytes.isEmpty else { return }
        if head > 64, head * 2 > chunks.count {
            chunks.removeFirst(head)
            head = 0
        }
        chunks.append(Chunk(bytes: bytes, isRequested: isRequested))
        pendingBytes += bytes.count
        if isRequested { requestedBytes += bytes.count }
    }

    /// Drops the unsent events; keeps what the client asked for, and the rest of a line partly written
    /// (or the client would read a torn line).
    private mutating func dropBacklog() {
        var kept: [Chunk] = []
        for index in head..<chunks.count {
            if index == head, offset > 0 {
                kept.append(Chunk(bytes: Array(chunks[index].bytes[offset...]), isRequested: chunks[index].isRequested))
            } else if chunks[index].isRequested {
                kept.append(chunks[index])
            }
        }
        chunks = kept
        head = 0
        offset = 0
        pendingBytes = kept.reduce(0) { $0 + $1.bytes.count }
        requestedBytes = kept.reduce(0) { $0 + ($1.isRequested ? $1.bytes.count : 0) }
    }
}
