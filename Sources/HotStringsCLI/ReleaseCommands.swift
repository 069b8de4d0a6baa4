import Foundation
import HotStringsRelease
import HotStringsService
import LinuxSystem

/// `hotstrings pull URL BUNDLE`: one pull of a published release into a bundle.
struct PullCommand: Command {
    static let spec = CommandSpec(
        name: "pull",
        abstract: "Pull the current release from URL and install it into BUNDLE, verified and atomically.",
        discussion: """
            Fetches URL/manifest.json (or URL itself when it ends in .json) with If-None-Match and \
            If-Modified-Since from the installed release, so an unchanged origin costs one request answered \
            304 (with --trusted-key, only when a trusted key signed the installed release). Files any \
            installed release has are taken from the disk; the others are fetched from files/<sha256> (each \
            digest once, written to the disk as it arrives, asking for identity encoding: an encoded answer is \
            refused). A release over --max-release-size is refused before its files are \
            fetched. Every file's size and SHA-256 are checked and every table must parse before \
            anything is installed; then the release goes into BUNDLE/..r-<release> and one rename of the \
            BUNDLE/..data link makes it current (BUNDLE/<language>.lproj -> ..data/<language>.lproj, and the \
            same for root <table>.xcstrings catalogs), so a \
            daemon serving BUNDLE reloads once. On any failure nothing is installed and the reason is printed. \
            BUNDLE must be empty (or missing) the first time. With --trusted-key, URL/manifest.json.minisig \
            must be a minisign signature of the manifest by one of the keys, and the manifest unexpired (5 \
            minutes of clock skew allowed) with a sequence no lower than the highest installed \
            (BUNDLE/..sequence.json); otherwise nothing is installed. To keep pulling, run the daemon with \
            'hotstrings serve BUNDLE --pull URL' (docs/DEPLOY.md), or this command from a timer.
            """,
        arguments: [
            ArgumentSpec(name: "url", help: "The published folder's http:// or https:// URL (or its manifest's)."),
            ArgumentSpec(name: "bundle", help: "The bundle directory to install into."),
        ],
        options: PullSettings.limits + [timeout],
        exitCodes: [
            (ExitCode.success, "The current release is installed (new, or it was already)."),
            (ExitCode.failure, "Nothing was installed (the reason is on standard error), or with --trusted-key the "
                + "manifest was refused: no signature, a bad one, an unknown key, a rollback, expired."),
            (ExitCode.usage, "The command line is wrong."),
        ]
    )

    static let timeout = PullSettings.timeout(named: "timeout")

    var bundle: String
    var settings: PullSettings

    init(arguments: ParsedArguments) throws(UsageError) {
        settings = try PullSettings(url: arguments.positionals[0], arguments, timeout: Self.timeout)
        bundle = try BundleOptions.bundle(arguments.positionals[1])
    }

    func run<Output, ErrorOutput>(io: inout CommandIO<Output, ErrorOutput>) -> Int32 {
        do throws(ReleaseError) {
            let outcome = try Puller(bundle: bundle, options: settings.options).pull()
            let traffic = "\(outcome.requests) requests, \(outcome.bytesFetched) bytes"
            switch outcome.kind {
            case .notModified: io.stdout.write("not modified: \(outcome.release) is current (\(traffic))\n")
            case .unchanged: io.stdout.write("unchanged: \(outcome.release) is current (\(traffic))\n")
            case .installed(let previous):
                io.stdout.write("installed \(outcome.release) (was \(previous ?? "none"); \(traffic))\n")
            }
            if let warning = outcome.expiryWarning { io.printWarning(warning) }
            return ExitCode.success
        } catch {
            io.printError("nothing installed: \(error)")
            return ExitCode.failure
        }
    }
}

/// `hotstrings rollback BUNDLE`: the release installed before the current one becomes current again.
struct RollbackCommand: Command {
    static let spec = CommandSpec(
        name: "rollback",
        abstract: "Make the release installed before the current one current again (one atomic swap).",
        discussion: """
            Swaps BUNDLE/..data back to the newest kept release installed before the current one; running it \
            again goes further back. A daemon that keeps pulling (serve --pull), or a timer running pull, makes \
            the origin's release current again at its next pull: to roll every machine back, publish the old \
            release again ('hotstrings publish --from-release <release> OUTDIR'), see docs/DEPLOY.md. The \
            highest sequence installed with --trusted-key is not lowered.
            """,
        arguments: [ArgumentSpec(name: "bundle", help: "A bundle releases were installed into by pull.")],
        exitCodes: [
            (ExitCode.success, "Rolled back."),
            (ExitCode.failure, "No older release is kept, or the swap failed (the reason is on standard error)."),
            (ExitCode.usage, "The command line is wrong."),
        ]
    )

    var bundle: String

    init(arguments: ParsedArguments) throws(UsageError) {
        bundle = try BundleOptions.bundle(arguments.positionals[0])
    }

    func run<Output, ErrorOutput>(io: inout CommandIO<Output, ErrorOutput>) -> Int32 {
        do throws(ReleaseError) {
            let store = ReleaseStore(bundle: bundle)
            let (from, to) = try store.locked { () throws(ReleaseError) in try store.rollback() }
            io.stdout.write("rolled back from \(from.id) to \(to.id)\n")
            return ExitCode.success
        } catch {
            io.printError("\(error)")
            return ExitCode.failure
        }
    }
}

/// The options of `pull`, which `serve --pull` takes too (with `--pull-timeout` for `--timeout`).
struct PullSettings {
    private typealias Limits = ServiceOptions.Limits

    static let keptReleases: CommandOption<Int> = .value(
        "keep-releases", .integer("count", in: Limits.keptReleases.closed), default: 3,
        help: "Releases before the current one kept in the bundle for rollback.")
    static let maximumManifestSize: CommandOption<Int> = .value(
        "max-manifest-size", .integer("bytes", in: Limits.maximumManifestSize.closed), default: 4 << 20, help: "The largest manifest read.")
    static let maximumDownloadSize: CommandOption<Int> = .value(
        "max-download-size", .integer("bytes", in: Limits.maximumDownloadSize.closed), default: 16 << 20,
        help: "The largest file a manifest may name.")
    static let maximumReleaseSize: CommandOption<Int> = .value(
        "max-release-size", .integer("bytes", in: Limits.maximumReleaseSize.closed), default: 256 << 20,
        help: "The largest release (all its files together) fetched and installed.")
    static let maximumRedirects: CommandOption<Int> = .value(
        "max-redirects", .integer("count", in: Limits.maximumRedirects.closed), default: 5, help: "Redirects followed per request.")

    /// `--trusted-key PUBLIC_FILE`, repeatable (a path may hold commas, so it is not a comma-separated list).
    static let trustedKeys = CommandOption<[String]>(
        spec: OptionSpec(name: "trusted-key", valueName: "public-file", note: "Repeat it to trust several keys.",
                         help: "Install only manifests signed by this minisign public key (hotstrings keygen, or "
                            + "minisign -G), unexpired, with a sequence no lower than the highest installed: see "
                            + "docs/DEPLOY.md."),
        value: { given throws(UsageError) in given })

    /// The limits and trusted keys, in the order help lists them (the timeout is each command's own, see
    /// `timeout(named:)`).
    static let limits: [any OptionDeclaration] = [
        keptReleases, maximumManifestSize, maximumDownloadSize, maximumReleaseSize, maximumRedirects, trustedKeys,
    ]

    /// The response timeout, `--timeout` of `pull` and `--pull-timeout` of `serve`.
    static func timeout(named name: String) -> CommandOption<Duration> {
        .value(name, .duration(plain: .seconds, in: .nanoseconds(1) ... Limits.pullTimeout.upperBound), default: .seconds(10),
               help: "Longest wait for the next bytes of a response.")
    }

    var options: HotStringsRelease.PullOptions

    init(url: String, _ arguments: ParsedArguments, timeout: CommandOption<Duration>) throws(UsageError) {
        do throws(ReleaseError) {
            options = try HotStringsRelease.PullOptions(url: url)
        } catch {
            throw UsageError("\(error)")
        }
        options.keptReleases = try arguments[Self.keptReleases]
        options.maximumManifestSize = try arguments[Self.maximumManifestSize]
        options.maximumFileSize = try arguments[Self.maximumDownloadSize]
        options.maximumReleaseSize = try arguments[Self.maximumReleaseSize]
        options.limits.maximumRedirects = try arguments[Self.maximumRedirects]
        options.limits.idleTimeout = try arguments[timeout]
        options.trustedKeys = try arguments[Self.trustedKeys].map { path throws(UsageError) in
            try Self.publicKey(atPath: path)
        }
        // The declarations take their ranges from `ServiceOptions.Limits`; this is the check every front shares.
        do throws(ServiceOptions.Error) {
            try ServiceOptions.check(options)
        } catch {
            throw UsageError(error, timeoutOption: timeout.spec.name)
        }
    }

    /// Reads a public key file for `--trusted-key`.
    /// - Throws: `UsageError` naming the file when it cannot be read or is not a minisign public key.
    static func publicKey(atPath path: String) throws(UsageError) -> MinisignPublicKey {
        let bytes: [UInt8]
        do {
            bytes = try LinuxSystem.FileSystem.readFile(atPath: path, maximumSize: 4096)
        } catch {
            throw UsageError("--trusted-key: cannot read the public key: \(error)")
        }
        do throws(MinisignError) {
            return try MinisignPublicKey(fileText: String(decoding: bytes, as: UTF8.self))
        } catch {
            throw UsageError("--trusted-key: \(path) is not a minisign public key: \(error)")
        }
    }
}
