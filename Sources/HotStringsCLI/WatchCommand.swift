import BundleChanges
import BundleWatcher
import HotStringsProtocol
import HotStringsService
import Dispatch
import Foundation
import LinuxSystem
import StringsFormat
import StringsStore

/// `hotstrings watch BUNDLE`: the watcher and the store in this process, events as JSON lines.
struct WatchCommand: Command {
    static let spec = CommandSpec(
        name: "watch",
        abstract: "Watch a bundle and print its events as JSON lines (no daemon needed).",
        discussion: """
            Prints a snapshot event with every table first, then one reload event per settled change \
            (a bulk save is one event), error events for files that do not parse (the last good table \
            stays), and resync events followed by a fresh snapshot when the bundle had to be rescanned. \
            Each line is what subscribe prints from a daemon on the same bundle (the same encoder, rules \
            included), epoch and seq aside. Logs go to standard error. SIGINT and SIGTERM stop it cleanly; \
            SIGHUP forces a full rescan.

            Settling: a finished write (close after writing, or a rename onto the name) is read after a \
            batching window of --batch-window; a file only modified is read once quiet for --settle; a \
            deletion counts only if the file is still gone after --settle. Both take a unit (50ms, 500us); a \
            plain number is milliseconds for --settle and microseconds for --batch-window, as it always was.
            """,
        arguments: [
            ArgumentSpec(name: "bundle", help: "The bundle directory holding <language>.lproj folders."),
        ],
        options: BundleOptions.options,
        exitCodes: [
            (ExitCode.success, "Stopped by SIGINT or SIGTERM."),
            (ExitCode.failure, "The bundle cannot be watched (the reason is on standard error)."),
            (ExitCode.usage, "The command line is wrong."),
        ]
    )

    var bundle: String
    var options: BundleOptions

    init(arguments: ParsedArguments) throws(UsageError) {
        bundle = try BundleOptions.bundle(arguments.positionals[0])
        options = try BundleOptions(arguments)
    }

    func run<Output, ErrorOutput>(io: inout CommandIO<Output, ErrorOutput>) -> Int32 {
        Signals.ignore(.pipe)
        Signals.block([.interrupt, .terminate, .hangup])
        let watcher: BundleWatcher
        do {
            watcher = try BundleWatcher(root: bundle, options: options.watcher)
        } catch {
            io.printError("cannot watch \(bundle): \(error)")
            return ExitCode.failure
        }
        let store = StringsStore(developmentLanguage: options.developmentLanguage)
        let (batches, continuation) = AsyncStream.makeStream(
            of: ChangeBatch.self, bufferingPolicy: .bufferingOldest(1024)
        )
        watcher.start { batch in
            // A consumer this far behind has lost track: drop the backlog's tail and rescan instead.
            if case .dropped = continuation.yield(batch) { watcher.rescan() }
        }
        _ = NamedThread.run(name: "hotstrings-signal") {
            while true {
                let signal = Signals.waitForAny(of: [.interrupt, .terminate, .hangup])
                if signal == .hangup {
                    Log.info("SIGHUP: rescanning \(watcher.root)")
                    watcher.rescan()
                    continue
                }
                Log.info("stopping on \(signal)")
                watcher.stop()
                continuation.finish()
                return
            }
        }
        // On a thread of its own, as the daemon's core: a task on the global pool keeps libdispatch's pool
        // monitor ticking once a second, so an idle `watch` would not be idle.
        let core = ThreadExecutor(name: "hotstrings-core")
        let done = DispatchSemaphore(value: 0)
        Task(executorPreference: core) {
            await Self.printEvents(from: batches, store: store)
            done.signal()
        }
        done.wait()
        core.finish()
        return ExitCode.success
    }

    /// Applies each batch to the store and prints what subscribers would receive, byte for byte: the events
    /// go through the conversion and the encoder the daemon's socket uses (`ServerEvent(_:)`, `WireLines`), so
    /// `watch` and `subscribe` print the same lines for the same bundle, `rules` included.
    ///
    /// As the daemon does, a snapshot stands for the batch it follows (the first scan, or a rescan after a
    /// `resync`): that batch's `reload` is left out and the snapshot, numbered with the batch's last seq,
    /// comes after the batch's other events, so seq never goes backwards.
    private static func printEvents(from batches: AsyncStream<ChangeBatch>, store: StringsStore) async {
        var isFirst = true
        for await batch in batches {
            let events = await store.apply(batch)
            let needsSnapshot = isFirst || events.contains { if case .resync = $0 { true } else { false } }
            var lines: [UInt8] = []
            for event in events {
                if case .error(_, let problem) = event { Log.warning("\(problem)") }
                if needsSnapshot, case .reload = event { continue }
                lines += WireLines.render(ServerEvent(event), epoch: store.epoch, seq: event.seq)
            }
            if needsSnapshot {
                let snapshot = await store.snapshot()
                lines += WireLines.render(ServerEvent(snapshot), epoch: snapshot.epoch, seq: snapshot.seq)
            }
            if isFirst {
                isFirst = false
                Log.info("watching \(batch.updates.count) tables")
            }
            guard !lines.isEmpty else { continue }
            FileHandle.standardOutput.write(Data(lines))
        }
    }
}
