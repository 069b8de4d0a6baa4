import Foundation
import HotStringsRelease
import HotStringsService

/// `hotstrings publish BUNDLE OUTDIR`: a static release any web server or CDN can serve.
struct PublishCommand: Command {
    static let spec = CommandSpec(
        name: "publish",
        abstract: "Publish a bundle as a static release for 'pull' (any web server or CDN).",
        discussion: """
            Lints every table first and refuses to publish when there are errors (warnings are printed and \
            allowed). Publishes only tables (other files are skipped with a warning each), refuses links that \
            lead outside the bundle and names a pull cannot install. Then writes OUTDIR/files/<sha256> for every \
            table (content-addressed: files an earlier \
            release has are not written again), OUTDIR/releases/<release>.json, and last OUTDIR/manifest.json \
            (format, release id, creation time, each file's path, size and SHA-256). A bundle identical to the \
            current release publishes nothing. Serve manifest.json with a short cache life (Cache-Control: \
            no-cache) and files/ as immutable (max-age=31536000, immutable): see docs/DEPLOY.md.
            """,
        arguments: [
            ArgumentSpec(name: "bundle",
                         help: "The bundle directory holding <language>.lproj folders (and root .xcstrings catalogs)."),
            ArgumentSpec(name: "outdir", help: "The folder to publish into (created if missing)."),
        ],
        options: [
            .value("development-language", valueName: "language", default: "en",
                   help: "The language translations are compared with by the lint."),
            .flag("follow-external-symlinks",
                  help: "Also publish tables and folders whose symbolic links lead outside the bundle (off: such a "
                    + "link is refused, so that whoever can write the bundle cannot publish other files)."),
        ],
        exitCodes: [
            (ExitCode.success, "Published (or the bundle is the current release already)."),
            (ExitCode.failure, "A table has errors, or the bundle or OUTDIR cannot be read or written."),
            (ExitCode.usage, "The command line is wrong."),
        ]
    )

    var bundle: String
    var output: String
    var developmentLanguage: String
    var followsExternalSymlinks: Bool

    init(arguments: ParsedArguments) throws(UsageError) {
        bundle = try BundleOptions.bundle(arguments.positionals[0])
        output = arguments.positionals[1]
        developmentLanguage = arguments.value("development-language") ?? "en"
        followsExternalSymlinks = arguments.flag("follow-external-symlinks")
    }

    func run<Output, ErrorOutput>(io: inout CommandIO<Output, ErrorOutput>) -> Int32 {
        let report = Linter(developmentLanguage: developmentLanguage).lint(paths: [bundle])
        let lint = LintCommand(paths: [bundle], developmentLanguage: developmentLanguage)
        for file in report.files { io.stderr.write(lint.text(for: file)) }
        guard report.errorCount == 0 else {
            io.stderr.write("hotstrings publish: error: \(LintCommand.summary(report)); nothing published\n")
            return ExitCode.failure
        }
        do throws(ReleaseError) {
            var publisher = Publisher()
            publisher.followsExternalSymlinks = followsExternalSymlinks
            let outcome = try publisher.publish(bundle: bundle, to: output)
            for path in outcome.skippedFiles {
                io.stderr.write("hotstrings publish: warning: \(path) is not a table (.strings, .stringsdict, "
                    + ".xcstrings): not published\n")
            }
            let manifest = outcome.manifest
            if outcome.isUnchanged {
                io.stdout.write("unchanged: \(manifest.release) is the current release of \(output)\n")
            } else {
                io.stdout.write("published \(manifest.release): \(manifest.files.count) files, "
                    + "\(manifest.totalSize) bytes (\(outcome.writtenFiles) new, \(outcome.reusedFiles) reused)\n")
            }
            return ExitCode.success
        } catch {
            io.stderr.write("hotstrings publish: error: \(error)\n")
            return ExitCode.failure
        }
    }
}

/// `hotstrings pull URL BUNDLE`: one pull of a published release into a bundle.
struct PullCommand: Command {
    static let spec = CommandSpec(
        name: "pull",
        abstract: "Pull the current release from URL and install it into BUNDLE, verified and atomically.",
        discussion: """
            Fetches URL/manifest.json (or URL itself when it ends in .json) with If-None-Match and \
            If-Modified-Since from the installed release, so an unchanged origin costs one request answered \
            304. Files any installed release has are taken from the disk; the others are fetched from \
            files/<sha256> (each digest once, written to the disk as it arrives, asking for identity encoding: \
            an encoded answer is refused). A release over --max-release-size is refused before its files are \
            fetched. Every file's size and SHA-256 are checked and every table must parse before \
            anything is installed; then the release goes into BUNDLE/..<release> and one rename of the \
            BUNDLE/..data link makes it current (BUNDLE/<language>.lproj -> ..data/<language>.lproj, and the \
            same for root <table>.xcstrings catalogs), so a \
            daemon serving BUNDLE reloads once. On any failure nothing is installed and the reason is printed. \
            BUNDLE must be empty (or missing) the first time. To keep pulling, run the daemon with \
            'hotstrings serve BUNDLE --pull URL' (docs/DEPLOY.md), or this command from a timer.
            """,
        arguments: [
            ArgumentSpec(name: "url", help: "The published folder's http:// or https:// URL (or its manifest's)."),
            ArgumentSpec(name: "bundle", help: "The bundle directory to install into."),
        ],
        options: PullSettings.specs,
        exitCodes: [
            (ExitCode.success, "The current release is installed (new, or it was already)."),
            (ExitCode.failure, "Nothing was installed (the reason is on standard error)."),
            (ExitCode.usage, "The command line is wrong."),
        ]
    )

    var bundle: String
    var settings: PullSettings

    init(arguments: ParsedArguments) throws(UsageError) {
        settings = try PullSettings(url: arguments.positionals[0], arguments)
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
            return ExitCode.success
        } catch {
            io.stderr.write("hotstrings pull: error: nothing installed: \(error)\n")
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
            the origin's release current again at its next pull: to roll a fleet back, roll the origin back \
            (copy OUTDIR/releases/<release>.json over OUTDIR/manifest.json), see docs/DEPLOY.md.
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
            io.stderr.write("hotstrings rollback: error: \(error)\n")
            return ExitCode.failure
        }
    }
}

/// The options of `pull`, which `serve --pull` takes too (with `--pull-timeout` for `--timeout`).
struct PullSettings {
    static let specs = specs(timeoutOption: "timeout")

    /// The options, the response timeout named `timeoutOption`.
    static func specs(timeoutOption: String) -> [OptionSpec] {
        [
            .value("keep-releases", valueName: "count", default: "3",
                   help: "Releases before the current one kept in the bundle for rollback."),
            .value("max-manifest-size", valueName: "bytes", default: String(4 << 20),
                   help: "The largest manifest read."),
            .value("max-download-size", valueName: "bytes", default: String(16 << 20),
                   help: "The largest file a manifest may name."),
            .value("max-release-size", valueName: "bytes", default: String(256 << 20),
                   help: "The largest release (all its files together) fetched and installed."),
            .value(timeoutOption, valueName: "s", default: "10",
                   help: "Longest wait for the next bytes of a response."),
            .value("max-redirects", valueName: "count", default: "5", help: "Redirects followed per request."),
        ]
    }

    /// The names of the options besides the timeout's.
    static let limitOptions = ["keep-releases", "max-manifest-size", "max-download-size", "max-release-size",
                               "max-redirects"]

    var options: HotStringsRelease.PullOptions

    init(url: String, _ arguments: ParsedArguments, timeoutOption: String = "timeout") throws(UsageError) {
        do throws(ReleaseError) {
            options = try HotStringsRelease.PullOptions(url: url)
        } catch {
            throw UsageError("\(error)")
        }
        // Read here, checked by `ServiceOptions`, the one place that knows the ranges (embedded mode goes there).
        func count(_ name: String, _ option: ServiceOptions.Option, _ range: ServiceOptions.Range<Int>)
            throws(UsageError) -> Int {
            guard let value = arguments.value(name).flatMap(Int.init) else {
                throw UsageError(option, range.requirement, timeoutOption: timeoutOption)
            }
            return value
        }
        typealias Limits = ServiceOptions.Limits
        options.keptReleases = try count("keep-releases", .keptReleases, Limits.keptReleases)
        options.maximumManifestSize = try count("max-manifest-size", .maximumManifestSize, Limits.maximumManifestSize)
        options.maximumFileSize = try count("max-download-size", .maximumDownloadSize, Limits.maximumDownloadSize)
        options.maximumReleaseSize = try count("max-release-size", .maximumReleaseSize, Limits.maximumReleaseSize)
        options.limits.maximumRedirects = try count("max-redirects", .maximumRedirects, Limits.maximumRedirects)
        guard let timeout = arguments.value(timeoutOption).flatMap(Double.init).flatMap(Duration.init(seconds:)) else {
            throw UsageError(.pullTimeout, Limits.pullTimeout.requirement, timeoutOption: timeoutOption)
        }
        options.limits.idleTimeout = timeout
        do throws(ServiceOptions.Error) {
            try ServiceOptions.check(options)
        } catch {
            throw UsageError(error, timeoutOption: timeoutOption)
        }
    }
}
