import BundleWatcher
import HotStringsRelease
import HotStringsService
import LinuxSystem
import StringsFormat

/// The options `watch` and `serve` share: how the bundle is read and settled.
struct BundleOptions {
    static let specs: [OptionSpec] = [
        .value("development-language", valueName: "language", default: "en",
               help: "The language every lookup falls back to before Base."),
        .value("settle", valueName: "ms", default: "50", help: "Quiet time for modifications and deletions."),
        .value("batch-window", valueName: "µs", default: "500", help: "How long a batch waits for more writes."),
        .value("max-file-size", valueName: "bytes", default: String(16 << 20),
               help: "Larger files are reported as errors, not read."),
        .flag("follow-external-symlinks",
              help: "Also read tables and folders whose symbolic links lead outside the bundle (off: such a link is "
                + "an error, so that whoever can write the bundle cannot make this process read other files)."),
    ]

    var developmentLanguage: String
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
        developmentLanguage = arguments.value("development-language") ?? ""
        guard let settle = arguments.value("settle").flatMap(Int.init) else {
            throw UsageError(.settle, ServiceOptions.Limits.settle.requirement)
        }
        guard let window = arguments.value("batch-window").flatMap(Int.init) else {
            throw UsageError(.batchWindow, ServiceOptions.Limits.batchWindow.requirement)
        }
        guard let size = arguments.value("max-file-size").flatMap(Int.init) else {
            throw UsageError(.maximumFileSize, ServiceOptions.Limits.maximumFileSize.requirement)
        }
        watcher.settling.settleTime = .milliseconds(settle)
        watcher.settling.batchWindow = .microseconds(window)
        watcher.settling.maximumDelay = max(watcher.settling.batchWindow * 100, .milliseconds(100))
        watcher.maximumFileSize = size
        watcher.followsExternalSymlinks = arguments.flag("follow-external-symlinks")
        // Checked now, before the options of the command, as they always were.
        _ = try service(bundle: "")
    }

    /// The service's options for `bundle`, checked in the one place every front goes through.
    func service(bundle: String, stateDirectory: String? = nil,
                 pull: (options: HotStringsRelease.PullOptions, schedule: PullSchedule)? = nil,
                 timeoutOption: String = "pull-timeout") throws(UsageError) -> ServiceOptions {
        do throws(ServiceOptions.Error) {
            return try ServiceOptions(bundle: bundle, developmentLanguage: developmentLanguage, watcher: watcher,
                                      stateDirectory: stateDirectory, pull: pull)
        } catch {
            throw UsageError(error, timeoutOption: timeoutOption)
        }
    }
}

extension UsageError {
    /// "--FLAG takes REQUIREMENT" for an option of the service.
    init(_ option: ServiceOptions.Option, _ requirement: String, timeoutOption: String = "pull-timeout") {
        let flag = switch option {
        case .developmentLanguage: "development-language"
        case .settle: "settle"
        case .batchWindow: "batch-window"
        case .maximumFileSize: "max-file-size"
        case .pullInterval: "pull-interval"
        case .keptReleases: "keep-releases"
        case .maximumManifestSize: "max-manifest-size"
        case .maximumDownloadSize: "max-download-size"
        case .maximumReleaseSize: "max-release-size"
        case .maximumRedirects: "max-redirects"
        case .pullTimeout: timeoutOption
        }
        self.init("--\(flag) takes \(requirement)")
    }

    /// The message for a value the service refuses, naming its flag.
    init(_ error: ServiceOptions.Error, timeoutOption: String = "pull-timeout") {
        self.init(error.option, error.requirement, timeoutOption: timeoutOption)
    }
}

extension Duration {
    /// `seconds` of a command line, to the millisecond; nil when it is no finite number a duration holds (the
    /// range is `ServiceOptions`'s to check).
    init?(seconds: Double) {
        guard seconds.isFinite, abs(seconds) < 1e12 else { return nil }
        self = .milliseconds(Int64((seconds * 1000).rounded()))
    }
}
