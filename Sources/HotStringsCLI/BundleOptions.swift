import BundleWatcher
import HotStringsLog
import HotStringsRelease
import HotStringsService
import LinuxSystem
import StringsFormat

/// The options `watch` and `serve` share: how the bundle is read and settled.
struct BundleOptions {
    private typealias Limits = ServiceOptions.Limits

    static let developmentLanguage: CommandOption<LanguageTag> = .value(
        "development-language", .language, default: LanguageTag("en")!,
        help: "The language every lookup falls back to before Base.")
    static let settle: CommandOption<Duration> = .value(
        "settle", .duration(plain: .milliseconds, in: Limits.settle.closed), default: .milliseconds(50),
        help: "Quiet time for modifications and deletions.")
    static let batchWindow: CommandOption<Duration> = .value(
        "batch-window", .duration(plain: .microseconds, in: Limits.batchWindow.closed), default: .microseconds(500),
        help: "How long a batch waits for more writes.")
    static let readAheadQuiet: CommandOption<Duration> = .value(
        "read-ahead-quiet", .duration(plain: .microseconds, in: Limits.readAheadQuiet.closed),
        default: .microseconds(100),
        help: "How long a single save of a table saved within the last minute, read at once, waits for another "
            + "write before it is published (more: a bulk save whose writer pauses between files is less often cut "
            + "in two; at --batch-window or more, a single save waits as long as a bulk save). A table's first save "
            + "in a while waits the larger of this and --batch-window, at most 0.5 ms.")
    static let maximumFileSize: CommandOption<Int> = .value(
        "max-file-size", .integer("bytes", in: Limits.maximumFileSize.closed), default: 16 << 20,
        help: "Larger files are reported as errors, not read.")
    static let followsExternalSymlinks: CommandOption<Bool> = .flag(
        "follow-external-symlinks",
        help: "Also read tables and folders whose symbolic links lead outside the bundle (off: such a link is "
            + "an error, so that whoever can write the bundle cannot make this process read other files).")
    static let pseudoLanguages: CommandOption<Bool> = .flag(
        "pseudo-languages",
        help: "Also serve the pseudo-languages en-XA (accented, bracketed, padded) and ar-XB (right to left), "
            + "made from the development language and remade when it changes.")

    /// The options, in the order help lists them.
    static let options: [any OptionDeclaration] = [
        developmentLanguage, settle, batchWindow, readAheadQuiet, maximumFileSize, followsExternalSymlinks,
        pseudoLanguages,
    ]

    var developmentLanguage: String
    var pseudoLanguages = false
    var watcher = BundleWatcher.Options()

    /// `path` as the bundle argument: a usage error when something other than a directory is there (a missing
    /// path is the watcher's to report, and a root that goes away later is awaited).
    static func bundle(_ path: String) throws(UsageError) -> String {
        if let status = try? LinuxSystem.FileSystem.status(atPath: path), status.kind != .directory {
            throw UsageError("\(DisplayText.escaped(path)) is not a directory: give the bundle folder, the one "
                             + "holding the <language>.lproj folders")
        }
        return path
    }

    /// Reads the options' values; their ranges are checked by `ServiceOptions` (see `service`).
    init(_ arguments: ParsedArguments) throws(UsageError) {
        developmentLanguage = try arguments[Self.developmentLanguage].identifier
        watcher.settling.settleTime = try arguments[Self.settle]
        watcher.settling.batchWindow = try arguments[Self.batchWindow]
        watcher.settling.readAheadQuiet = try arguments[Self.readAheadQuiet]
        watcher.settling.maximumDelay = max(watcher.settling.batchWindow * 100, .milliseconds(100))
        watcher.maximumFileSize = try arguments[Self.maximumFileSize]
        watcher.followsExternalSymlinks = try arguments[Self.followsExternalSymlinks]
        pseudoLanguages = try arguments[Self.pseudoLanguages]
        // Checked now, before the options of the command, as they always were.
        _ = try service(bundle: "", log: .discarding)
    }

    /// The service's options for `bundle`, logging to `log`, checked in the one place every front goes through.
    func service(bundle: String, stateDirectory: String? = nil,
                 pull: (options: HotStringsRelease.PullOptions, schedule: PullSchedule)? = nil,
                 timeoutOption: String = "pull-timeout", log: LogSink) throws(UsageError) -> ServiceOptions {
        do throws(ServiceOptions.Error) {
            var options = try ServiceOptions(bundle: bundle, developmentLanguage: developmentLanguage,
                                             watcher: watcher, stateDirectory: stateDirectory, pull: pull, log: log)
            options.pseudoLanguages = pseudoLanguages
            return options
        } catch {
            throw UsageError(error, timeoutOption: timeoutOption)
        }
    }
}

extension UsageError {
    /// "--FLAG takes REQUIREMENT" for an option of the service.
    init(_ option: ServiceOptions.Option, _ requirement: String, timeoutOption: String = "pull-timeout") {
        // The flags' names, from their declarations.
        let flag = switch option {
        case .developmentLanguage: BundleOptions.developmentLanguage.spec.name
        case .settle: BundleOptions.settle.spec.name
        case .batchWindow: BundleOptions.batchWindow.spec.name
        case .readAheadQuiet: BundleOptions.readAheadQuiet.spec.name
        case .maximumFileSize: BundleOptions.maximumFileSize.spec.name
        case .pullInterval: ServeCommand.pullInterval.spec.name
        case .keptReleases: PullSettings.keptReleases.spec.name
        case .maximumManifestSize: PullSettings.maximumManifestSize.spec.name
        case .maximumDownloadSize: PullSettings.maximumDownloadSize.spec.name
        case .maximumReleaseSize: PullSettings.maximumReleaseSize.spec.name
        case .maximumRedirects: PullSettings.maximumRedirects.spec.name
        case .pullTimeout: timeoutOption
        case .editLockTimeout: ServeCommand.editLockTimeout.spec.name
        }
        self.init("--\(flag) takes \(requirement)")
    }

    /// The message for a value the service refuses, naming its flag.
    init(_ error: ServiceOptions.Error, timeoutOption: String = "pull-timeout") {
        self.init(error.option, error.requirement, timeoutOption: timeoutOption)
    }
}
