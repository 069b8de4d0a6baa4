import HotStringsClient
import StringsFormat

extension LiveStrings {
    /// Where an embedded `LiveStrings` keeps pulling releases from (`hotstrings publish` output on any web
    /// server or CDN), as `hotstrings serve --pull` does: see `embedded(bundle:pull:configuration:options:)`.
    public struct PullSource: Sendable {
        /// The published folder's `http://` or `https://` URL, or its `manifest.json`'s.
        public var url: String
        /// The wait between pulls that work (30 s by default; each wait is a random 90-100% of it). After the
        /// n-th failure in a row the wait is a random half to all of `interval × 2^n`, at most 5 minutes (or the
        /// interval when longer).
        public var interval: Duration
        /// Releases before the current one kept in the bundle (3 by default).
        public var keptReleases: Int
        /// The largest file a manifest may name (16 MiB by default); a release with a larger one is not installed.
        public var maximumFileSize: Int
        /// The largest release, all its files together (256 MiB by default); a larger one is not installed and
        /// none of its files is fetched.
        public var maximumReleaseSize: Int
        /// The longest wait for the next bytes of a response (10 s by default).
        public var timeout: Duration
        /// minisign public keys (the text of a `.pub` file, or just its key line): when given, only manifests
        /// signed by one of them, unexpired and with a sequence no lower than the highest installed are installed
        /// (as `hotstrings pull --trusted-key`; see docs/DEPLOY.md). Empty by default: signatures are not looked at.
        public var trustedKeys: [String]
        /// Called on the puller's thread when a pull installs nothing, with why (the file, line and column, or
        /// the URL and the HTTP error); a run of identical failures calls it once. The last good release stays.
        public var onFailure: (@Sendable (FileProblem) -> Void)?
        /// Called on the puller's thread when a pull has installed a release, with its id (the reload follows).
        public var onInstall: (@Sendable (String) -> Void)?

        /// A source; every parameter but the URL has a default suited to an application.
        public init(url: String, interval: Duration = .seconds(30), keptReleases: Int = 3,
                    maximumFileSize: Int = 16 << 20, maximumReleaseSize: Int = 256 << 20,
                    timeout: Duration = .seconds(10), trustedKeys: [String] = [],
                    onFailure: (@Sendable (FileProblem) -> Void)? = nil,
                    onInstall: (@Sendable (String) -> Void)? = nil) {
            self.url = url
            self.interval = interval
            self.keptReleases = keptReleases
            self.maximumFileSize = maximumFileSize
            self.maximumReleaseSize = maximumReleaseSize
            self.timeout = timeout
            self.trustedKeys = trustedKeys
            self.onFailure = onFailure
            self.onInstall = onInstall
        }
    }
}
