/// Decides when a changed table is ready to be read: the watcher's debouncing, as a pure state machine.
///
/// The watcher tells it what happened to which key (a table's identity, `TableID`) and when; it answers with
/// the next deadline and, once a deadline has passed, the keys due for a look at the disk. It never does I/O
/// and takes the time as an argument, so it is tested with a fake clock.
///
/// - A finished write (`CLOSE_WRITE`, `MOVED_TO`) is due after a short batching window, shared by all
///   finished writes: each new one pushes the window back, up to `maximumDelay` after the first, so a
///   bulk save (`git checkout`, `rsync`, `cp -r`) becomes one batch. The key that opens a batch is offered once
///   (`takeOffer(at:)`) for a read ahead of the window: a single save is read at once, and published at once if
///   nothing else happened meanwhile (`WatchLoop+Settling`); if something did, the batch grows as without it.
///   Another file made in a watched folder while a batch is open (the next file's temporary file) holds the batch
///   until it is renamed or removed (`noteOtherFile`), up to `maximumDelay`: a writer descheduled in the middle of
///   its next file does not split its bulk save.
/// - A table only modified (a writer that keeps the file open) is due once quiet for `settleTime`.
/// - A removal is due after `settleTime`; the watcher then checks whether the file is still gone, so an
///   editor's delete-and-recreate never reports a deletion.
package struct Settler<Key: Hashable & Comparable & Sendable>: Sendable {
    /// What happened to a key's files.
    package enum Change: Sendable, Hashable {
        /// The writer is done: `CLOSE_WRITE`, `MOVED_TO`, or a file found by a scan.
        case finished
        /// Written to or created, and maybe still being written: `MODIFY`, `CREATE`, `ATTRIB`.
        case modified
        /// Gone for now: `DELETE`, `MOVED_FROM`.
        case removed
    }

    package typealias Instant = ContinuousClock.Instant

    private enum Pending: Hashable {
        /// Part of the current batch of finished writes.
        case inBatch
        /// Due at its own time.
        case alone(due: Instant)
    }

    package let configuration: SettleTiming
    private var pending: [Key: Pending] = [:]
    private var batchOpened: Instant?
    private var batchDue: Instant?
    /// How many changes were noted, ever: the watcher tells by it whether an event noted anything.
    package private(set) var noteCount = 0
    /// How many keys are `.inBatch`: a batch left with none (its keys written again) closes.
    private var batchCount = 0
    /// The read ahead of the current batch's only key (`takeOffer(at:)`).
    private var offer = Offer.none
    /// Other files made since the current batch opened and not renamed or removed yet (`noteOtherFile`).
    private var filesUnderWay: Set<String> = []
    /// Until when a tool is taken to be writing several files (`noteToolWriting(at:)`).
    private var toolWritingUntil: Instant?
    /// While a tool is taken to be writing: the key of the last batch that held it alone (`noteBatchAlone(_:at:)`).
    private var lastLoneKey: Key?

    private enum Offer: Equatable {
        case none
        /// The key that opened the batch, its only key so far: it may be read ahead.
        case open(Key)
        /// Taken for a read ahead: a finished write of the same key (and nothing else) offers it again.
        case taken(Key)

        var key: Key? {
            switch self {
            case .none: nil
            case .open(let key), .taken(let key): key
            }
        }
    }

    /// Creates a settler with no pending keys.
    package init(configuration: SettleTiming = SettleTiming()) {
        self.configuration = configuration
    }

    /// Whether nothing is waiting.
    package var isIdle: Bool { pending.isEmpty }

    /// The number of keys waiting.
    package var pendingCount: Int { pending.count }

    /// Whether `key` is waiting (it changed since it was last due).
    package func isPending(_ key: Key) -> Bool { pending[key] != nil }

    /// Makes `key` due again `delay` after `now`, on its own (a read that failed for a passing reason).
    package mutating func retry(_ key: Key, after delay: Duration, at now: Instant) {
        setPending(key, .alone(due: now + delay))
    }

    /// Records a change to `key` at `now`.
    package mutating func note(_ change: Change, to key: Key, at now: Instant) {
        noteCount &+= 1
        switch change {
        case .finished:
            setPending(key, .inBatch)
            // The same save's `CLOSE_WRITE` after its rename (`writeFileAtomically` closes after renaming), or the
            // file saved again alone, keeps the offer (a read ahead under way reads it again); any other key ends it.
            offer = batchOpened == nil || offer.key == key ? .open(key) : .none
            let opened = batchOpened ?? now
            batchOpened = opened
            batchDue = min(now + batchWindow(at: now), opened + configuration.maximumDelay)
        case .modified, .removed:
            // A modification after a finished write means the file is being written again: wait for it. Any key's
            // says more is happening than one save: no read ahead.
            offer = .none
            setPending(key, .alone(due: now + configuration.settleTime))
        }
    }

    /// Sets what `key` waits for (nothing: `nil`), keeping the batch's count, offer and window true: a batch whose
    /// last key leaves it closes, and a later finished write opens a new one.
    private mutating func setPending(_ key: Key, _ state: Pending?) {
        let wasInBatch = pending[key] == .inBatch
        let isInBatch = state == .inBatch
        pending[key] = state
        batchCount += (isInBatch ? 1 : 0) - (wasInBatch ? 1 : 0)
        guard !isInBatch else { return }
        if offer.key == key { offer = .none }
        if batchCount == 0 { closeBatch() }
    }

    private mutating func closeBatch() {
        batchOpened = nil
        batchDue = nil
        filesUnderWay.removeAll()
    }

    /// Records what happened at `now` to a file that is no table (`path`, a temporary file): made (`isMade`), or
    /// renamed away or removed.
    ///
    /// One made while a batch is open is a writer's next file under way: the batch is not due until it is renamed
    /// or removed (then a window from `now`), or until `maximumDelay` after the batch opened. A file made before the
    /// batch, or left behind, holds no other batch.
    package mutating func noteOtherFile(_ path: String, isMade: Bool, at now: Instant) {
        guard let opened = batchOpened else { return }
        if isMade {
            filesUnderWay.insert(path)
        } else if filesUnderWay.remove(path) != nil, filesUnderWay.isEmpty {
            let windowEnd = min(now + batchWindow(at: now), opened + configuration.maximumDelay)
            batchDue = max(batchDue ?? windowEnd, windowEnd)
        }
    }

    /// Takes a tool to be writing several files from `now` for `SettleTiming.readAheadHold` (it wrote several tables
    /// in one batch, or a file right after a read ahead published another): no read ahead is offered, and batches
    /// wait `SettleTiming.toolBatchWindow` for the tool's next file, so that a tool descheduled between two files
    /// by a busy machine does not see its save split.
    package mutating func noteToolWriting(at now: Instant) {
        toolWritingUntil = now + configuration.readAheadHold
        lastLoneKey = nil
    }

    /// Records that the batch of finished writes taken at `now` held `key` alone. While a tool is taken to be writing,
    /// the same key alone twice in a row is one table saved again and again (an editor's session, a script saving one
    /// file), not a tool's files, which it writes once each: the tool is done, and the hold ends, so the table's next
    /// save is read ahead instead of waiting `SettleTiming.toolBatchWindow`. A tool's batch of several keys
    /// (`noteToolWriting(at:)`) starts over; a key due on its own (a retried read, a quiet modification) counts for
    /// nothing.
    private mutating func noteBatchAlone(_ key: Key, at now: Instant) {
        guard isToolWriting(at: now) else { return }
        if key == lastLoneKey {
            toolWritingUntil = nil
            lastLoneKey = nil
        } else {
            lastLoneKey = key
        }
    }

    /// Whether a tool is taken to be writing at `now` (`noteToolWriting(at:)`).
    package func isToolWriting(at now: Instant) -> Bool {
        toolWritingUntil.map { now < $0 } ?? false
    }

    private func batchWindow(at now: Instant) -> Duration {
        isToolWriting(at: now) ? configuration.toolBatchWindow : configuration.batchWindow
    }

    /// The key of a batch that holds it alone and is not due yet, offered once per batch: the caller reads it ahead
    /// of the window and, if nothing else changed meanwhile, takes it with `take(_:)` instead of waiting.
    ///
    /// Offered once: when the read ahead is not taken (another event came), the batch grows and is due as usual;
    /// only a finished write of the same key, and nothing else, offers it again.
    package mutating func takeOffer(at now: Instant) -> Key? {
        guard case .open(let key) = offer, let due = batchDue, now < due else { return nil }
        offer = .taken(key)
        return key
    }

    /// The key offered for a read ahead (or taken for one), if any.
    package var offeredKey: Key? { offer.key }

    /// Whether a key is offered for a read ahead and not taken yet.
    package var hasOpenOffer: Bool { if case .open = offer { true } else { false } }

    /// Withdraws the offer of the current batch's key (something else happened after the write that opened it).
    ///
    /// A finished write of another key, a modification or a removal of any key withdraws it in `note`.
    package mutating func withdrawOffer() {
        offer = .none
    }

    /// Takes `key` out of what is waiting now (its read ahead is published); the batch closes when it was its last
    /// key.
    package mutating func take(_ key: Key) {
        setPending(key, nil)
    }

    /// The earliest instant at which `takeDue(at:)` will return something, or `nil` when idle.
    package var nextDeadline: Instant? {
        var earliest = batchDueAllowingWrites
        for case .alone(let due) in pending.values where earliest.map({ due < $0 }) ?? true {
            earliest = due
        }
        return earliest
    }

    /// Removes and returns the keys due at `now`, sorted; empty when none is due.
    ///
    /// When the batch of finished writes is due, keys waiting on their own that are due within the
    /// batch window join it, so one look at the disk answers them together. A batch of one key, the same as the
    /// batch before, ends a tool's hold (`noteBatchAlone(_:at:)`).
    package mutating func takeDue(at now: Instant) -> [Key] {
        var due: [Key] = []
        var batched = 0
        let batchIsDue = batchDueAllowingWrites.map { $0 <= now } ?? false
        let horizon = batchIsDue ? now + configuration.batchWindow : now
        for (key, state) in pending {
            switch state {
            case .inBatch where batchIsDue:
                due.append(key)
                batched += 1
            case .alone(let instant) where instant <= horizon:
                due.append(key)
            default:
                break
            }
        }
        for key in due { setPending(key, nil) }
        if batchIsDue {
            closeBatch()
            offer = .none
            if batched == 1, due.count == 1 { noteBatchAlone(due[0], at: now) }
        }
        return due.sorted()
    }

    /// When the batch is due: its window's end, or while another file is under way, `maximumDelay` after it opened.
    private var batchDueAllowingWrites: Instant? {
        guard !filesUnderWay.isEmpty, let opened = batchOpened else { return batchDue }
        return opened + configuration.maximumDelay
    }

    /// Forgets everything pending (after a full rescan has made it moot).
    package mutating func reset() {
        pending.removeAll()
        batchCount = 0
        closeBatch()
        offer = .none
    }
}

/// The settler's timing rules; the defaults are documented in docs/GUIDE.md, "How the watcher settles changes".
package struct SettleTiming: Sendable, Hashable {
    /// How long after the last finished write a batch waits for more.
    package var batchWindow: Duration
    /// How long a table must be quiet after a plain modification or a removal.
    package var settleTime: Duration
    /// The longest a finished write waits for the batch to close.
    package var maximumDelay: Duration
    /// How long a single save read ahead of the batch window waits, from its event, for another event before it is
    /// published: a tool writing several files starts the next one's temporary file within it (about 40 µs after the
    /// last rename here), so a bulk save is not cut after its first file.
    package var readAheadQuiet: Duration
    /// How long the read ahead stays off after it cut a bulk save (an event came within the batch window after it
    /// published) or a batch of several tables was published: while a tool keeps writing, its saves wait for the
    /// window and are one batch each. It ends early when one table settles alone twice in a row
    /// (`Settler.takeDue(at:)`): the tool is done, and the table is saved again and again.
    package var readAheadHold: Duration

    /// How long the read ahead of a table not read ahead within the last minute waits for another event: the first
    /// save of a table in a while may be a tool's first file of several (its next file can take a few hundred
    /// microseconds to show), while a table saved again is an editor's session (`readAheadQuiet`). The batch window,
    /// at most 0.5 ms, and at least `readAheadQuiet`.
    package var firstSaveQuiet: Duration { max(readAheadQuiet, min(batchWindow, .microseconds(500))) }

    /// The batch window while a tool is writing several files (`Settler.noteToolWriting(at:)`): twenty times the
    /// batch window (10 ms by default), at most `maximumDelay`. A busy machine deschedules a writer for a few
    /// milliseconds at a time, often right after the rename that woke the watcher; only the tool's own saves wait
    /// for it, a single save is read ahead.
    package var toolBatchWindow: Duration { min(batchWindow * 20, maximumDelay) }

    /// Creates a configuration.
    package init(
        batchWindow: Duration = .microseconds(500),
        settleTime: Duration = .milliseconds(50),
        maximumDelay: Duration = .milliseconds(100),
        readAheadQuiet: Duration = .microseconds(100),
        readAheadHold: Duration = .seconds(1)
    ) {
        self.batchWindow = batchWindow
        self.settleTime = settleTime
        self.maximumDelay = maximumDelay
        self.readAheadQuiet = readAheadQuiet
        self.readAheadHold = readAheadHold
    }
}
