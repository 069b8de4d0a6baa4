import Foundation
import HotStringsLint
import HotStringsRelease
import HotStringsService

/// `hotstrings publish BUNDLE OUTDIR`: a static release any web server or CDN can serve.
struct PublishCommand: Command {
    static let spec = CommandSpec(
        name: "publish",
        abstract: "Publish a bundle as a static release for 'pull' (any web server or CDN).",
        discussion: """
            Lints every table first and refuses to publish when there are errors (warnings are printed and \
            allowed); --force publishes anyway when the only errors are format specifiers a translation takes \
            otherwise than the development language (each is named). Publishes only the tables the daemon \
            serves, by the same names (other files, and names that look meant as tables or language folders but \
            are not served, such as Localizable.STRINGS or DE.LPROJ, are skipped with a warning each), refuses \
            links that lead outside the bundle and names a pull cannot install. Then writes \
            OUTDIR/files/<sha256> for every table (content-addressed: files an earlier \
            release has are not written again), OUTDIR/releases/<release>.json, and last OUTDIR/manifest.json \
            (format, release id, creation time, sequence, each file's path, size and SHA-256). The sequence is \
            the highest OUTDIR published plus one. A bundle identical to the current release publishes nothing, \
            unless signing: then it is published again with a new sequence and expiry (how an expiry is \
            extended). 'publish --from-release ID OUTDIR' publishes OUTDIR/releases/ID.json again with a new \
            sequence: how every machine is rolled back. Serve manifest.json with a short cache life (Cache-Control: \
            no-cache) and files/ as immutable (max-age=31536000, immutable): see docs/DEPLOY.md.
            """,
        arguments: [
            ArgumentSpec(name: "bundle",
                         help: "The bundle directory holding <language>.lproj folders (and root .xcstrings catalogs); "
                            + "with --from-release, OUTDIR."),
            ArgumentSpec(name: "outdir", help: "The folder to publish into (created if missing).", isOptional: true),
        ],
        options: [LintCommand.developmentLanguage, followsExternalSymlinks, sign, expiresIn, fromRelease, forces],
        exitCodes: [
            (ExitCode.success, "Published (or the bundle is the current release already)."),
            (ExitCode.failure, "A table has errors, or the bundle or OUTDIR cannot be read or written."),
            (ExitCode.usage, "The command line is wrong, or the --sign key cannot be read, is not a key or is "
                + "not private (chmod 600)."),
        ]
    )

    static let sign: CommandOption<String?> = .optional(
        "sign", .text("secret-file"),
        help: "Also sign manifest.json with this minisign secret key (hotstrings keygen, or minisign -G -W): "
            + "writes manifest.json.minisig beside it, checked by pull --trusted-key or by hand with "
            + "'minisign -Vm manifest.json -p PUBLIC_FILE'. The manifest then gets an expiry (--expires-in).")

    static let expiresIn: CommandOption<Duration?> = .optional(
        "expires-in", expiry,
        help: "With --sign: how long the manifest is installed by pull --trusted-key (default 30d); publish again "
            + "before then to extend it.")

    static let fromRelease: CommandOption<String?> = .optional(
        "from-release", .text("release"),
        help: "Publish the release OUTDIR/releases/<release>.json again, with a new sequence (rolls every machine "
            + "back); the only argument is then OUTDIR.")

    static let forces: CommandOption<Bool> = .flag(
        "force", help: "Publish even with format specifier errors (a %d translated as %@), naming each; other "
            + "errors still refuse.")

    static let followsExternalSymlinks: CommandOption<Bool> = .flag(
        "follow-external-symlinks",
        help: "Also publish tables and folders whose symbolic links lead outside the bundle (off: such a link is "
            + "refused, so that whoever can write the bundle cannot publish other files).")

    /// The expiry when `--sign` is given without `--expires-in`.
    static let defaultExpiry = Duration.seconds(30 * 86_400)

    /// A duration of whole days, hours, minutes or seconds (`30d`, `12h`, `90m`, `3600s`; a plain number is
    /// seconds), from a minute to ten years.
    static let expiry = OptionType<Duration>(
        placeholder: "duration", note: "Such as 30d, 12h or 3600s (a plain number is seconds), from 1m to 3650d.",
        read: { text, option throws(UsageError) in
            let units: [Character: Int64] = ["d": 86_400, "h": 3_600, "m": 60, "s": 1]
            let digits = text.last.map { units[$0] == nil ? Substring(text) : text.dropLast() } ?? ""
            let unit = text.last.flatMap { units[$0] } ?? 1
            guard !digits.isEmpty, digits.allSatisfy(\.isASCII), let count = Int64(digits), count > 0,
                  count <= 3650 * 86_400 / unit, (60...3650 * 86_400).contains(count * unit) else {
                throw UsageError("\(option) takes a duration such as 30d, 12h or 3600s, from 1m to 3650d, not "
                    + "'\(UsageError.escaped(text))'")
            }
            return .seconds(count * unit)
        },
        text: { duration in
            let seconds = duration.components.seconds
            return seconds % 86_400 == 0 ? "\(seconds / 86_400)d" : "\(seconds)s"
        })

    var bundle: String?
    var output: String
    var developmentLanguage: String
    var followsExternalSymlinks: Bool
    /// Whether format specifier errors are published anyway (`--force`).
    var forces: Bool
    /// The key `--sign` names, read (and checked) before anything is published.
    var signingKey: MinisignSecretKey?
    var expiresIn: Duration?
    var fromRelease: String?

    init(arguments: ParsedArguments) throws(UsageError) {
        fromRelease = try arguments[Self.fromRelease]
        if fromRelease != nil {
            guard arguments.positionals.count == 1 else {
                throw UsageError("with --from-release, the only argument is OUTDIR (the release's files are there)")
            }
            bundle = nil
            output = arguments.positionals[0]
        } else {
            guard arguments.positionals.count == 2 else { throw UsageError("missing argument <outdir>") }
            bundle = try BundleOptions.bundle(arguments.positionals[0])
            output = arguments.positionals[1]
        }
        developmentLanguage = try arguments[LintCommand.developmentLanguage]
        followsExternalSymlinks = try arguments[Self.followsExternalSymlinks]
        forces = try arguments[Self.forces]
        signingKey = try arguments[Self.sign].map { path throws(UsageError) in
            try KeygenCommand.secretKey(atPath: path, option: "--sign")
        }
        expiresIn = try arguments[Self.expiresIn]
        if expiresIn != nil, signingKey == nil {
            throw UsageError("--expires-in needs --sign (only a signed manifest expires)")
        }
        if signingKey != nil { expiresIn = expiresIn ?? Self.defaultExpiry }
    }

    func run<Output, ErrorOutput>(io: inout CommandIO<Output, ErrorOutput>) -> Int32 {
        // Names lint has said it skips (`DE.LPROJ`, `x.strings~`) are not said again as not published.
        var saidByLint: Set<String> = []
        if let bundle {
            let report = Linter(developmentLanguage: developmentLanguage).lint(paths: [bundle])
            saidByLint = Set(report.files.filter(\.isSkipped).map(\.path))
            let lint = LintCommand(paths: [bundle], developmentLanguage: developmentLanguage)
            for file in report.files { io.stderr.write(lint.text(for: file)) }
            let specifierErrors = report.files.reduce(0) { count, file in
                count + file.diagnostics.count { $0.severity == .error && $0.kind == .formatSpecifiers }
            }
            guard report.errorCount == (forces ? specifierErrors : 0) else {
                let hint = !forces && specifierErrors == report.errorCount
                    ? " (--force publishes format specifier errors anyway)" : ""
                io.printError("\(LintCommand.summary(report)); nothing published\(hint)")
                return ExitCode.failure
            }
            if specifierErrors > 0 {
                io.printWarning("publishing with \(specifierErrors) format specifier "
                    + "\(specifierErrors == 1 ? "error" : "errors") named above (--force)")
            }
        }
        do throws(ReleaseError) {
            var publisher = Publisher()
            publisher.followsExternalSymlinks = followsExternalSymlinks
            publisher.expiresIn = expiresIn
            let outcome: Publisher.Outcome
            if let fromRelease {
                outcome = try publisher.republish(release: fromRelease, in: output)
            } else {
                outcome = try publisher.publish(bundle: bundle ?? "", to: output)
            }
            let root = (bundle ?? "").hasSuffix("/") ? bundle ?? "" : (bundle ?? "") + "/"
            for skipped in outcome.skippedFiles where !saidByLint.contains(root + skipped.path) {
                io.printWarning("\(skipped.path) is not published: \(skipped.reason)")
            }
            let manifest = outcome.manifest
            if outcome.isUnchanged {
                io.stdout.write("unchanged: \(manifest.release) is the current release of \(output)\n")
            } else {
                let expiry = manifest.expires.map { ", expires \($0)" } ?? ""
                io.stdout.write("published \(manifest.release) (sequence \(manifest.sequence ?? 0)\(expiry)): "
                    + "\(manifest.files.count) files, \(manifest.totalSize) bytes (\(outcome.writtenFiles) new, "
                    + "\(outcome.reusedFiles) reused)\n")
            }
            if var key = signingKey {
                defer { key.wipe() }
                let signature = try ReleaseSigning.signManifest(at: output + "/manifest.json", with: key)
                io.stdout.write("signed manifest.json with key \(signature.keyIDText): manifest.json.minisig\n")
            }
            return ExitCode.success
        } catch {
            io.printError("\(error)")
            return ExitCode.failure
        }
    }
}
