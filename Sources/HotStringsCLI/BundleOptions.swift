import BundleWatcher
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

    init(_ arguments: ParsedArguments) throws(UsageError) {
        guard let language = arguments.value("development-language").flatMap({ LanguageTag($0) }), !language.isBase else {
            throw UsageError("--development-language takes a language tag such as en or pt-BR")
        }
        developmentLanguage = language.identifier
        guard let settle = arguments.value("settle").flatMap(Int.init), (0...60_000).contains(settle) else {
            throw UsageError("--settle takes a number of milliseconds from 0 to 60000")
        }
        guard let window = arguments.value("batch-window").flatMap(Int.init), (0...1_000_000).contains(window) else {
            throw UsageError("--batch-window takes a number of microseconds from 0 to 1000000")
        }
        guard let size = arguments.value("max-file-size").flatMap(Int.init), size > 0 else {
            throw UsageError("--max-file-size takes a positive number of bytes")
        }
        watcher.settling.settleTime = .milliseconds(settle)
        watcher.settling.batchWindow = .microseconds(window)
        watcher.settling.maximumDelay = max(watcher.settling.batchWindow * 100, .milliseconds(100))
        watcher.maximumFileSize = size
        watcher.followsExternalSymlinks = arguments.flag("follow-external-symlinks")
    }
}
