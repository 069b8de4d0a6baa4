/// The bytes waiting to be written to one client, with a cap and the slow-client policy.
///
/// Chunks are shared: a broadcast event is one `[UInt8]` referenced by every subscriber's outbox, so
/// 10,000 subscribers hold one copy of it. The cap counts the bytes each client still has to read.
/// A client over the cap loses its backlog and is sent `resync` (`slow-client`) and, once it has
/// read that, a fresh snapshot; a client that overflows again before it has caught up is closed.
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
        /// The cap was crossed again while catching up: close the connection.
        case hopeless
    }

    let limit: Int
    private(set) var phase = Phase.current
    private var chunks: [[UInt8]] = []
    private var head = 0
    private var offset = 0
    private(set) var pendingBytes = 0

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
            guard pendingBytes + bytes.count <= limit || pendingBytes == 0 else {
                dropBacklog()
                phase = .overflowed
                return .overflowed
            }
            append(bytes)
            return .queued
        }
    }

    /// Queues a line whatever the cap (responses, the resync line and snapshots): the client asked for it.
    mutating func enqueueRegardless(_ bytes: [UInt8]) {
        append(bytes)
    }

    /// Queues the `resync` line after an overflow.
    mutating func beginResync(_ line: [UInt8]) {
        append(line)
        phase = .resyncing
    }

    /// Back to normal after the fresh snapshot was queued.
    mutating func endResync() {
        phase = .current
    }

    /// Whether a second overflow happened while catching up (checked when queuing more for a resyncing client).
    mutating func overflowWhileResyncing(_ extra: Int) -> Bool {
        phase == .resyncing && pendingBytes + extra > limit
    }

    /// Writes as much as `write` takes; returns whether everything was written.
    ///
    /// `write` returns the number of bytes it wrote; 0 means the socket is full.
    mutating func flush(_ write: (UnsafeRawBufferPointer) throws -> Int) rethrows -> Bool {
        while head < chunks.count {
            let written = try chunks[head].withUnsafeBytes { bytes in
                try write(UnsafeRawBufferPointer(rebasing: bytes[offset...]))
            }
            if written == 0 { return false }
            offset += written
            pendingBytes -= written
            if offset == chunks[head].count {
                head += 1
                offset = 0
            }
        }
        chunks.removeAll(keepingCapacity: true)
        head = 0
        return true
    }

    private mutating func append(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        if head > 64, head * 2 > chunks.count {
            chunks.removeFirst(head)
            head = 0
        }
        chunks.append(bytes)
        pendingBytes += bytes.count
    }

    private mutating func dropBacklog() {
        // A line partly written must be finished, or the client would read a torn line.
        if head < chunks.count, offset > 0 {
            let rest = Array(chunks[head][offset...])
            chunks = [rest]
            pendingBytes = rest.count
        } else {
            chunks = []
            pendingBytes = 0
        }
        head = 0
        offset = 0
    }
}
