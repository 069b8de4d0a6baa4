import BundleChanges
import Dispatch
import Foundation
import HotStringsTestSupport
import LinuxSystem
import StringsFormat
import Synchronization
import Testing
@testable import BundleWatcher

/// The longest any test waits for the watcher; a passing test never comes close.
let waitLimit: Duration = .seconds(5)

/// What a test sees of a table after a batch: comparable, unlike `TableUpdate.Content`.
enum Seen: Equatable, CustomStringConvertible {
    case parsed([String: String])
    /// A catalog: each language's keys with their plain texts (a rule's `other` text).
    case catalog([String: [String: String]])
    case failed(FileProblem)
    case removed

    init(_ content: TableUpdate.Content) {
        switch content {
        case .parsed(let table): self = .parsed(table.strings.dictionary)
        case .catalog(let catalog):
            self = .catalog(Dictionary(uniqueKeysWithValues: catalog.tables.map { language, table in
                (language.identifier, Dictionary(table.entries.map { ($0.key, $0.value.plainText) },
                                                 uniquingKeysWith: { $1 }))
            }))
        case .failed(let problem): self = .failed(problem)
        case .removed: self = .removed
        }
    }

    var problem: FileProblem? {
        if case .failed(let problem) = self { problem } else { nil }
    }

    var description: String {
        switch self {
        case .parsed(let entries): "parsed \(entries.sorted { $0.key < $1.key })"
        case .catalog(let languages): "catalog \(languages.sorted { $0.key < $1.key })"
        case .failed(let problem): "failed \(problem)"
        case .removed: "removed"
        }
    }
}

/// A table whose content changed, and what it became.
struct SeenChange: Equatable, CustomStringConvertible {
    var path: String
    var seen: Seen

    init(_ path: String, _ seen: Seen) {
        self.path = path
        self.seen = seen
    }

    var description: String { "\(path): \(seen)" }
}

extension ChangeBatch {
    /// The changes by relative path (`de.lproj/Localizable.strings`).
    var seen: [String: Seen] {
        Dictionary(updates.map { ($0.file, Seen($0.content)) }, uniquingKeysWith: { $1 })
    }
}

/// The text of a `.strings` file holding `entries`, sorted by key.
func stringsText(_ entries: [String: String]) -> String {
    entries.sorted { $0.key < $1.key }.map { "\"\($0.key)\" = \"\($0.value)\";\n" }.joined()
}

/// Writes `text` to the file at the absolute `path`, in place.
func writeText(_ text: String, toPath path: String) throws {
    try FileSystem.writeFile(Array(text.utf8), toPath: path)
}

/// Collects the batches a watcher delivers, and waits for conditions on them.
final class BatchLog: Sendable {
    private let batches = Mutex<[ChangeBatch]>([])
    private let arrived = DispatchSemaphore(value: 0)

    /// Called on the watcher's thread.
    func append(_ batch: ChangeBatch) {
        batches.withLock { $0.append(batch) }
        arrived.signal()
    }

    /// Every batch so far, in order.
    var all: [ChangeBatch] { batches.withLock { $0 } }

    /// How many batches have arrived.
    var count: Int { batches.withLock { $0.count } }

    /// Waits until `condition` returns a value for the batches so far.
    func wait<Value>(for what: String, _ condition: ([ChangeBatch]) -> Value?) throws -> Value {
        let deadline = ContinuousClock.now + waitLimit
        while true {
            if let value = condition(all) { return value }
            let left = deadline - .now
            guard left > .zero else {
                throw TimedOut(description: "timed out waiting for \(what); batches: \(all.map(\.seen))")
            }
            let (seconds, attoseconds) = left.components
            let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
            _ = arrived.wait(timeout: .now() + .nanoseconds(nanoseconds))
        }
    }

    /// Waits for the first batch from index `start` on that satisfies `predicate`; returns its index.
    @discardableResult
    func waitForBatch(from start: Int, _ what: String, where predicate: (ChangeBatch) -> Bool) throws -> Int {
        try wait(for: what) { batches in
            batches.indices.first { $0 >= start && predicate(batches[$0]) }
        }
    }

    /// What each table holds according to every batch so far: full scans start over, removals drop out.
    var tables: [String: Seen] {
        var tables: [String: Seen] = [:]
        for batch in all {
            if batch.isFullScan { tables = [:] }
            for (path, seen) in batch.seen { tables[path] = seen == .removed ? nil : seen }
        }
        return tables
    }

    /// The changes in the batches of `range` that made a difference, in order: what a store applying every
    /// batch would turn into events.
    ///
    /// A re-read of unchanged content drops out. It happens for real: a file written while another thread
    /// spawns a process is briefly open in the child too, and its CLOSE_WRITE comes when the child closes it,
    /// possibly after a watch made later. Tests run in parallel with tests that spawn tools.
    func effectiveChanges(in range: Range<Int>) -> [SeenChange] {
        var tables: [String: Seen] = [:]
        var changes: [SeenChange] = []
        for (index, batch) in all.enumerated() where index < range.upperBound {
            var next = batch.isFullScan ? [:] : tables
            for (path, seen) in batch.seen { next[path] = seen == .removed ? nil : seen }
            if index >= range.lowerBound {
                for path in Set(tables.keys).union(next.keys).sorted() where tables[path] != next[path] {
                    changes.append(SeenChange(path, next[path] ?? .removed))
                }
            }
            tables = next
        }
        return changes
    }

    /// Waits until the tables, folded over every batch, satisfy `condition`.
    func waitForTables(_ what: String, _ condition: ([String: Seen]) -> Bool) throws {
        _ = try wait(for: what) { _ in condition(tables) ? true : nil }
    }
}

/// A bundle in a private temporary folder, removed with everything in it when the test ends.
///
/// The bundle root is `<folder>/App.bundle`, so that the watcher's watch on the root's parent (while the
/// root is gone) sees only this test's files.
final class TestBundle {
    /// The private folder holding the bundle and any staging areas.
    let folder: String
    /// The bundle root.
    let root: String

    /// Two languages, two tables each.
    static let standardFiles: [String: String] = [
        "en.lproj/Localizable.strings": stringsText(["greeting": "Hello", "farewell": "Goodbye"]),
        "en.lproj/InfoPlist.strings": stringsText(["CFBundleName": "App"]),
        "de.lproj/Localizable.strings": stringsText(["greeting": "Hallo", "farewell": "Tschüss"]),
        "de.lproj/InfoPlist.strings": stringsText(["CFBundleName": "App"]),
    ]

    init(_ files: [String: String] = TestBundle.standardFiles) throws {
        folder = try FileSystem.resolvedPath(FileSystem.makeTemporaryDirectory(prefix: "hotstrings-watcher-tests"))
        root = folder + "/App.bundle"
        try FileSystem.makeDirectory(atPath: root)
        for (path, text) in files { try create(path, text) }
    }

    deinit {
        try? FileSystem.removeRecursively(atPath: folder)
    }

    /// The absolute path of `relative` inside the bundle.
    func path(_ relative: String) -> String { root + "/" + relative }

    /// Writes a new file (and its folders) in place, as a plain `open(O_CREAT | O_TRUNC)` and `write` do.
    func create(_ relative: String, _ text: String) throws {
        let parts = relative.split(separator: "/").dropLast()
        var directory = root
        for part in parts {
            directory += "/" + part
            if (try? FileSystem.status(atPath: directory)) == nil { try FileSystem.makeDirectory(atPath: directory) }
        }
        try FileSystem.writeFile(Array(text.utf8), toPath: path(relative))
    }

    /// Replaces a file atomically: a hidden temporary file in the same folder, renamed over the target.
    func save(_ relative: String, _ text: String) throws {
        try FileSystem.writeFileAtomically(Array(text.utf8), toPath: path(relative))
    }

    /// Removes a file, or a folder with everything in it.
    func remove(_ relative: String) throws {
        try FileSystem.removeRecursively(atPath: path(relative))
    }

    /// Renames a file or folder inside the bundle.
    func rename(_ relative: String, to newRelative: String) throws {
        try FileSystem.rename(path(relative), to: path(newRelative))
    }
}

/// A bundle and a watcher on it, with the batches it delivers; stops the watcher when the test ends.
final class WatchSession {
    let bundle: TestBundle
    let watcher: BundleWatcher
    let log = BatchLog()
    /// The batch of the initial full scan.
    let initial: ChangeBatch
    private var sentinels = 0

    /// Starts watching `bundle` and waits for the initial scan.
    init(
        _ bundle: TestBundle,
        settleTime: Duration = .milliseconds(30),
        configure: (inout BundleWatcher.Options) -> Void = { _ in }
    ) throws {
        self.bundle = bundle
        var options = BundleWatcher.Options()
        options.settling = SettleTiming(
            batchWindow: .milliseconds(1), settleTime: settleTime, maximumDelay: .milliseconds(100)
        )
        configure(&options)
        watcher = try BundleWatcher(root: bundle.root, options: options)
        let log = log
        watcher.start { log.append($0) }
        let index = try log.waitForBatch(from: 0, "the initial scan") { _ in true }
        initial = log.all[index]
        // A table read while another process held it open for writing (a child that a test running in parallel
        // spawns inherits every descriptor until its exec) is kept as "being written" and read again once it
        // settles: wait for that read, so that what a test changes next is all that follows.
        for (path, seen) in initial.seen where seen.problem?.message.contains("once it settles") == true {
            try log.waitForBatch(from: index + 1, "\(path) read again once settled") { $0.seen[path] != nil }
        }
    }

    /// Starts watching a new bundle holding `files`.
    convenience init(files: [String: String] = TestBundle.standardFiles, settleTime: Duration = .milliseconds(30))
        throws
    {
        try self.init(TestBundle(files), settleTime: settleTime)
    }

    deinit {
        watcher.stop()
    }

    /// Waits for a batch from index `start` on in which `path` is as `expected`; returns that batch's index.
    @discardableResult
    func waitFor(_ path: String, _ expected: Seen, from start: Int) throws -> Int {
        try log.waitForBatch(from: start, "\(path) \(expected)") { $0.seen[path] == expected }
    }

    /// Waits until everything the watcher noted so far has been reported, and returns the index of the first
    /// batch that is not about what happened before the call.
    ///
    /// Proves that something did not happen: a sentinel table is created, then deleted, and the deletion is
    /// awaited. Inotify keeps events in order, and a deletion settles no sooner than anything noted before it,
    /// so once the sentinel's deletion is reported, every earlier change (deletions included) has been too.
    @discardableResult
    func flush(in folder: String = "en.lproj") throws -> Int {
        sentinels += 1
        let path = "\(folder)/Sentinel\(sentinels).strings"
        let start = log.count
        try bundle.save(path, stringsText(["sentinel": String(sentinels)]))
        let created = try waitFor(path, .parsed(["sentinel": String(sentinels)]), from: start)
        try bundle.remove(path)
        try waitFor(path, .removed, from: created + 1)
        return log.all[start...].firstIndex { $0.seen[path] != nil } ?? created
    }
}

/// Whether an executable exists at `path`.
func isInstalled(_ path: String) -> Bool {
    FileManager.default.isExecutableFile(atPath: path)
}
