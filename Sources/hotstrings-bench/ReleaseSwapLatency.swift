import BundleChanges
import BundleWatcher
import Foundation
import HotStringsService
import LinuxSystem
import StringsStore

/// A watcher and a store on a bundle, with the instants at which the store produced a `reload`.
final class WatchedStore {
    let watcher: BundleWatcher
    let arrivals = ArrivalLog()
    private let continuation: AsyncStream<ChangeBatch>.Continuation

    /// Starts watching `root` with default settings and waits for the initial scan's reload.
    init(root: String) throws {
        watcher = try BundleWatcher(root: root)
        let store = StringsStore()
        let arrivals = arrivals
        let (batches, continuation) = AsyncStream.makeStream(of: ChangeBatch.self, bufferingPolicy: .unbounded)
        self.continuation = continuation
        watcher.start { continuation.yield($0) }
        Task {
            for await batch in batches {
                let events = await store.apply(batch)
                if events.contains(where: { if case .reload = $0 { true } else { false } }) { arrivals.record() }
            }
        }
        guard arrivals.wait(timeout: .seconds(10)) != nil else { throw CocoaError(.fileReadUnknown) }
    }

    /// The seconds from `change()` until the store's next reload.
    func secondsUntilReload(after change: () throws -> Void) throws -> Double {
        let start = ContinuousClock.now
        try change()
        guard let arrival = arrivals.wait(timeout: .seconds(5)) else { throw CocoaError(.fileReadUnknown) }
        return (arrival - start).seconds
    }

    /// The seconds from `change()` until the store's next reload, and from the instant `change()` returns (the
    /// moment its save became visible: the rename after the writing) until then.
    func secondsUntilReload(after change: () throws -> ContinuousClock.Instant) throws
        -> (total: Double, fromMark: Double)
    {
        let start = ContinuousClock.now
        let mark = try change()
        guard let arrival = arrivals.wait(timeout: .seconds(5)) else { throw CocoaError(.fileReadUnknown) }
        return ((arrival - start).seconds, (arrival - mark).seconds)
    }

    func stop() {
        watcher.stop()
        continuation.finish()
    }
}

/// A release swap (`..data` renamed to point at another release of 300 tables, the old one kept) until the
/// store's reload, next to a single-file atomic save in the same bundle, interleaved.
enum ReleaseSwapLatency {
    static let languages = ["en", "de", "fr"]
    static let tablesPerLanguage = 100

    static func measure(swaps: Int) throws -> (save: [Double], swap: [Double]) {
        func table(_ release: String, _ index: Int) -> String {
            (0..<20).map { "\"key.\($0)\" = \"Value \($0) of table \(index) in \(release)\";" }.joined(separator: "\n")
        }
        var files = ["it.lproj/Localizable.strings": table("single", 0)]
        for release in ["rel-a", "rel-b"] {
            for language in languages {
                for index in 0..<tablesPerLanguage {
                    files["\(release)/\(language).lproj/T\(index).strings"] = table(release, index)
                }
            }
        }
        let bundle = try TemporaryBundle(tables: files)
        defer { bundle.remove() }
        try FileSystem.makeSymbolicLink(atPath: bundle.root + "/..data", pointingTo: "rel-a")
        for language in languages {
            try FileSystem.makeSymbolicLink(atPath: bundle.root + "/\(language).lproj",
                                            pointingTo: "..data/\(language).lproj")
        }
        let watched = try WatchedStore(root: bundle.root)
        defer { watched.stop() }
        var saves: [Double] = []
        var swapTimes: [Double] = []
        for round in 1...swaps {
            saves.append(try watched.secondsUntilReload {
                try bundle.atomicallyReplace("it.lproj/Localizable.strings", with: table("single", round))
            })
            let release = round % 2 == 1 ? "rel-b" : "rel-a"
            swapTimes.append(try watched.secondsUntilReload {
                try? FileSystem.removeFile(atPath: bundle.root + "/..data_tmp")
                try FileSystem.makeSymbolicLink(atPath: bundle.root + "/..data_tmp", pointingTo: release)
                try FileSystem.rename(bundle.root + "/..data_tmp", to: bundle.root + "/..data")
            })
        }
        return (saves, swapTimes)
    }
}
