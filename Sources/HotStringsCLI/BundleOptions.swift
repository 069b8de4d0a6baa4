import BundleWatcher
import LinuxSystem
import StringsFormat

/// The options `watch` and `serve` share: how the bundle is read and settled.
struct BundleOptions {
    static let developmentLanguage: CommandOption<LanguageTag> = .value(
        "development-language", .language, default: LanguageTag("en")!,
        help: "The language every lookup falls back to before Base.")
    static let settle: CommandOption<Duration> = .value(
        "settle", .duration(plain: .milliseconds, in: .zero ... .seconds(60)), default: .milliseconds(50),
        help: "Quiet time for modifications and deletions.")
    static let batchWindow: CommandOption<Duration> = .value(
        "batch-window", .duration(plain: .microseconds, in: .zero ... .seconds(1)), default: .microseconds(500),
        help: "How long a batch waits for more writes.")
    static let maximumFileSize: CommandOption<Int> = .value(
        "max-file-size", .integer("bytes", in: 1 ... .max), default: 16 << 20,
        help: "Larger files are reported as errors, not read.")
    static let followsExternalSymlinks: CommandOption<Bool> = .flag(
        "follow-external-symlinks",
        help: "Also read tables and folders whose symbolic links lead outside the bundle (off: such a link is "
            + "an error, so that whoever can write the bundle cannot make this process read other files).")

    /// The options, in the order help lists them.
    static let options: [any OptionDeclaration] = [
        developmentLanguage, settle, batchWindow, maximumFileSize, followsExternalSymlinks,
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
        developmentLanguage = try arguments[Self.developmentLanguage].identifier
        watcher.settling.settleTime = try arguments[Self.settle]
        watcher.settling.batchWindow = try arguments[Self.batchWindow]
        watcher.settling.maximumDelay = max(watcher.settling.batchWindow * 100, .milliseconds(100))
        watcher.maximumFileSize = try arguments[Self.maximumFileSize]
        watcher.followsExternalSymlinks = try arguments[Self.followsExternalSymlinks]
    }
}
