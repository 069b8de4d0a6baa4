import BundleChanges
import Glibc
import LinuxSystem
import StringsFormat
import Testing
@testable import BundleWatcher

/// A single save is read at its first finished write, ahead of the batch window, and published at once when nothing
/// else happened meanwhile (issue 26); a bulk save is still one batch. Driven through the watch loop with a batch
/// window of an hour, so that only the read ahead can publish before the window, and each race is the same on every
/// run: the test makes its writes when the loop asks for the events queued after its read.
@Suite struct WatchLoopReadAheadTests {
    static let hour = Duration.seconds(3600)

    /// A watch loop on `bundle`, not started, whose batch window and settle time are an hour; and its inotify
    /// instance, which the test reads itself.
    static func loop(on bundle: TestBundle) throws -> (WatchLoop, Inotify) {
        let inotify = try Inotify()
        let timing = SettleTiming(batchWindow: hour, settleTime: hour, maximumDelay: hour, readAheadHold: hour * 1000)
        let reader = TableReader(root: bundle.root, maximumFileSize: 1 << 20, parallelThreshold: 1_000,
                                 followsExternalSymlinks: false)
        return (WatchLoop(root: bundle.root, inotify: inotify, reader: reader, settler: Settler(configuration: timing)),
                inotify)
    }

    static let tables = (1...5).map { "en.lproj/T\($0).strings" }

    /// A bundle of the five `tables` and a loop started on it.
    static func startedOnFiveTables() throws -> (TestBundle, WatchLoop, Inotify) {
        let bundle = try TestBundle(Dictionary(uniqueKeysWithValues: tables.map { ($0, stringsText(["k": "0"])) }))
        let (loop, inotify) = try Self.loop(on: bundle)
        #expect(loop.start().seen.count == 5)
        return (bundle, loop, inotify)
    }

    /// One step of `loop` at `instant`: the events queued by now, then what it publishes (nil: nothing).
    static func step(_ loop: WatchLoop, _ inotify: Inotify, at instant: ContinuousClock.Instant) throws
        -> [String: Seen]? {
        loop.handle(try inotify.readEvents(), at: instant)
        return loop.takeSettled(at: instant) { () throws(SystemError) in try inotify.readEvents() }?.seen
    }

    /// What `loop` publishes at `instant`, or at the later instants its retries are due when a read found a writer:
    /// a process spawned by a test running in parallel holds every descriptor of this process until its exec, which
    /// on a loaded machine can outlast a step. Each retry is an hour later on the loop's clock (and 20 ms on the
    /// real one); after `heldQuietTime` (ten settle times) a file held open but quiet is published anyway, so this
    /// ends with what the file holds.
    static func settled(_ loop: WatchLoop, _ inotify: Inotify, at instant: ContinuousClock.Instant) throws
        -> ChangeBatch?
    {
        var now = instant
        for retry in 0...12 {
            if retry > 0 {
                usleep(20_000)
                now = now + hour
                loop.handle(try inotify.readEvents(), at: now)
            }
            if let batch = loop.takeSettled(at: now, queuedEvents: { () throws(SystemError) in try inotify.readEvents() }) {
                return batch
            }
        }
        return nil
    }

    /// A read that found another process holding the file open for writing is not published (a test running in
    /// parallel that spawns a process lends it every descriptor until its exec, which on a loaded machine can take
    /// longer than a few saves), and its retry is due a settle time (an hour) later, with the key pending: a save
    /// made again would join it instead of opening a batch alone. So each attempt is a new loop on the bundle, until
    /// one save is read with no writer or the deadline passes.
    @Test func aSingleSaveIsPublishedWithoutWaitingForTheWindow() throws {
        let bundle = try TestBundle()
        var published: [String: Seen]?
        let deadline = ContinuousClock.now + .seconds(60)
        var attempt = 0
        while published == nil, ContinuousClock.now < deadline {
            attempt += 1
            if attempt > 1 { usleep(20_000) }
            let (loop, inotify) = try Self.loop(on: bundle)
            #expect(loop.start().seen.count == 4)
            try bundle.save("de.lproj/Localizable.strings", stringsText(["greeting": "Servus \(attempt)"]))
            let start = ContinuousClock.now
            loop.handle(try inotify.readEvents(), at: start)
            published = loop.takeSettled(at: start) { () throws(SystemError) in try inotify.readEvents() }?.seen
            if let published {
                #expect(published == ["de.lproj/Localizable.strings": .parsed(["greeting": "Servus \(attempt)"])])
                #expect(loop.nextDeadline == nil, "nothing is left waiting")
            }
        }
        #expect(published != nil, "published at once, without the window of an hour")
    }

    /// A save read while its writer still holds the file is read again a settle time later; when the writer's close
    /// comes while that retry reads the file (after the loop looked for a read ahead), the close offers the key for
    /// a read ahead: the loop looks again at once instead of at the end of the batch window. (On the watcher's
    /// thread the save waited for the window: an hour in `WatcherReadAheadTests`, 1 of 9 looped runs.)
    @Test func aCloseThatComesDuringARetryIsReadAheadAtOnce() throws {
        let bundle = try TestBundle()
        let (loop, inotify) = try Self.loop(on: bundle)
        #expect(loop.start().seen.count == 4)
        let path = "de.lproj/Localizable.strings"
        try bundle.save(path, stringsText(["greeting": "Servus"]))
        var writer = open(bundle.path(path), O_WRONLY | O_CLOEXEC)
        try #require(writer >= 0)
        defer { if writer >= 0 { close(writer) } }
        let start = ContinuousClock.now
        loop.handle(try inotify.readEvents(), at: start)
        #expect(loop.takeSettled(at: start) { () throws(SystemError) in try inotify.readEvents() } == nil,
                "a writer holds it: not published")
        // The retry, a settle time later: the writer closes the file while the retry reads it.
        let retry = start + Self.hour
        var asked = 0
        let early = loop.takeSettled(at: retry) { () throws(SystemError) in
            asked += 1
            if asked == 2 {
                close(writer)
                writer = -1
            }
            return try inotify.readEvents()
        }
        #expect(asked == 2)
        #expect(early == nil, "what the retry read while the file was held is not published")
        #expect(loop.nextDeadline.map { $0 <= ContinuousClock.now } == true, "looked at again at once")
        let batch = try Self.settled(loop, inotify, at: retry)
        #expect(batch?.seen == [path: .parsed(["greeting": "Servus"])])
    }

    /// The other four files of a bulk save come while the first one is read ahead: the read is dropped and the five
    /// are one batch, when the window closes. The first file's read may find another process holding it open for
    /// writing (a test running in parallel that spawns a process lends it every descriptor until its exec): that read
    /// is retried a settle time later, so the first file comes in a batch of its own after the other four. Such an
    /// attempt is made again on a new loop, until one is read with no writer or the deadline passes.
    @Test func aBulkSaveWhoseFilesComeDuringTheReadAheadIsOneBatch() throws {
        let expected = Dictionary(uniqueKeysWithValues: Self.tables.map { ($0, Seen.parsed(["k": "1"])) })
        let deadline = ContinuousClock.now + .seconds(60)
        while true {
            let bundle = try TestBundle(
                Dictionary(uniqueKeysWithValues: Self.tables.map { ($0, stringsText(["k": "0"])) }))
            let (loop, inotify) = try Self.loop(on: bundle)
            #expect(loop.start().seen.count == 5)
            try bundle.save(Self.tables[0], stringsText(["k": "1"]))
            let start = ContinuousClock.now
            loop.handle(try inotify.readEvents(), at: start)
            // The loop asks for queued events before it reads ahead, once it has read ahead, and once it has read what
            // is due (nothing, here).
            var asked = 0
            let early = loop.takeSettled(at: start) { () throws(SystemError) in
                asked += 1
                if asked == 2 {
                    for table in Self.tables.dropFirst() { try bundle.saveRaw(table, stringsText(["k": "1"])) }
                }
                return try inotify.readEvents()
            }
            #expect(asked == 3)
            #expect(early.map { "\($0.seen)" } == nil, "nothing published before the window closes")
            let batch = try Self.settled(loop, inotify, at: start + Self.hour)
            let isHeldRead = batch.map { $0.seen.count < 5 && $0.seen.allSatisfy { expected[$0.key] == $0.value } }
                ?? false
            if isHeldRead, ContinuousClock.now < deadline,
               let rest = try Self.settled(loop, inotify, at: start + Self.hour * 3),
               rest.seen.merging(batch?.seen ?? [:], uniquingKeysWith: { $1 }) == expected {
                continue  // the first file's read was retried: its batch came after the others', whole
            }
            #expect(batch?.seen == expected, "the five files in one batch")
            #expect(loop.nextDeadline == nil, "nothing follows")
            return
        }
    }

    /// The other files of a bulk save come just after the read ahead published the first (a writer slower than the
    /// read and its quiet time): that save is cut in two, but the read ahead is held back, so the tool's next save
    /// (here a single file, written while the hold lasts) waits for the window; once the hold is over, a single save
    /// is read ahead again.
    @Test func aBulkSaveCutByTheReadAheadHoldsItBack() throws {
        let (bundle, loop, inotify) = try Self.startedOnFiveTables()
        func step(_ at: ContinuousClock.Instant) throws -> [String: Seen]? { try Self.step(loop, inotify, at: at) }
        // Saved again (pausing in between, until a deadline) while a read finds a writer: a process spawned by a
        // test running in parallel holds every descriptor until its exec, which can take a while on a loaded machine.
        // The held read's retry is due a settle time later with the key pending (a save made again would join it), so
        // it is stepped through first, and the next attempt is a day later on the loop's clock. Returns what was read
        // ahead and when.
        func saveUntilReadAhead(_ text: String, at instant: ContinuousClock.Instant) throws
            -> (seen: [String: Seen]?, at: ContinuousClock.Instant)
        {
            let deadline = ContinuousClock.now + .seconds(60)
            var now = instant
            while ContinuousClock.now < deadline {
                try bundle.save(Self.tables[0], text)
                if let published = try step(now) { return (published, now) }
                _ = try Self.settled(loop, inotify, at: now + Self.hour)
                usleep(20_000)
                now = now + Self.hour * 24
            }
            return (nil, now)
        }
        let (first, start) = try saveUntilReadAhead(stringsText(["k": "1"]), at: ContinuousClock.now)
        #expect(first == [Self.tables[0]: .parsed(["k": "1"])], "read ahead")
        for table in Self.tables.dropFirst() { try bundle.save(table, stringsText(["k": "1"])) }
        #expect(try step(start + .milliseconds(1)) == nil, "the rest waits for the window")
        loop.handle(try inotify.readEvents(), at: start + Self.hour * 2)
        let rest = try Self.settled(loop, inotify, at: start + Self.hour * 2)?.seen
        #expect(rest?.count == 4, "the rest in one batch")

        let held = start + Self.hour * 100
        try bundle.save(Self.tables[0], stringsText(["k": "2"]))
        #expect(try step(held) == nil, "held back: no read ahead")
        loop.handle(try inotify.readEvents(), at: held + Self.hour * 2)
        #expect(try Self.settled(loop, inotify, at: held + Self.hour * 2)?.seen == [Self.tables[0]: .parsed(["k": "2"])],
                "at the window")

        let later = start + Self.hour * 2000
        #expect(try saveUntilReadAhead(stringsText(["k": "3"]), at: later).seen == [Self.tables[0]: .parsed(["k": "3"])],
                "read ahead again once the hold is over")
    }

    /// After a tool's bulk save, one table saved again and again on its own (an editor's session; the serve
    /// benchmark's fan-out saves, every few milliseconds) waits for the tool's window twice, then is read ahead again,
    /// long before the hold would have ended (a thousand hours here).
    @Test func aTableSavedAloneAgainAndAgainAfterABulkSaveIsReadAheadAgain() throws {
        let (bundle, loop, inotify) = try Self.startedOnFiveTables()
        func step(_ at: ContinuousClock.Instant) throws -> [String: Seen]? { try Self.step(loop, inotify, at: at) }
        for table in Self.tables { try bundle.saveRaw(table, stringsText(["k": "1"])) }
        var now = ContinuousClock.now
        #expect(try step(now) == nil, "a bulk save waits for the window")
        var published: [String: Seen] = [:]
        while published.count < Self.tables.count, let batch = try Self.settled(loop, inotify, at: now + Self.hour) {
            published.merge(batch.seen) { $1 }
            now = now + Self.hour * 20
        }
        #expect(published.count == Self.tables.count)
        #expect(loop.settler.isToolWriting(at: now), "a tool's batch holds the read ahead back")

        for round in 2...3 {
            now = now + Self.hour * 100
            try bundle.save(Self.tables[0], stringsText(["k": "\(round)"]))
            #expect(try step(now) == nil, "round \(round): held back")
            #expect(try Self.settled(loop, inotify, at: now + Self.hour)?.seen == [Self.tables[0]: .parsed(["k": "\(round)"])])
        }
        #expect(!loop.settler.isToolWriting(at: now + Self.hour * 2), "the same table alone twice: the tool is done")

        // Its next save is read ahead (saved again a day later on the loop's clock while a read finds a writer: a
        // process spawned by a test running in parallel holds every descriptor until its exec).
        let deadline = ContinuousClock.now + .seconds(60)
        var readAhead: [String: Seen]?
        var round = 4
        while readAhead == nil, ContinuousClock.now < deadline {
            now = now + Self.hour * 24
            try bundle.save(Self.tables[0], stringsText(["k": "\(round)"]))
            readAhead = try step(now)
            if readAhead == nil {
                _ = try Self.settled(loop, inotify, at: now + Self.hour)
                usleep(20_000)
                round += 1
            }
        }
        #expect(readAhead == [Self.tables[0]: .parsed(["k": "\(round)"])], "read ahead, without the window")
    }

    /// Another event of any kind after the write that opened the batch (here the next file's temporary file, in
    /// the same read of events) means more is coming: no read ahead, the batch waits for its window.
    @Test func anyOtherEventAfterTheFirstWriteWaitsForTheWindow() throws {
        let bundle = try TestBundle()
        let (loop, inotify) = try Self.loop(on: bundle)
        #expect(loop.start().seen.count == 4)
        try bundle.save("de.lproj/Localizable.strings", stringsText(["greeting": "Servus"]))
        try writeText("next", toPath: bundle.path("de.lproj/.InfoPlist.strings.tmp"))
        let start = ContinuousClock.now
        loop.handle(try inotify.readEvents(), at: start)
        var asked = 0
        let early = loop.takeSettled(at: start) { () throws(SystemError) in
            asked += 1
            return try inotify.readEvents()
        }
        #expect(early.map { "\($0.seen)" } == nil)
        #expect(asked == 2, "no read ahead: one look before the batch and one after its (empty) read")
        let batch = try Self.settled(loop, inotify, at: start + Self.hour)
        #expect(batch?.seen == ["de.lproj/Localizable.strings": .parsed(["greeting": "Servus"])])
    }

    /// A writer that truncates the file and starts writing it again after the finished write that opened the batch,
    /// before the read ahead: it is still writing while the file is read. What the read found is never published,
    /// the writer's whole version is, once it closes the file.
    @Test func aFileStillBeingWrittenWhenTheReadAheadStartsIsNotPublished() throws {
        let bundle = try TestBundle()
        let path = bundle.path("en.lproj/Localizable.strings")
        let (loop, inotify) = try Self.loop(on: bundle)
        #expect(loop.start().seen.count == 4)
        try writeText(stringsText(["greeting": "Hi"]), toPath: path)
        let start = ContinuousClock.now
        loop.handle(try inotify.readEvents(), at: start)

        let writer = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC)
        try #require(writer >= 0)
        var isOpen = true
        defer { if isOpen { close(writer) } }
        let whole = Array(stringsText(["greeting": "Hey", "farewell": "Bye"]).utf8)
        let half = whole.count / 2
        var asked = 0
        let early = loop.takeSettled(at: start) { () throws(SystemError) in
            asked += 1
            // Before the read ahead: the writer's truncate and first half, its events left in the kernel's queue.
            if asked == 1 { #expect(whole.withUnsafeBytes { write(writer, $0.baseAddress, half) } == half) }
            return asked == 1 ? [] : try inotify.readEvents()
        }
        #expect(asked == 3)
        #expect(early.map { "\($0.seen)" } == nil, "the half-written file is not published")

        let rest = whole.count - half
        #expect(whole.withUnsafeBytes { write(writer, $0.baseAddress! + half, rest) } == rest)
        close(writer)
        isOpen = false
        let later = start + .milliseconds(1)
        loop.handle(try inotify.readEvents(), at: later)
        let batch = try Self.settled(loop, inotify, at: later)
        #expect(batch?.seen == ["en.lproj/Localizable.strings": .parsed(["greeting": "Hey", "farewell": "Bye"])],
                "the whole version, read ahead once the writer closed the file")
    }

    /// A tool descheduled while it writes its next file (made, written and closed, not yet renamed over its table)
    /// long after the batch window: the batch waits for it, and both tables are one batch.
    @Test func aToolsNextFileUnderWayHoldsItsBatch() throws {
        let bundle = try TestBundle(Dictionary(uniqueKeysWithValues: Self.tables.map { ($0, stringsText(["k": "0"])) }))
        let inotify = try Inotify()
        let timing = SettleTiming(batchWindow: Self.hour, settleTime: Self.hour, maximumDelay: Self.hour * 10)
        let reader = TableReader(root: bundle.root, maximumFileSize: 1 << 20, parallelThreshold: 1_000,
                                 followsExternalSymlinks: false)
        let loop = WatchLoop(root: bundle.root, inotify: inotify, reader: reader,
                             settler: Settler(configuration: timing))
        #expect(loop.start().seen.count == 5)
        let temporary = bundle.path("en.lproj/.T2.strings.tmp")
        try bundle.save(Self.tables[0], stringsText(["k": "1"]))
        try writeText(stringsText(["k": "1"]), toPath: temporary)
        let start = ContinuousClock.now
        loop.handle(try inotify.readEvents(), at: start)
        func step(_ at: ContinuousClock.Instant) throws -> ChangeBatch? {
            loop.handle(try inotify.readEvents(), at: at)
            return loop.takeSettled(at: at) { () throws(SystemError) in try inotify.readEvents() }
        }
        #expect(try step(start).map { "\($0.seen)" } == nil, "the temporary file's events: no read ahead")
        #expect(try step(start + Self.hour * 2).map { "\($0.seen)" } == nil, "the window is over, the next file not")
        try FileSystem.rename(temporary, to: bundle.path(Self.tables[1]))
        let renamed = start + Self.hour * 3
        loop.handle(try inotify.readEvents(), at: renamed)
        #expect(try step(renamed + .seconds(1)).map { "\($0.seen)" } == nil, "a window from the rename")
        let batch = try Self.settled(loop, inotify, at: renamed + Self.hour)
        #expect(batch?.seen == [Self.tables[0]: .parsed(["k": "1"]), Self.tables[1]: .parsed(["k": "1"])])
    }

    /// A table read ahead within the last minute is an editor's session: its next save waits the short quiet time.
    /// Any other table's save may be a tool's first file of several: it waits `firstSaveQuiet` (the batch window, at
    /// most 0.5 ms). The tables remembered are bounded.
    @Test func aTableSavedAgainWaitsTheShortQuietTimeAndAFirstSaveTheLongerOne() throws {
        #expect(SettleTiming().firstSaveQuiet == .microseconds(500))
        #expect(SettleTiming(batchWindow: .microseconds(200)).firstSaveQuiet == .microseconds(200))
        #expect(SettleTiming(readAheadQuiet: .milliseconds(2)).firstSaveQuiet == .milliseconds(2))
        let bundle = try TestBundle()
        let (loop, _) = try Self.loop(on: bundle)
        let (table, other) = (SettleKey.table(TableID(language: LanguageTag("en")!, table: "A")),
                              SettleKey.table(TableID(language: LanguageTag("en")!, table: "B")))
        let start = ContinuousClock.now
        #expect(loop.quietTime(readingAhead: table, at: start) == .microseconds(500))
        loop.noteRecentReadAhead(table, at: start)
        #expect(loop.quietTime(readingAhead: table, at: start + .seconds(59)) == .microseconds(100))
        #expect(loop.quietTime(readingAhead: other, at: start + .seconds(1)) == .microseconds(500))
        #expect(loop.quietTime(readingAhead: table, at: start + .seconds(60)) == .microseconds(500), "a minute on")
        for index in 0..<100 {
            loop.noteRecentReadAhead(.table(TableID(language: LanguageTag("en")!, table: "T\(index)")), at: start + .seconds(index))
        }
        #expect(loop.recentReadAheads.count <= WatchLoop.recentReadAheadLimit)
        #expect(loop.quietTime(readingAhead: .table(TableID(language: LanguageTag("en")!, table: "T99")), at: start + .seconds(100))
                    == .microseconds(100), "the latest are kept")
    }

    /// A tool's first file, whose next file shows 0.3 ms after it (here while the loop waits for the quiet time): the
    /// first save of a table waits long enough to see it, and the files are one batch; a table saved again, whose
    /// writer shows nothing within the short quiet time, is published at once.
    @Test func aToolsFirstFileWaitsForItsNextOne() throws {
        let bundle = try TestBundle(Dictionary(uniqueKeysWithValues: Self.tables.map { ($0, stringsText(["k": "0"])) }))
        let (loop, inotify) = try Self.loop(on: bundle)
        #expect(loop.start().seen.count == 5)
        // The loop's clock runs a minute ahead of the real one, so that the quiet time is always waited for, however
        // long the read took; the wait itself returns at once.
        var waits: [Duration] = []
        var now = ContinuousClock.now + .seconds(60)
        loop.waitForEvents = { deadline in
            waits.append(deadline - now)
            // The writer's next file shows 0.3 ms after the first one's event.
            if deadline - now >= .microseconds(300) {
                try? writeText(stringsText(["k": "1"]), toPath: bundle.path("en.lproj/.T2.strings.tmp"))
            }
        }
        try bundle.save(Self.tables[0], stringsText(["k": "1"]))
        loop.handle(try inotify.readEvents(), at: now)
        let early = loop.takeSettled(at: now) { () throws(SystemError) in try inotify.readEvents() }
        #expect(early.map { "\($0.seen)" } == nil, "the next file showed within the first save's quiet time")
        #expect(waits.first == .microseconds(500))
        try FileSystem.rename(bundle.path("en.lproj/.T2.strings.tmp"), to: bundle.path(Self.tables[1]))
        let renamed = now + .milliseconds(1)
        loop.handle(try inotify.readEvents(), at: renamed)
        let batch = try Self.settled(loop, inotify, at: renamed + Self.hour)
        #expect(batch?.seen == [Self.tables[0]: .parsed(["k": "1"]), Self.tables[1]: .parsed(["k": "1"])])

        // Once read ahead, a table saved again waits the short quiet time (no next file shows within it).
        now = renamed + Self.hour * 3000
        loop.noteRecentReadAhead(Self.key(Self.tables[0]), at: now - .seconds(1))
        waits = []
        try bundle.save(Self.tables[0], stringsText(["k": "2"]))
        loop.handle(try inotify.readEvents(), at: now)
        _ = loop.takeSettled(at: now) { () throws(SystemError) in try inotify.readEvents() }
        #expect(waits.first == .microseconds(100))
    }

    static func key(_ table: String) -> SettleKey {
        let name = table.split(separator: "/").last.map(String.init) ?? table
        return .table(TableID(language: LanguageTag("en")!, table: String(name.dropLast(".strings".count))))
    }
}

extension TestBundle {
    /// Replaces a file atomically, as `save` does, but throwing `SystemError` (inside a typed-throws closure).
    func saveRaw(_ relative: String, _ text: String) throws(SystemError) {
        try FileSystem.writeFileAtomically(Array(text.utf8), toPath: path(relative))
    }
}

/// The read ahead on the watcher's own thread, with real saves.
@Suite struct WatcherReadAheadTests {
    /// With a batch window and a longest delay far beyond the test's wait, only the read ahead can publish a save.
    @Test func aSingleSaveIsPublishedWithoutWaitingForAnotherEvent() throws {
        let session = try WatchSession(TestBundle()) {
            $0.settling = SettleTiming(batchWindow: .seconds(3600), settleTime: .milliseconds(30),
                                       maximumDelay: .seconds(3600))
        }
        // One save: a second one within the window of an hour would be a bulk save's next file to the read ahead.
        let start = session.log.count
        try session.bundle.save("de.lproj/Localizable.strings", stringsText(["greeting": "Servus"]))
        try session.waitFor("de.lproj/Localizable.strings", .parsed(["greeting": "Servus"]), from: start)
    }

    /// A writer that pauses between the files of a bulk save longer than the default quiet time (0.1 ms) but within
    /// a longer one (`--read-ahead-quiet`): its first file's read ahead is dropped when the second shows, and the five
    /// files are one batch.
    @Test func aLongerQuietTimeKeepsAPausingWritersBulkSaveWhole() throws {
        let tables = WatchLoopReadAheadTests.tables
        let session = try WatchSession(TestBundle(Dictionary(uniqueKeysWithValues: tables.map {
            ($0, stringsText(["k": "0"]))
        }))) {
            $0.settling = SettleTiming(batchWindow: .seconds(2), settleTime: .milliseconds(30),
                                       maximumDelay: .seconds(3600), readAheadQuiet: .seconds(1))
        }
        try Self.expectOneBatch(saving: tables, as: "1", pausing: 10_000, in: session)
    }

    /// Saves `tables` with `k` = `value`, pausing `pause` µs after each, and expects them to be published in one batch.
    static func expectOneBatch(saving tables: [String], as value: String, pausing pause: useconds_t,
                               in session: WatchSession, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let start = session.log.count
        for table in tables {
            try session.bundle.save(table, stringsText(["k": value]))
            usleep(pause)
        }
        let index = try session.log.waitForBatch(from: start, "the bulk save") { !$0.updates.isEmpty }
        let expected = Dictionary(uniqueKeysWithValues: tables.map { ($0, Seen.parsed(["k": value])) })
        #expect(session.log.all[index].seen == expected, "the files in one batch, \(pause) µs apart",
                sourceLocation: sourceLocation)
    }

    /// Once a tool is seen writing several files, its next saves wait `toolBatchWindow` (twenty batch windows) for
    /// its next file: a writer pausing between files longer than the batch window (as a busy machine deschedules it
    /// for a few milliseconds at a time) still sees each bulk save as one batch.
    @Test func aToolSeenWritingHasItsPausingBulkSaveWhole() throws {
        let tables = WatchLoopReadAheadTests.tables
        let session = try WatchSession(TestBundle(Dictionary(uniqueKeysWithValues: tables.map {
            ($0, stringsText(["k": "0"]))
        }))) {
            $0.settling = SettleTiming(batchWindow: .milliseconds(50), settleTime: .milliseconds(30),
                                       maximumDelay: .seconds(3600))
        }
        let timing = SettleTiming(batchWindow: .milliseconds(50), maximumDelay: .seconds(3600))
        #expect(timing.toolBatchWindow == .seconds(1))
        for table in tables { try session.bundle.save(table, stringsText(["k": "1"])) }
        try session.log.waitForTables("the first bulk save") { seen in
            tables.allSatisfy { seen[$0] == .parsed(["k": "1"]) }
        }
        try Self.expectOneBatch(saving: tables, as: "2", pausing: 150_000, in: session)
    }

    /// Five files saved while the watcher does not read events (as if it were busy): its next read sees them all,
    /// and they are one batch.
    @Test func aBulkSaveOfFiveFilesIsOneBatch() throws {
        let tables = WatchLoopReadAheadTests.tables
        let session = try WatchSession(TestBundle(Dictionary(uniqueKeysWithValues: tables.map {
            ($0, stringsText(["k": "0"]))
        })))
        let start = session.log.count
        session.watcher.pauseReading()
        for table in tables { try session.bundle.save(table, stringsText(["k": "1"])) }
        try session.watcher.resumeReading()
        let index = try session.log.waitForBatch(from: start, "the bulk save") { !$0.updates.isEmpty }
        let expected = Dictionary(uniqueKeysWithValues: tables.map { ($0, Seen.parsed(["k": "1"])) })
        #expect(session.log.all[index].seen == expected, "the five files in one batch")
        let after = try session.flush()
        #expect(session.log.effectiveChanges(in: (index + 1)..<after) == [], "nothing else")
    }
}
