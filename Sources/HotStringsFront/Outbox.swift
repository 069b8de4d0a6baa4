/// The bytes waiting to be written to one client, with a cap and the slow-client policy.
///
/// Chunks are shared: a broadcast event is one `[UInt8]` referenced by every subscriber's outbox, so
/// 10,000 subscribers hold one copy of it. The cap counts the event bytes each client still has to read;
/// what it asked for (responses, the `resync` line, snapshots) is neither counted nor ever dropped, so a
/// snapshot bigger than the cap, or answers waiting to be read, do not make the next event an overflow.
/// A client over the cap loses its event backlog and is sent `resync` (`slow-client`) and, once it has
/// read that, a fresh snapshot; events for it are skipped until then (the snapshot replaces them).
struct Outbox {
    /// Where the client is in the slow-client policy.
    enum Phase: Equatable {
        /// Reading along.
        case current
        /// Over the cap: backlog dropped; waiting for the server to queue the `resync` line.
        case overflowed
        /// `resync` queued; once it is all written, the client gets a fresh snapshot.
        case resyncing
    }

    /// What `enqueue` did.
    enum Outcome: Equatable {
        case queued
        /// Dropped because the client is being resynchronized (a snapshot will replace it).
        case skipped
        /// The cap was crossed: the backlog is gone and the server must queue `resync`.
        case overflowed
    }

    let limit: Int
    private(set) var phase = Phase.current
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

    init(limit: Int) {
        self.limit = limit
    }

    var isEmpty: Bool { pendingBytes == 0 }

    /// Queues a line subject to the cap (events).
    mutating func enqueue(_ bytes: [UInt8]) -> Outcome {
        switch phase {
        case .overflowed, .resyncing:
            return .skipped
        case .current:
            let eventBytes = pendingBytes - requestedBytes
            guard eventBytes + bytes.count <= limit || eventBytes == 0 else {
                dropBacklog()
                phase = .overflowed
                return .overflowed
            }
            append(bytes, isRequested: false)
            return .queued
        }
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

    /// Writes as much as `write` takes; returns whether everything was written.
    ///
    /// `write` returns the number of bytes it wrote; 0 means the socket is full.
    mutating func flush(_ write: (UnsafeRawBufferPointer) throws -> Int) rethrows -> Bool {
        while head < chunks.count {
            let written = try chunks[head].bytes.withUnsafeBytes { bytes in
                try write(UnsafeRawBufferPointer(rebasing: bytes[offset...]))
            }
            if written == 0 { return false }
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
        return true
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
