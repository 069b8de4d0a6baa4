import Foundation
import HotStringsLog
import HotStringsProtocol
import HotStringsService
import LinuxSystem
import StringsFormat
import StringsStore

/// `hotstrings watch BUNDLE`: the service host in this process, its one subscriber's events on standard output
/// through the daemon's encoder.
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

            Settling: a finished write (close after writing, or a rename onto the name) is read at once and \
            published if nothing else happened for --read-ahead-quiet, else after a batching window of \
            --batch-window; a file only modified is read once quiet for --settle; a deletion counts only if \
            the file is still gone after --settle. Each takes a unit (50ms, 500us); a plain number is \
            milliseconds for --settle and microseconds for the others, as it always was.
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

    /// The only client of `watch`'s host: standard output.
    static let client: ClientID = 1
    /// Batches that may wait for standard output before the bundle is rescanned instead.
    static let batchBacklog = 1024

    var options: ServiceOptions

    init(arguments: ParsedArguments) throws(UsageError) {
        options = try BundleOptions(arguments).service(bundle: try BundleOptions.bundle(arguments.positionals[0]),
                                                       log: .standardError())
        options.batchBacklog = Self.batchBacklog
    }

    func run<Output, ErrorOutput>(io: inout CommandIO<Output, ErrorOutput>) -> Int32 {
        Signals.ignore(.pipe)
        Signals.block([.interrupt, .terminate, .hangup])
        let log = options.log
        var hooks = ServiceHost<WireLines>.Hooks()
        hooks.onStoreEvent = { event in
            if case .error(_, let problem) = event { log.warning("\(problem)", metadata: problem.logMetadata) }
        }
        let host: ServiceHost<WireLines>
        do {
            host = try ServiceHost(options, hooks: hooks)
        } catch {
            io.printError("\(error)")
            return ExitCode.failure
        }
        // Subscribed before the first scan: its errors come first, then the snapshot standing for its reload
        // (numbered with its last seq), exactly what `subscribe` prints of a daemon, `rules` included.
        host.submit(.subscribe(Self.client, Subscription()))
        let root = host.watcher.root
        host.start(connectionCount: { 1 }) { outputs in
            var lines: [UInt8] = []
            for output in outputs {
                switch output {
                case .firstScanServed: log.info("watching \(root)")
                case .offCore: continue
                case .event(let line, _), .snapshot(_, let line), .slowClientResync(_, let line),
                     .slowClientSnapshot(_, let line), .response(_, let line):
                    lines += line
                }
            }
            guard !lines.isEmpty else { return }
            FileHandle.standardOutput.write(Data(lines))
        }
        while true {
            let signal = Signals.waitForAny(of: [.interrupt, .terminate, .hangup])
            if signal == .hangup {
                log.info("SIGHUP: rescanning \(root)")
                host.watcher.rescan()
                continue
            }
            log.info("stopping on \(signal)")
            break
        }
        host.stopSources()
        host.finish(waiting: true)
        return ExitCode.success
    }
}
