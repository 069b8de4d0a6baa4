import BundleChanges
import BundleWatcher
import Foundation
import LinuxSystem
import StringsStore
import Synchronization

/// `watch --languages N`: a release adding N languages installed into a watched bundle until the store serves all of
/// them, next to a cold start (watcher scan + parse + store) on the same bundle in the same run.
///
/// The install follows `ReleaseStore.makeCurrent`'s order on the store's layout: the release folder renamed into
/// place (its files written beforehand, outside the timing), a link `<language>.lproj -> ..data/<language>.lproj`
/// for each new language, then `..data` swapped with one rename. The watcher has to resolve the new links as they
/// come and the whole release at the swap: this was quadratic in the number of languages (issue 20, finding 9).
enum ManyLanguagesInstall {
    struct Figures {
        var languages = 0
        /// From the first step of the install to all served.
        var installSeconds = 0.0
        /// The install's own steps (renames and links: the file system's time, not the watcher's).
        var stepsSeconds = 0.0
        /// From the `..data` swap, the install's last step, to all served: how late the release is served.
        var afterSwapSeconds = 0.0
        var coldStartSeconds = 0.0
    }

    /// A three-letter language code for `index` (`aaa`, `aab`, …): a valid tag for up to 17,576 languages.
    static func language(_ index: Int) -> String {
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        return String([letters[index / 676 % 26], letters[index / 26 % 26], letters[index % 26]])
    }

    static func measure(languages count: Int) throws -> Figures {
        let table = (0..<10).map { "\"key.\($0)\" = \"Value \($0)\";" }.joined(separator: "\n")
        var files = ["..rel1/en.lproj/Localizable.strings": table]
        let languages = (0..<count).map(language)
        for language in languages { files["..tmp-rel2/\(language).lproj/Localizable.strings"] = table }
        let bundle = try TemporaryBundle(tables: files)
        defer { bundle.remove() }
        try FileSystem.makeSymbolicLink(atPath: bundle.root + "/..data", pointingTo: "..rel1")
        try FileSystem.makeSymbolicLink(atPath: bundle.root + "/en.lproj", pointingTo: "..data/en.lproj")

        var figures = Figures(languages: count)
        let watched = try ServedLanguages(root: bundle.root)
        guard watched.waitForLanguages(atLeast: 1, timeout: .seconds(60)) != nil else {
            throw CocoaError(.fileReadUnknown)
        }
        let start = ContinuousClock.now
        try FileSystem.rename(bundle.root + "/..tmp-rel2", to: bundle.root + "/..rel2")
        for language in languages where language != "en" {
            try FileSystem.makeSymbolicLink(atPath: bundle.root + "/\(language).lproj",
                                            pointingTo: "..data/\(language).lproj")
        }
        try FileSystem.makeSymbolicLink(atPath: bundle.root + "/..data_tmp", pointingTo: "..rel2")
        try FileSystem.rename(bundle.root + "/..data_tmp", to: bundle.root + "/..data")
        let swapped = ContinuousClock.now
        guard let served = watched.waitForLanguages(atLeast: count, timeout: .seconds(600)) else {
            throw CocoaError(.fileReadUnknown)
        }
        figures.installSeconds = (served - start).seconds
        figures.stepsSeconds = (swapped - start).seconds
        figures.afterSwapSeconds = (served - swapped).seconds
        watched.stop()

        var starts: [Double] = []
        for _ in 0..<3 {
            let start = ContinuousClock.now
            let cold = try ServedLanguages(root: bundle.root)
            guard let served = cold.waitForLanguages(atLeast: count, timeout: .seconds(600)) else {
                throw CocoaError(.fileReadUnknown)
            }
            starts.append((served - start).seconds)
            cold.stop()
        }
        figures.coldStartSeconds = Measure.median(starts)
        return figures
    }
}

/// A watcher and a store on a bundle, and when the store first served at least so many languages.
final class ServedLanguages: Sendable {
    let watcher: BundleWatcher
    private let counts = Mutex<[(Int, ContinuousClock.Instant)]>([])
    private let signal = DispatchSemaphore(value: 0)
    private let continuation: AsyncStream<ChangeBatch>.Continuation

    init(root: String) throws {
        watcher = try BundleWatcher(root: root)
        let store = StringsStore()
        let (batches, continuation) = AsyncStream.makeStream(of: ChangeBatch.self, bufferingPolicy: .unbounded)
        self.continuation = continuation
        watcher.start { continuation.yield($0) }
        Task { [self] in
            for await batch in batches {
                _ = await store.apply(batch)
                let languages = await store.languages().count
                let now = ContinuousClock.now
                counts.withLock { $0.append((languages, now)) }
                signal.signal()
            }
        }
    }

    /// When the store first served `count` languages or more; nil after `timeout`.
    func waitForLanguages(atLeast count: Int, timeout: Duration) -> ContinuousClock.Instant? {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let reached = counts.withLock({ $0.first { $0.0 >= count }?.1 }) { return reached }
            let left = deadline - .now
            guard left > .zero, signal.wait(timeout: .now() + left.seconds) == .success else {
                return counts.withLock({ $0.first { $0.0 >= count }?.1 })
            }
        }
    }

    func stop() {
        watcher.stop()
        continuation.finish()
    }
}
