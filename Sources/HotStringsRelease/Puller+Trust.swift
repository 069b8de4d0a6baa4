import Foundation
import LinuxSystem

/// What a puller with trusted keys (`PullOptions.trustedKeys`) checks before it installs anything: the manifest's
/// signature (`manifest.json.minisig` beside it, in minisign's format, prehashed `ED` or legacy `Ed`, its trusted
/// comment's global signature too) by one of the keys; then that the manifest has a sequence no lower than the
/// highest the bundle installed (and other content under that same sequence is refused), and that it has not
/// expired (with `clockSkew` of allowance). The files are then checked against the signed manifest as always.
extension Puller {
    /// How far past its `expires` a manifest is still installed: clocks of publishers and machines differ.
    package static let clockSkew: TimeInterval = 5 * 60
    /// The largest signature file read.
    static let maximumSignatureSize = 64 << 10

    /// Fetches the signature of `manifest` (the bytes fetched from `options.manifestURL`) and checks it.
    /// - Returns: the id of the key that signed.
    /// - Throws: `ReleaseError.untrusted` for no signature (404), a malformed one, an unknown key or a signature
    ///   that does not match (which may pass: an upload in progress), `.transfer` when it cannot be fetched.
    func checkSignature(of manifest: [UInt8], with fetcher: HTTPFetcher) throws(ReleaseError) -> String {
        let url = URL(string: options.manifestURL.absoluteString + ReleaseSigning.suffix) ?? options.manifestURL
        let shown = RedactedURL.text(url)
        let response: HTTPFetcher.Response
        do throws(ReleaseError) {
            response = try fetcher.get(url, maximumSize: Self.maximumSignatureSize)
        } catch .transfer(_, let reason) where reason == "HTTP status 404" {
            throw .untrusted(file: shown, reason: "no signature (HTTP status 404): with --trusted-key only a signed "
                + "manifest is installed (publish --sign)")
        }
        let signature: MinisignSignature
        do throws(MinisignError) {
            signature = try MinisignSignature(fileText: String(decoding: response.body, as: UTF8.self))
        } catch {
            throw .untrusted(file: shown, reason: "not a minisign signature: \(error)")
        }
        do throws(MinisignError) {
            return try signature.verify(manifest, keys: options.trustedKeys).keyIDText
        } catch {
            let what = error.kind == .badSignature ? " (a manifest and signature being uploaded pass)" : ""
            throw .untrusted(file: shown, reason: "\(error)\(what)")
        }
    }

    /// Refuses a signed `manifest` without a sequence or expiry, expired at `now`, with a sequence lower than
    /// `highest`, or with `highest`'s sequence and other content.
    /// - Throws: `ReleaseError.untrusted` naming the manifest and the reason.
    func checkFreshness(of manifest: ReleaseManifest, highest: ReleaseStore.HighestSequence?, now: Date)
        throws(ReleaseError) {
        let shown = RedactedURL.text(options.manifestURL)
        guard let sequence = manifest.sequence else {
            throw .untrusted(file: shown, reason: "the signed manifest has no \"sequence\" (publish it with --sign)")
        }
        try checkExpiry(of: manifest, now: now)
        guard let highest else { return }
        if sequence < highest.sequence {
            throw .untrusted(file: shown, reason: "sequence \(sequence) is lower than \(highest.sequence), the highest "
                + "installed: a rollback is refused (publish --from-release rolls back with a new sequence)")
        }
        if sequence == highest.sequence, manifest.contentDigest != highest.contentDigest {
            throw .untrusted(file: shown, reason: "sequence \(sequence) was installed with other files: the same "
                + "sequence with other content is refused")
        }
    }

    /// Refuses a manifest without `expires` or whose `expires` is more than `clockSkew` before `now`.
    func checkExpiry(of manifest: ReleaseManifest, now: Date) throws(ReleaseError) {
        let shown = RedactedURL.text(options.manifestURL)
        guard let expires = manifest.expires, let date = manifest.expiryDate else {
            throw .untrusted(file: shown, reason: "the signed manifest has no \"expires\" (publish it with --sign)")
        }
        if now.timeIntervalSince(date) > Self.clockSkew {
            throw .untrusted(file: shown, reason: "expired at \(expires) (more than 5 minutes ago): publish again "
                + "with --sign to extend it")
        }
    }
}
