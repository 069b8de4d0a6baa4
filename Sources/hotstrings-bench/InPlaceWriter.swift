import BundleChanges
import BundleWatcher
import Foundation
import LinuxSystem
import StringsFormat
import StringsStore
import Synchronization

/// A writer that rewrites one table in place (`open` with `O_TRUNC`, `write`, `close`) at a steady rate against a
/// real watcher and store (issue 10, finding 3): every reload the store publishes must hold one complete version
/// of the file, and the last version must arrive.
enum InPlaceWriter {
    struct Figures {
        /// The writes made.
        var writes = 0
        /// The reloads of the table the store published.
        var reloads = 0
        /// Published reloads whose table was not one complete version: keys missing, or values of two versions.
        var incomplete = 0
        /// From the end of the last write to the reload of the last version; nil when it never came (in 5 s).
        var finalDelay: Double?
    }

    /// Keys per version: each version gives every key the same value, `v<version>`.
    static let keys = 200

    static func version(_ number: Int) -> [UInt8] {
        Array((0..<keys).map { "\"key.\($0)\" = \"v\(number)\";" }.joined(separator: "\n").utf8)
    }

    /// Rewrites the table `rate` times a second for `seconds` and checks every reload.
    static func measure(rate: Int = 1000, seconds: Int = 5) throws -> Figures {
        let first = String(decoding: version(0), as: UTF8.self)
        let bundle = try TemporaryBundle(tables: ["en.lproj/Localizable.strings": first])
        defer { bundle.remove() }
        let path = bundle.root + "/en.lproj/Localizable.strings"
        let checker = ReloadChecker()
        let watcher = try BundleWatcher(root: bundle.root)
        let store = StringsStore()
        guard let english = LanguageTag("en") else { preconditionFailure("en is a language tag") }
        let id = TableID(language: english, table: "Localizable")
        let (batches, continuation) = AsyncStream.makeStream(of: ChangeBatch.self, bufferingPolicy: .unbounded)
        watcher.start { continuation.yield($0) }
        Task {
            for await batch in batches {
                let events = await store.apply(batch)
                for case .reload(_, let changes) in events where changes.contains(where: { $0.table == id.table }) {
                    checker.check(await store.table(id), isFirst: batch.isFullScan)
                }
            }
        }
        guard checker.waitForVersion(0, timeout: .seconds(10)) != nil else { throw CocoaError(.fileReadUnknown) }

        let writes = rate * seconds
        let start = ContinuousClock.now
        let interval = Duration.seconds(1) / rate
        var lastWrite = start
        for number in 1...writes {
            let due = start + interval * number
            let left = due - .now
            if left > .zero { Thread.sleep(forTimeInterval: left.seconds) }
            try FileSystem.writeFile(version(number), toPath: path)
            lastWrite = .now
        }
        let arrival = checker.waitForVersion(writes, timeout: .seconds(5))
        watcher.stop()
        continuation.finish()
        var figures = checker.figures
        figures.writes = writes
        figures.finalDelay = arrival.map { ($0 - lastWrite).seconds }
        return figures
    }
}

/// The reloads seen, checked as they come; waits for a given version to be published.
private final class ReloadChecker: Sendable {
    private struct State {
        var figures = InPlaceWriter.Figures()
        var arrivals: [Int: ContinuousClock.Instant] = [:]
    }

    private let state = Mutex(State())
    private let arrived = DispatchSemaphore(value: 0)

    /// Checks the table a reload published: every key there, all with one version's value.
    func check(_ table: StringsTable?, isFirst: Bool) {
        let now = ContinuousClock.now
        let values = Set((table?.entries ?? []).map(\.value))
        let version = values.count == 1 ? values.first.flatMap { Int($0.dropFirst()) } : nil
        let isComplete = table?.count == InPlaceWriter.keys && version != nil
        state.withLock { state in
            if !isFirst {
                state.figures.reloads += 1
                if !isComplete { state.figures.incomplete += 1 }
            }
            if isComplete, let version { state.arrivals[version] = now }
        }
        arrived.signal()
    }

    /// When `version` was published, waiting up to `timeout` for it.
    func waitForVersion(_ version: Int, timeout: Duration) -> ContinuousClock.Instant? {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let arrival = state.withLock({ $0.arrivals[version] }) { return arrival }
            let left = deadline - .now
            guard left > .zero, arrived.wait(timeout: .now() + left.seconds) == .success else {
                return state.withLock { $0.arrivals[version] }
            }
        }
    }

    var figures: InPlaceWriter.Figures { state.withLock { $0.figures } }
}
