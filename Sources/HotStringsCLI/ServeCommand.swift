import Foundation
import HotStringsProtocol
import HotStringsRelease
import HotStringsServer
import HotStringsService
import LinuxSystem
import StringsFormat

/// `hotstrings serve [BUNDLE]`: the daemon.
struct ServeCommand: Command {
    static let spec = CommandSpec(
        name: "serve",
        abstract: "Run the daemon: watch a bundle and serve it over a Unix socket.",
        discussion: """
            Watches BUNDLE (default: the current directory) and answers the HotStrings protocol \
            (docs/PROTOCOL.md) on a Unix socket: --socket, else $HOTSTRINGS_SOCKET, else \
            $XDG_RUNTIME_DIR/hotstrings.sock, else /tmp/hotstrings-<uid>.sock. Subscribers get one reload \
            event per settled change. The selected app language is saved in --state-dir \
            ($XDG_STATE_HOME/hotstrings, else ~/.local/state/hotstrings) and restored at start.

            Trust: only the daemon's own user and root may connect unless --allow-uid names more. The \
            socket's directory must belong to this user or root and not be writable by others unless it \
            has the sticky bit (/tmp). <socket>.lock is locked (flock) while the daemon runs, so a second \
            daemon on the same path is refused. Only a socket of this user that nothing listens on (left \
            by a crash) is replaced: a regular file, a link or another user's socket at the path makes \
            serve refuse to start. The mode (--socket-mode) is set through the umask at bind. At exit the \
            socket is removed only if it is still this daemon's.

            Limits per client: request lines up to 64 KiB (longer: too_large, then closed); 64 requests \
            in flight; unread answers over 1 MiB pause reading its requests, over 16 MiB close it; unread \
            events over --client-buffer drop its backlog for a resync. Requests from all clients are taken \
            round-robin, so one client's flood does not delay the others.

            Pulling (--pull URL): the daemon keeps BUNDLE fed from a release published with 'hotstrings \
            publish' on any web server or CDN, as 'hotstrings pull' does once (verified, installed with one \
            swap of BUNDLE/..data, so subscribers get one reload per release). It pulls at start, then every \
            --pull-interval seconds (a random 90-100% of it, so machines drift apart); an unchanged origin \
            costs one request answered 304. After a failure it retries after half to all of twice the \
            interval, doubling with each failure in a row up to 5 minutes (or the interval when longer), and \
            keeps serving the installed release meanwhile, offline indefinitely. A failure is logged, sent \
            to subscribers as an error event and shown by 'status' (with the release, the last pull's time \
            and result, and the next pull's time). BUNDLE is created if missing and must hold no \
            <language>.lproj folders or root .xcstrings catalogs of its own. SIGTERM cancels a pull in \
            flight (nothing is installed) or lets an install that has begun finish. --keep-releases, the size \
            caps, --pull-timeout and --max-redirects are those of 'hotstrings pull' (--timeout there).

            Signals: SIGTERM and SIGINT stop the daemon after clients have read what was queued for them \
            (up to a second); SIGHUP rescans the bundle. Under systemd it sends READY=1 once the first scan \
            is served and accepts a socket passed by socket activation (LISTEN_FDS). Logs go to standard \
            error.
            """,
        arguments: [
            ArgumentSpec(name: "bundle", help: "The bundle directory holding <language>.lproj folders.",
                         isOptional: true),
        ],
        options: BundleOptions.specs + [
            .value("socket", valueName: "path", help: "The socket path."),
            .value("socket-mode", valueName: "octal", default: "600", help: "The socket file's permissions."),
            .value("state-dir", valueName: "path", help: "Where the selected language is saved."),
            .value("allow-uid", valueName: "uids", help: "More user ids that may connect, comma-separated."),
            .value("client-buffer", valueName: "bytes", default: String(8 << 20),
                   help: "Unsent bytes a client may fall behind before it is resynchronized."),
            .value("log-level", valueName: "level", default: "info", help: "debug, info, warning or error."),
            .value("pull", valueName: "url", help: "Keep pulling releases from this http:// or https:// URL."),
            .value("pull-interval", valueName: "s", default: "30", help: "Seconds between pulls (0.1 to 86400)."),
        ] + PullSettings.specs(timeoutOption: "pull-timeout"),
        exitCodes: [
            (ExitCode.success, "Stopped by SIGTERM or SIGINT."),
            (ExitCode.failure, "The daemon could not start (the reason is on standard error)."),
            (ExitCode.usage, "The command line is wrong."),
        ]
    )

    var configuration: ServerConfiguration
    var logLevel: Log.Level

    init(arguments: ParsedArguments) throws(UsageError) {
        let bundleOptions = try BundleOptions(arguments)
        let environment = ProcessInfo.processInfo.environment
        let service = try bundleOptions.service(
            bundle: try BundleOptions.bundle(arguments.positionals.first ?? "."),
            stateDirectory: arguments.value("state-dir") ?? Self.defaultStateDirectory(environment),
            pull: try Self.pull(arguments))
        configuration = ServerConfiguration(
            service: service,
            socketPath: SocketPath.resolve(option: arguments.value("socket"), environment: environment,
                                           userID: ProcessStatistics.userID)
        )
        guard let mode = arguments.value("socket-mode").flatMap({ UInt32($0, radix: 8) }), mode <= 0o777 else {
            throw UsageError("--socket-mode takes octal permissions such as 600 or 660")
        }
        configuration.socketMode = mode
        if let list = arguments.value("allow-uid") {
            for item in list.split(separator: ",") {
                guard let uid = UInt32(item.trimmingCharacters(in: .whitespaces)) else {
                    throw UsageError("--allow-uid takes numeric user ids separated by commas")
                }
                configuration.allowedUserIDs.insert(uid)
            }
        }
        guard let buffer = arguments.value("client-buffer").flatMap(Int.init), buffer >= 4096 else {
            throw UsageError("--client-buffer takes a number of bytes, at least 4096")
        }
        configuration.clientBufferBytes = buffer
        guard let level = arguments.value("log-level").flatMap(Log.Level.init(name:)) else {
            throw UsageError("--log-level takes debug, info, warning or error")
        }
        logLevel = level
    }

    /// `--pull`, `--pull-interval` and the options `pull` takes: the origin, its limits and the schedule, nil
    /// without `--pull`; the ranges are checked with the rest of the service's options.
    static func pull(_ arguments: ParsedArguments) throws(UsageError)
        -> (options: HotStringsRelease.PullOptions, schedule: PullSchedule)? {
        guard let url = arguments.values("pull").last else {
            for name in ["pull-interval", "pull-timeout"] + PullSettings.limitOptions
            where !arguments.values(name).isEmpty {
                throw UsageError("--\(name) needs --pull URL")
            }
            return nil
        }
        do throws(ReleaseError) {
            _ = try HotStringsRelease.PullOptions(url: url)
        } catch {
            throw UsageError("--pull: \(error)")
        }
        let options = try PullSettings(url: url, arguments, timeoutOption: "pull-timeout").options
        guard let interval = arguments.value("pull-interval").flatMap(Double.init).flatMap(Duration.init(seconds:))
        else { throw UsageError(.pullInterval, ServiceOptions.Limits.pullInterval.requirement) }
        return (options, PullSchedule(interval: interval))
    }

    static func defaultStateDirectory(_ environment: [String: String]) -> String? {
        if let state = environment["XDG_STATE_HOME"], !state.isEmpty { return state + "/hotstrings" }
        if let home = environment["HOME"], !home.isEmpty { return home + "/.local/state/hotstrings" }
        return nil
    }

    func run<Output, ErrorOutput>(io: inout CommandIO<Output, ErrorOutput>) -> Int32 {
        Log.setLevel(logLevel)
        do {
            return try Server.run(configuration)
        } catch {
            let message = DisplayText.escaped("\(error)", keepingBackslashes: true)
            io.stderr.write("hotstrings serve: error: \(message)\n")
            return ExitCode.failure
        }
    }
}
