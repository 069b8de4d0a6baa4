import BundleWatcher
import HotStringsLog
import HotStringsRelease
import StringsFormat

/// What a `ServiceHost` serves and how: checked once, here, for every front (`serve`, `watch`, embedded mode),
/// so a value one front refuses is refused by all.
package struct ServiceOptions: Sendable {
    /// The bundle directory.
    package let bundle: String
    /// The language every lookup falls back to before Base.
    package let developmentLanguage: LanguageTag
    /// Settling and the file size cap.
    package let watcher: BundleWatcher.Options
    /// Where the selected language is saved; nil keeps it in memory only.
    package let stateDirectory: String?
    /// The origin the host keeps pulling releases from into the bundle, and when (nil: it does not pull).
    package let pull: (options: PullOptions, schedule: PullSchedule)?
    /// Whether a state directory that cannot be created stops the start (embedded mode), or only makes
    /// `select-language` fail later (the daemon, which logs it).
    package var requiresStateDirectory = false
    /// Settled batches that may wait for the service before the watcher is told to rescan instead of queueing
    /// more (`watch`, whose standard output may block); nil: no limit (the daemon, embedded mode).
    package var batchBacklog: Int?
    /// Whether the pseudo-languages `en-XA` and `ar-XB` are served, derived from the development language.
    package var pseudoLanguages = false
    /// How long a `set` or `remove` waits for its language folder's lock (which any process that can open the folder
    /// can hold) before it fails with `busy`, counted from when the request reaches the core.
    package private(set) var editLockTimeout = Duration.seconds(5)
    /// Where the host and its front log: the daemon's and `watch`'s standard error, an embedding app's own sink.
    package var log: LogSink

    /// Options, checked against `Limits`, logging to `log` (the library makes no sink of its own: the front that
    /// makes the options says where its lines go).
    /// - Throws: `ServiceOptions.Error` naming the first value out of its range.
    package init(bundle: String, developmentLanguage: String, watcher: BundleWatcher.Options = .init(),
                 stateDirectory: String? = nil, pull: (options: PullOptions, schedule: PullSchedule)? = nil,
                 log: LogSink) throws(Error) {
        guard let language = LanguageTag(developmentLanguage), !language.isBase else {
            throw Error(.developmentLanguage, "a language tag such as en or pt-BR")
        }
        try Limits.settle.check(watcher.settling.settleTime, .settle)
        try Limits.batchWindow.check(watcher.settling.batchWindow, .batchWindow)
        try Limits.readAheadQuiet.check(watcher.settling.readAheadQuiet, .readAheadQuiet)
        try Limits.maximumFileSize.check(watcher.maximumFileSize, .maximumFileSize)
        if let (options, schedule) = pull {
            try Limits.pullInterval.check(schedule.interval, .pullInterval)
            try Self.check(options)
        }
        self.bundle = bundle
        self.developmentLanguage = language
        self.watcher = watcher
        self.stateDirectory = stateDirectory
        self.pull = pull
        self.log = log
    }

    /// Sets how long an edit waits for its language folder's lock.
    /// - Throws: `ServiceOptions.Error` when `timeout` is out of `Limits.editLockTimeout`.
    package mutating func setEditLockTimeout(_ timeout: Duration) throws(Error) {
        try Limits.editLockTimeout.check(timeout, .editLockTimeout)
        editLockTimeout = timeout
    }

    /// Checks the limits of pulling (the one-shot `pull` command checks them here too).
    /// - Throws: `ServiceOptions.Error` naming the first value out of its range.
    package static func check(_ options: PullOptions) throws(Error) {
        try Limits.keptReleases.check(options.keptReleases, .keptReleases)
        try Limits.maximumManifestSize.check(options.maximumManifestSize, .maximumManifestSize)
        try Limits.maximumDownloadSize.check(options.maximumFileSize, .maximumDownloadSize)
        try Limits.maximumReleaseSize.check(options.maximumReleaseSize, .maximumReleaseSize)
        try Limits.maximumRedirects.check(options.limits.maximumRedirects, .maximumRedirects)
        try Limits.pullTimeout.check(options.limits.idleTimeout, .pullTimeout)
    }

    /// The ranges `ServiceOptions` accepts.
    package enum Limits {
        /// Quiet time for modifications and deletions.
        package static let settle = Range(Duration.zero, .seconds(60), "a number of milliseconds from 0 to 60000")
        /// How long a batch waits for more writes.
        package static let batchWindow = Range(Duration.zero, .seconds(1),
                                               "a number of microseconds from 0 to 1000000")
        /// How long a single save's read ahead waits for another write before it is published.
        package static let readAheadQuiet = Range(Duration.zero, .seconds(1),
                                                  "a number of microseconds from 0 to 1000000")
        /// Larger files are errors, not read.
        package static let maximumFileSize = Range(1, Int.max, "a positive number of bytes")
        /// The wait between pulls that work.
        package static let pullInterval = Range(Duration.milliseconds(100), .seconds(86_400),
                                                "seconds from 0.1 to 86400")
        /// Releases kept before the current one.
        package static let keptReleases = Range(0, 1000, "a whole number from 0 to 1000")
        /// The largest manifest read.
        package static let maximumManifestSize = Range(1, 1 << 30, "a whole number from 1 to \(1 << 30)")
        /// The largest file a manifest may name.
        package static let maximumDownloadSize = Range(1, 1 << 30, "a whole number from 1 to \(1 << 30)")
        /// The largest release.
        package static let maximumReleaseSize = Range(1, 1 << 40, "a whole number from 1 to \(1 << 40)")
        /// Redirects followed per request.
        package static let maximumRedirects = Range(0, 50, "a whole number from 0 to 50")
        /// How long an edit waits for its language folder's lock (0: it is tried once).
        package static let editLockTimeout = Range(Duration.zero, .seconds(3600), "seconds from 0 to 3600")
        /// The longest wait for the next bytes of a response (more than 0).
        package static let pullTimeout = Range(Duration.zero, .seconds(3600), "seconds, more than 0 and at most 3600",
                                               excludesLowerBound: true)
    }

    /// A range of accepted values and how it reads in a message ("a whole number from 0 to 1000").
    package struct Range<Value: Comparable & Sendable>: Sendable {
        /// The least value (accepted unless `excludesLowerBound`).
        package let lowerBound: Value
        /// The greatest value accepted.
        package let upperBound: Value
        /// What the range takes, as the end of "--keep-releases takes …".
        package let requirement: String
        /// Whether `lowerBound` itself is refused.
        package let excludesLowerBound: Bool

        init(_ lowerBound: Value, _ upperBound: Value, _ requirement: String, excludesLowerBound: Bool = false) {
            self.lowerBound = lowerBound
            self.upperBound = upperBound
            self.requirement = requirement
            self.excludesLowerBound = excludesLowerBound
        }

        /// The range as a closed range (a range that `excludesLowerBound` includes it here: check with
        /// `contains`).
        package var closed: ClosedRange<Value> { lowerBound ... upperBound }

        /// Whether `value` is accepted.
        package func contains(_ value: Value) -> Bool {
            (excludesLowerBound ? value > lowerBound : value >= lowerBound) && value <= upperBound
        }

        func check(_ value: Value, _ option: Option) throws(Error) {
            guard contains(value) else { throw Error(option, requirement) }
        }
    }

    /// An option of the host, as each front names it its own way (`serve` by its flag, embedded mode by its
    /// property).
    package enum Option: Sendable, Equatable {
        case developmentLanguage, settle, batchWindow, readAheadQuiet, maximumFileSize
        case pullInterval, keptReleases, maximumManifestSize, maximumDownloadSize, maximumReleaseSize
        case maximumRedirects, pullTimeout, editLockTimeout
    }

    /// A value `ServiceOptions` refuses: which, and what it takes.
    package struct Error: Swift.Error, Sendable, Equatable, CustomStringConvertible {
        /// The option refused.
        package var option: Option
        /// What it takes, as the end of "--keep-releases takes …".
        package var requirement: String

        init(_ option: Option, _ requirement: String) {
            self.option = option
            self.requirement = requirement
        }

        /// "`option` takes `requirement`", the option named as in Swift.
        package var description: String { "\(option) takes \(requirement)" }
    }
}
