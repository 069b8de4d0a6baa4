import HotStringsClient
import HotStringsLog

extension LiveStrings {
    /// How an embedded `LiveStrings` reads its bundle (see `embedded(bundle:pull:configuration:options:)`).
    public struct EmbeddedOptions: Sendable {
        /// The language every lookup falls back to before `Base` (`en` by default), as `serve
        /// --development-language`.
        public var developmentLanguage: String
        /// A folder where `setLanguage(_:)` saves the selection so that the next run starts with it (created
        /// with its parents, mode 0700, if missing); nil, the default, keeps the selection in memory for this
        /// run only. A selection that cannot be saved is refused (`setLanguage` throws `.rejected` with code
        /// `internal`) and not applied.
        public var stateDirectory: String?
        /// Files larger than this are reported as errors and not read (16 MiB by default).
        public var maximumFileSize: Int
        /// Whether tables and folders whose symbolic links lead outside the bundle are read (off by default, as
        /// `serve --follow-external-symlinks`).
        public var followsExternalSymlinks: Bool
        /// Whether the pseudo-languages `en-XA` and `ar-XB` are served, made from the development language's
        /// tables and remade in the same reload when they change (off by default, as `serve --pseudo-languages`).
        public var pseudoLanguages: Bool
        /// Serves the translator's page (docs/WEB.md) on 127.0.0.1 at this port (0: one the kernel picks), as
        /// `serve --web` does: edits saved there reach this process (and every other watching the bundle) in one
        /// reload. Nil, the default, serves no page. The page's address with its token is logged (`log`), passed
        /// to `onWebPage` and shown by `status`; the token is kept in `stateDirectory` when there is one (else it
        /// lasts as long as the process).
        public var webPort: UInt16?
        /// Whether a new token replaces the saved one, as `serve --web-new-token` (off by default).
        public var rotatesWebToken: Bool
        /// Called once, when the page is served, with its address and token (`http://127.0.0.1:PORT/?token=…`):
        /// for a debug menu, or to open a browser.
        public var onWebPage: (@Sendable (String) -> Void)?
        /// How long `set` and `remove` (this process's, and the page's) wait for their language folder's lock, which
        /// any process that can open the folder can hold, before they fail with `busy` and nothing written (5 seconds
        /// by default, from 0 to an hour; as `serve --edit-lock-timeout`). The wait is on a thread of the host's
        /// own: lookups, reloads and other requests go on meanwhile.
        public var editLockTimeout: Duration
        /// Where the embedded host logs what an operator would want to know (`import HotStringsLog` to name the
        /// type): the page's address, a refused request to the page, a token that cannot be saved. Standard error
        /// by default, one line each as the daemon writes them (`hotstrings: warning: …`); give the app's own
        /// handler to keep them with its logs, or `.discarding` to drop them. Nothing else HotStrings does in the
        /// process writes to standard error.
        public var log: LogSink

        /// Options; every parameter has a default suited to an application.
        public init(developmentLanguage: String = "en", stateDirectory: String? = nil,
                    maximumFileSize: Int = 16 << 20, followsExternalSymlinks: Bool = false,
                    pseudoLanguages: Bool = false, webPort: UInt16? = nil, rotatesWebToken: Bool = false,
                    onWebPage: (@Sendable (String) -> Void)? = nil, editLockTimeout: Duration = .seconds(5),
                    log: LogSink = .standardError()) {
            self.log = log
            self.editLockTimeout = editLockTimeout
            self.webPort = webPort
            self.rotatesWebToken = rotatesWebToken
            self.onWebPage = onWebPage
            self.pseudoLanguages = pseudoLanguages
            self.developmentLanguage = developmentLanguage
            self.stateDirectory = stateDirectory
            self.maximumFileSize = maximumFileSize
            self.followsExternalSymlinks = followsExternalSymlinks
        }
    }

    /// Live strings without a daemon: watches the bundle at `bundle` from inside this process.
    ///
    /// The returned client has the whole `LiveStrings` API: the same lookups and fallback chain, `onReload`
    /// hooks and `changes()` when a `.strings` file changes, `setLanguage(_:)` (which here switches this
    /// process only, saved in `options.stateDirectory` when there is one), `overrideLanguage(_:)`. It reads
    /// the bundle in the background and returns at once; `waitUntilSynchronized(timeout:)` waits for the
    /// first scan. `stop()` (or releasing the client) ends the watcher.
    ///
    /// ```swift
    /// let strings = try LiveStrings.embedded(bundle: "/usr/share/myapp/Resources")
    /// _ = await strings.waitUntilSynchronized(timeout: .seconds(5))
    /// label.text = strings.localizedString("greeting")
    /// ```
    ///
    /// With `pull`, the process keeps the bundle fed from a published release, as `hotstrings serve --pull` does:
    /// it pulls at start and then every `pull.interval` on a thread of its own (the network never blocks the
    /// cooperative pool), verifies each release whole before one atomic install, and the reload follows through
    /// the watcher. A failed pull keeps the last good release (offline, indefinitely), backs off, and is reported
    /// to `pull.onFailure`. The bundle is created if missing and must hold no `<language>.lproj` folders (nor root
    /// `.xcstrings` catalogs) of its own.
    ///
    /// ```swift
    /// let strings = try LiveStrings.embedded(
    ///     bundle: cacheDirectory + "/translations",
    ///     pull: .init(url: "https://cdn.example.com/translations", interval: .seconds(60)))
    /// ```
    ///
    /// - Parameters:
    ///   - bundle: the folder holding the `<language>.lproj` folders.
    ///   - pull: where to keep pulling releases into `bundle` from; nil (the default) only watches the bundle.
    ///   - configuration: the tables, languages and environment, as for a daemon's client; the socket,
    ///     reconnection and timeout settings are unused.
    ///   - options: the development language, where to keep the selected language, the file size cap.
    /// - Throws: `EmbeddedStartError` when the bundle cannot be watched (it does not exist, or inotify is
    ///   out of instances), the development language is no language tag (or `Base`), the state directory
    ///   cannot be created, or (with `pull`) the URL is no http or https URL, a value is out of the range
    ///   `hotstrings serve --pull` accepts for it (the message names the property and the range), or the bundle
    ///   holds language folders of its own.
    public static func embedded(bundle: String, pull: PullSource? = nil,
                                configuration: Configuration = Configuration(),
                                options: EmbeddedOptions = EmbeddedOptions()) throws(EmbeddedStartError)
        -> LiveStrings {
        let transport = try EmbeddedTransport(bundle: bundle, options: options, pull: pull)
        return LiveStrings(transport: transport, configuration: configuration)
    }
}

/// Why an embedded `LiveStrings` could not start: a `code` to decide by, and a one-line `description`.
///
/// Made to grow, as `LiveStringsError`: new codes may come in any release, so a `switch error.code` needs a
/// `default:`; `catch EmbeddedStartError.Code.invalidOption` matches by code alone.
public struct EmbeddedStartError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure this is. New codes may be added in any release.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        /// The codes this release knows; private, so adding one breaks no `switch` outside this module.
        private enum Known: String, Sendable, Hashable {
            case invalidOption, cannotWatch, cannotPull, cannotSaveSelection, other
        }

        private let known: Known

        private init(_ known: Known) { self.known = known }

        /// An option is out of the range the daemon accepts too (`keptReleases`, an interval...).
        public static let invalidOption = Code(.invalidOption)
        /// The bundle cannot be watched: it is missing or not a folder, or inotify is out of watches.
        public static let cannotWatch = Code(.cannotWatch)
        /// The pull source cannot be used (its URL, or the bundle it would pull into).
        public static let cannotPull = Code(.cannotPull)
        /// The state directory, where the selected language is saved, cannot be created.
        public static let cannotSaveSelection = Code(.cannotSaveSelection)
        /// None of the above: an error made by `init(description:)`.
        public static let other = Code(.other)

        /// The code's name: `invalidOption`.
        public var description: String { known.rawValue }
    }

    /// What kind of failure this is.
    public var code: Code
    /// A one-line explanation, naming the bundle or the option at fault.
    public var description: String

    /// An error with its code and explanation.
    public init(_ code: Code, description: String) {
        self.code = code
        self.description = description
    }

    /// An error with its explanation only (code `.other`).
    public init(description: String) {
        self.init(.other, description: description)
    }

    /// Whether `error` has the code `code`: `catch EmbeddedStartError.Code.cannotWatch`.
    public static func ~= (code: Code, error: EmbeddedStartError) -> Bool {
        error.code == code
    }
}

extension EmbeddedStartError.Code {
    /// Whether `error` is an `EmbeddedStartError` with the code `code`, for a `catch` of untyped errors.
    public static func ~= (code: Self, error: any Error) -> Bool {
        (error as? EmbeddedStartError)?.code == code
    }
}
