import Foundation
import LinuxSystem

/// Where and how to pull releases from.
package struct PullOptions: Sendable {
    /// The manifest's URL (`https://cdn.example.com/app/manifest.json`).
    package var manifestURL: URL
    /// The largest manifest read (4 MiB by default).
    package var maximumManifestSize = 4 << 20
    /// The largest file a manifest may name (16 MiB by default, the watcher's cap).
    package var maximumFileSize = 16 << 20
    /// The largest release, all its files together, that is fetched and installed (256 MiB by default).
    package var maximumReleaseSize = 256 << 20
    /// Redirects and timeouts.
    package var limits = HTTPFetcher.Limits()
    /// How many releases before the current one stay in the bundle for `rollback`.
    package var keptReleases = 3
    /// The keys a manifest must be signed by (`--trusted-key`, several during a key rotation); with none,
    /// signatures, sequences and expiry are not looked at (see `Puller+Trust`).
    package var trustedKeys: [MinisignPublicKey] = []

    /// Options for the origin at `url`: a publish folder's URL (its `manifest.json` is read) or the manifest's.
    /// - Throws: `ReleaseError.invalidManifest` for anything but an http or https URL with a host.
    package init(url: String) throws(ReleaseError) {
        guard var parsed = URL(string: url), let scheme = parsed.scheme?.lowercased(),
              scheme == "http" || scheme == "https", parsed.host != nil else {
            throw .invalidManifest("'\(RedactedURL.text(url))' is not an http:// or https:// URL with a host")
        }
        if !parsed.path.hasSuffix(".json") { parsed = parsed.appendingPathComponent("manifest.json") }
        manifestURL = parsed
    }

    /// The URL of the file with digest `sha256`: `files/<sha256>` beside the manifest.
    func fileURL(_ sha256: String) -> URL {
        manifestURL.deletingLastPathComponent().appendingPathComponent("files").appendingPathComponent(sha256)
    }
}

/// What one pull did.
package struct PullOutcome: Sendable, Equatable {
    /// How the pull ended.
    package enum Kind: Sendable, Equatable {
        /// The origin answered 304: the installed release is current.
        case notModified
        /// The manifest was fetched and names the installed release.
        case unchanged
        /// A new release was installed (or a kept one made current again); the one it replaced, if any.
        case installed(previous: String?)
    }

    /// How the pull ended.
    package var kind: Kind
    /// The release current after the pull.
    package var release: String
    /// HTTP requests made.
    package var requests: Int
    /// Body bytes received (from the network; not those taken from installed releases).
    package var bytesFetched: Int
    /// When the release current after the pull expires (its manifest's `expires`), if it does.
    package var expires: String?

    /// A warning when the release current after the pull expires within a day (or has expired), else nil.
    package var expiryWarning: String? {
        guard let expires, let date = ReleaseTime.date(expires), date.timeIntervalSinceNow < 86_400 else { return nil }
        return "\(release) \(date.timeIntervalSinceNow < 0 ? "expired" : "expires") at \(expires): publish again "
            + "with --sign to extend it"
    }
}

/// One pull: fetch the manifest (conditionally), fetch the files no installed release has, verify every file's
/// size and SHA-256 and that every table parses, and only then install the release atomically.
///
/// Memory holds the manifest and one file at a time: files are written to the staging folder as they arrive
/// (hashed on the way, read back only to parse a table), each distinct digest is fetched once (files sharing it
/// are linked to the first), and a release over `maximumReleaseSize` is refused before any file is fetched.
package struct Puller: Sendable {
    /// The bundle's releases.
    package var store: ReleaseStore
    /// The origin and the limits.
    package var options: PullOptions

    /// A puller of `options` into `bundle`.
    package init(bundle: String, options: PullOptions) {
        store = ReleaseStore(bundle: bundle)
        store.keptReleases = options.keptReleases
        self.options = options
    }

    /// Pulls once.
    /// - Throws: `ReleaseError` saying why nothing was installed: the transfer, the manifest, the file (expected
    ///   and got), the table (line and column), or the disk. The installed release stays current.
    package func pull() throws(ReleaseError) -> PullOutcome {
        try pull(using: HTTPFetcher(limits: options.limits))
    }

    /// Pulls once through `fetcher` (one fetcher serves many pulls, reusing its connections), whose `cancel()`
    /// ends the pull without installing anything (unless it comes after every file was fetched and verified: the
    /// install then completes, as crash-safe as always).
    /// - Throws: as `pull()`.
    package func pull(using fetcher: HTTPFetcher) throws(ReleaseError) -> PullOutcome {
        try store.locked { () throws(ReleaseError) -> PullOutcome in
            try store.prepare()
            let before = fetcher.traffic
            let kind = try pull(with: fetcher)
            let traffic = fetcher.traffic
            let current = store.current()
            return PullOutcome(kind: kind, release: current?.id ?? "", requests: traffic.requests - before.requests,
                               bytesFetched: traffic.bytes - before.bytes, expires: current?.manifest.expires)
        }
    }

    private func pull(with fetcher: HTTPFetcher) throws(ReleaseError) -> PullOutcome.Kind {
        // Redacted: the install record is a file in the bundle, and `status` shows where a release came from.
        let source = RedactedURL.text(options.manifestURL)
        let isTrusting = !options.trustedKeys.isEmpty
        let current = store.current()
        // Under trusted keys, a current release that none of them signed is never "up to date": asked for without
        // validators, so the origin's answer is verified (or refused) rather than answered 304 for ever.
        let isVerified = !isTrusting
            || options.trustedKeys.contains { $0.keyIDText == current?.signer }
        let validators = current?.source == source && isVerified ? current : nil
        let response = try fetcher.get(options.manifestURL, entityTag: validators?.entityTag,
                                       lastModified: validators?.lastModified,
                                       maximumSize: options.maximumManifestSize)
        if response.status == 304 {
            // An origin answering 304 for ever must not keep a machine on an expired release unnoticed.
            if isTrusting, let current { try checkExpiry(of: current.manifest, now: Date()) }
            return .notModified
        }
        let signer = isTrusting ? try checkSignature(of: response.body, with: fetcher) : nil
        let manifest = try ReleaseManifest.decode(response.body, maximumFileSize: options.maximumFileSize)
        let highest = isTrusting ? store.highestSequence() : nil
        if isTrusting { try checkFreshness(of: manifest, highest: highest, now: Date()) }
        guard manifest.totalSize <= options.maximumReleaseSize else {
            throw .invalidManifest("the release's \(manifest.files.count) files total \(manifest.totalSize) bytes, "
                + "over the cap of \(options.maximumReleaseSize) (--max-release-size)")
        }
        var release = InstalledRelease(manifest: manifest, installedAt: Int(Date().timeIntervalSince1970 * 1e6),
                                       entityTag: response.entityTag, lastModified: response.lastModified,
                                       source: source)
        release.signer = signer
        /// Records a higher sequence as the highest, before the release is current (a crash in between leaves a
        /// record the next pull of the same manifest meets again as the same sequence and content).
        func recordSequence() throws(ReleaseError) {
            guard isTrusting, let sequence = manifest.sequence, sequence > highest?.sequence ?? -1 else { return }
            try store.record(ReleaseStore.HighestSequence(sequence: sequence, contentDigest: manifest.contentDigest))
        }
        if let current, current.id == manifest.id, current.manifest.files == manifest.files {
            // The same release; with another sequence or expiry (an expiry extended), recorded without an install.
            release.installedAt = current.installedAt
            release.folderName = current.folderName
            if current.manifest != manifest { try store.updateManifest(of: release) }
            try store.update(release)
            try recordSequence()
            return .unchanged
        }
        if let kept = store.installed().last(where: { $0.id == manifest.id && $0.manifest.files == manifest.files }) {
            // A release kept from before (the origin was rolled back): current again without a download.
            release.folderName = kept.folderName
            if kept.manifest != manifest { try store.updateManifest(of: release) }
            try store.update(release)
            try recordSequence()
            try store.makeCurrent(release)
            return .installed(previous: current?.id)
        }
        let staging = try store.stagingFolder(for: release)
        do throws(ReleaseError) {
            try stage(manifest, in: staging, with: fetcher)
            try recordSequence()
        } catch {
            try? FileSystem.removeRecursively(atPath: staging)
            throw error
        }
        try store.install(release, staged: staging)
        return .installed(previous: current?.id)
    }

    /// Writes every file of `manifest` into `staging`, verified: each digest once (from an installed release, or
    /// fetched straight into its file), the files sharing it linked to that one.
    private func stage(_ manifest: ReleaseManifest, in staging: String, with fetcher: HTTPFetcher)
        throws(ReleaseError) {
        var staged: [String: String] = [:]
        for file in manifest.files {
            let path = staging + "/" + file.path
            if let first = staged[file.sha256] {
                try link(first, to: path)
            } else if let local = store.localFile(sha256: file.sha256, size: file.size) {
                // Checked against the digest by `localFile`.
                try system("write \(file.path)") { try FileSystem.writeFileAtomically(local, toPath: path) }
            } else {
                let (size, digest) = try fetcher.download(options.fileURL(file.sha256), maximumSize: file.size,
                                                          toFile: path)
                guard size == file.size else { throw .sizeMismatch(path: file.path, expected: file.size, got: size) }
                guard digest == file.sha256 else {
                    throw .digestMismatch(path: file.path, expected: file.sha256, got: digest)
                }
            }
            // Size and digest are checked; tables are parsed as the watcher will parse them, from the disk, one at
            // a time.
            if ReleaseContent.isTable(file.path) {
                let bytes = try system("read \(file.path)") {
                    try FileSystem.readFile(atPath: path, maximumSize: file.size)
                }
                try ReleaseContent.validate(bytes, path: file.path)
            }
            if staged.isEmpty { store.willReachStep(.firstFileWritten) }
            staged[file.sha256] = staged[file.sha256] ?? path
        }
    }

    /// Links `path` to the staged file `first` (same content; release files never change once written), or copies
    /// it where the file system has no hard links.
    private func link(_ first: String, to path: String) throws(ReleaseError) {
        do {
            try FileManager.default.linkItem(atPath: first, toPath: path)
        } catch {
            do {
                try FileManager.default.copyItem(atPath: first, toPath: path)
            } catch {
                throw .system("copy \(first) to \(path): \(error)")
            }
        }
    }

    /// Checks `bytes` against the manifest's entry: size, SHA-256, and that a table parses.
    /// - Throws: `ReleaseError.sizeMismatch`, `.digestMismatch` (expected and got) or `.invalidTable`.
    static func verify(_ bytes: [UInt8], against file: ReleaseManifest.File) throws(ReleaseError) {
        guard bytes.count == file.size else {
            throw .sizeMismatch(path: file.path, expected: file.size, got: bytes.count)
        }
        let digest = SHA256.hexDigest(bytes)
        guard digest == file.sha256 else { throw .digestMismatch(path: file.path, expected: file.sha256, got: digest) }
        try ReleaseContent.validate(bytes, path: file.path)
    }
}

extension ReleaseManifest {
    /// The release id (an alias that reads better beside `InstalledRelease.id`).
    package var id: String { release }
}
