import Foundation
import LinuxSystem

/// Signatures of published manifests: `manifest.json.minisig` beside `manifest.json`, in minisign's format, so
/// `minisign -Vm manifest.json -p KEY.pub` checks a release by hand.
package enum ReleaseSigning {
    /// What a manifest's signature file is called beside it (and its URL is the manifest's plus this).
    package static let suffix = ".minisig"

    /// The trusted comment minisign writes itself (`timestamp:<seconds>\tfile:<name>\thashed`), naming the
    /// manifest and the time of signing.
    package static func trustedComment(file: String, date: Date) -> String {
        "timestamp:\(Int(date.timeIntervalSince1970))\tfile:\(file)\thashed"
    }

    /// Signs the manifest at `manifestPath` with `key` (prehashed, minisign's default) and writes
    /// `manifestPath.minisig` atomically, after the manifest: a host that uploads in that order never serves a
    /// signature of a manifest it does not have yet.
    /// - Throws: `ReleaseError.system` when the manifest cannot be read or the signature written.
    @discardableResult
    package static func signManifest(at manifestPath: String, with key: MinisignSecretKey, date: Date = Date())
        throws(ReleaseError) -> MinisignSignature
    {
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.readFile(atPath: manifestPath, maximumSize: 64 << 20)
        } catch {
            throw .system("read \(manifestPath): \(error)")
        }
        let name = String(manifestPath.split(separator: "/").last ?? "manifest.json")
        let signature = key.signature(of: bytes, trustedComment: trustedComment(file: name, date: date))
        do {
            try FileSystem.writeFileAtomically(Array(signature.fileText.utf8), toPath: manifestPath + suffix)
        } catch {
            throw .system("write \(manifestPath + suffix): \(error)")
        }
        return signature
    }
}
