import Foundation
import HotStringsFront
import HotStringsLog
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
            serve refuse to start. The mode (--socket-mode) is set before listen, never following a link. At exit the \
            socket is removed only if it is still this daemon's.

            Limits per client: request lines up to 64 KiB (longer: too_large, then closed); 64 requests \
            in flight; unread answers over 1 MiB pause reading its requests, over 16 MiB close it; unread \
            events over --client-buffer drop its backlog for a resync. Requests from all clients are taken \
            round-robin, so one client's flood does not delay the others.

            Pulling (--pull URL): the daemon keeps BUNDLE fed from a release published with 'hotstrings \
            publish' on any web server or CDN, as 'hotstrings pull' does once (verified, installed with one \
            swap of BUNDLE/..data, so subscribers get one reload per release). It pulls at start, then every \
            --pull-interval (a random 90-100% of it, so machines drift apart); an unchanged origin \
            costs one request answered 304. After a failure it retries after half to all of twice the \
            interval, doubling with each failure in a row up to 5 minutes (or the interval when longer), and \
            keeps serving the installed release meanwhile, offline indefinitely. A failure is logged, sent \
            to subscribers as an error event and shown by 'status' (with the release, the last pull's time \
            and result, and the next pull's time). BUNDLE is created if missing and must hold no \
            <language>.lproj folders or root .xcstrings catalogs of its own. SIGTERM cancels a pull in \
            flight (nothing is installed) or lets an install that has begun finish. --keep-releases, the size \
            caps, --pull-timeout, --max-redirects and --trusted-key are those of 'hotstrings pull' (--timeout \
            there); a manifest refused for its signature, sequence or expiry is a failed pull, retried.

            The page (--web PORT): a translator's page and a JSON API on 127.0.0.1:PORT only, behind a token \
            saved in --state-dir (--web-new-token replaces it); the address with the token is logged at start \
            and shown by 'status'. See docs/WEB.md.

            Signals: SIGTERM and SIGINT stop the daemon after clients have read what was queued for them \
            (up to a second); SIGHUP rescans the bundle. Under systemd it sends READY=1 once the first scan \
            is served and accepts a socket passed by socket activation (LISTEN_FDS). Logs go to standard \
            error.
            """,
        arguments: [
            ArgumentSpec(name: "bundle", help: "The bundle directory holding <language>.lproj folders.",
                         isOptional: true),
        ],
        options: BundleOptions.options + [
            socket, socketMode, stateDirectory, allowedUserIDs, clientBuffer, logLevel, pullURL, pullInterval,
        ] + PullSettings.limits + [pullTimeout, webPort, webNewToken, editLockTimeout],
        exitCodes: [
            (ExitCode.success, "Stopped by SIGTERM or SIGINT."),
            (ExitCode.failure, "The daemon could not start (the reason is on standard error)."),
            (ExitCode.usage, "The command line is wrong."),
        ]
    )

    static let socket: CommandOption<String?> = .optional("socket", .text("path"), help: "The socket path.")
    static let socketMode: CommandOption<UInt32> = .value(
        "socket-mode", .permissions, default: 0o600, help: "The socket file's permissions.")
    static let stateDirectory: CommandOption<String?> = .optional(
        "state-dir", .text("path"), help: "Where the selected language is saved.")
    static let allowedUserIDs: CommandOption<[UInt32]> = .list(
        "allow-uid", .userID, help: "More user ids that may connect.")
    static let clientBuffer: CommandOption<Int> = .value(
        "client-buffer", .integer("bytes", in: 4096 ... .max), default: 8 << 20,
        help: "Unsent bytes a client may fall behind before it is resynchronized.")
    static let logLevel: CommandOption<LogSink.Level> = .value(
        "log-level", .choice(LogSink.Level.allCases.map { (name: "\($0)", value: $0) }), default: .info,
        help: "The least important messages logged.")
    static let pullURL: CommandOption<String?> = .optional(
        "pull", .text("url"), help: "Keep pulling releases from this http:// or https:// URL.")
    static let pullInterval: CommandOption<Duration> = .value(
        "pull-interval", .duration(plain: .seconds, in: ServiceOptions.Limits.pullInterval.closed), default: .seconds(30),
        help: "Time between pulls.")
    static let pullTimeout = PullSettings.timeout(named: "pull-timeout")
    static let webPort: CommandOption<Int?> = .optional(
        "web", .integer("port", in: 0 ... 65535),
        help: "Serve the translator's page on 127.0.0.1:PORT (docs/WEB.md; 0: a free port, logged).")
    static let webNewToken: CommandOption<Bool> = .flag(
        "web-new-token", help: "Replace the page's saved token with a new one.")
    static let editLockTimeout: CommandOption<Duration> = .value(
        "edit-lock-timeout", .duration(plain: .seconds, in: ServiceOptions.Limits.editLockTimeout.closed),
        default: .seconds(5),
        help: "How long a set or remove (from a client or the page) waits for its language folder's lock, which "
            + "any process that can open the folder can hold, before it fails with busy, nothing written.")

    var configuration: ServerConfiguration

    init(arguments: ParsedArguments) throws(UsageError) {
        let bundleOptions = try BundleOptions(arguments)
        let environment = ProcessInfo.processInfo.environment
        var service = try bundleOptions.service(
            bundle: try BundleOptions.bundle(arguments.positionals.first ?? "."),
            stateDirectory: try arguments[Self.stateDirectory] ?? Self.defaultStateDirectory(environment),
            pull: try Self.pull(arguments), log: .discarding)
        let editLockTimeout = try arguments[Self.editLockTimeout]
        do throws(ServiceOptions.Error) {
            try service.setEditLockTimeout(editLockTimeout)
        } catch {
            throw UsageError(error)
        }
        configuration = ServerConfiguration(
            service: service,
            socketPath: SocketPath.resolve(option: try arguments[Self.socket], environment: environment,
                                           userID: ProcessStatistics.userID)
        )
        configuration.socketMode = try arguments[Self.socketMode]
        configuration.allowedUserIDs.formUnion(try arguments[Self.allowedUserIDs])
        configuration.clientBufferBytes = try arguments[Self.clientBuffer]
        if let port = try arguments[Self.webPort] {
            configuration.web = WebOptions(port: UInt16(port), rotatesToken: try arguments[Self.webNewToken])
        } else if try arguments[Self.webNewToken] {
            throw UsageError("--web-new-token needs --web PORT")
        }
        // The daemon's log: the command line tool is the application, so it is the one to say where lines go.
        configuration.service.log = .standardError(minimumLevel: try arguments[Self.logLevel])
    }

    /// `--pull`, `--pull-interval` and the options `pull` takes: the origin, its limits and the schedule, nil
    /// without `--pull`; the ranges are checked with the rest of the service's options.
    static func pull(_ arguments: ParsedArguments) throws(UsageError)
        -> (options: HotStringsRelease.PullOptions, schedule: PullSchedule)? {
        guard let url = try arguments[pullURL] else {
            for option in [pullInterval, pullTimeout] + PullSettings.limits where arguments.isGiven(option) {
                throw UsageError("--\(option.spec.name) needs --pull URL")
            }
            return nil
        }
        do throws(ReleaseError) {
            _ = try HotStringsRelease.PullOptions(url: url)
        } catch {
            throw UsageError("--pull: \(error)")
        }
        let options = try PullSettings(url: url, arguments, timeout: pullTimeout).options
        return (options, PullSchedule(interval: try arguments[pullInterval]))
    }

    static func defaultStateDirectory(_ environment: [String: String]) -> String? {
        if let state = environment["XDG_STATE_HOME"], !state.isEmpty { return state + "/hotstrings" }
        if let home = environment["HOME"], !home.isEmpty { return home + "/.local/state/hotstrings" }
        return nil
    }

    func run<Output, ErrorOutput>(io: inout CommandIO<Output, ErrorOutput>) -> Int32 {
        do {
            return try Server.run(configuration)
        } catch {
            io.printError("\(error)")
            return ExitCode.failure
        }
    }
}
