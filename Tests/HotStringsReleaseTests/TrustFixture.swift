import Foundation
import HotStringsRelease
import HotStringsTestSupport
import LinuxSystem
import Testing

/// Signed publishing for the trust tests: a key pair (the public key in `trusted.pub`), publishes signed with it,
/// and a picture of the pulled bundle to show that a refusal changed nothing.
extension ReleaseFixture {
    /// The trusted public key file.
    var trustedKeyFile: String { sandbox.root + "/trusted.pub" }

    /// Makes the key pair and writes the public key file.
    func makeKey() throws -> MinisignSecretKey {
        let key = MinisignSecretKey.generate()
        try FileSystem.writeFile(Array(key.publicKey.fileText.utf8), toPath: trustedKeyFile)
        return key
    }

    /// Pull options for `url` that trust `key` alone.
    func options(_ url: String, trusting key: MinisignSecretKey) throws -> PullOptions {
        var options = try options(url)
        options.trustedKeys = [key.publicKey]
        return options
    }

    /// Minisign's path; the test is cancelled when it is not installed.
    static func minisign() throws -> String {
        guard let path = ["/usr/bin/minisign", "/usr/local/bin/minisign"]
            .first(where: FileManager.default.isExecutableFile)
        else { try Test.cancel("minisign is not installed (apt-get install minisign; .ci/run installs it)") }
        return path
    }

    /// A key pair made by `minisign -G -W` (no password) in the sandbox: its public and secret key files.
    func minisignKeyPair(_ minisign: String) throws -> (publicPath: String, secretPath: String) {
        let (publicPath, secretPath) = (sandbox.root + "/m.pub", sandbox.root + "/m.key")
        let made = try ProcessRun.tool(minisign, ["-G", "-W", "-p", publicPath, "-s", secretPath], mergingErrors: true)
        try #require(made.code == 0, "\(made.stdout)")
        return (publicPath, secretPath)
    }

    /// Publishes the source signed with `key` (`now` and `expiresIn` for the manifest's times); the manifest.
    @discardableResult
    func publishSigned(with key: MinisignSecretKey, now: Date = Date(), expiresIn: Duration = .seconds(86_400 * 30))
        throws -> ReleaseManifest {
        var publisher = Publisher()
        publisher.now = { now }
        publisher.expiresIn = expiresIn
        let manifest = try publisher.publish(bundle: source, to: output).manifest
        try ReleaseSigning.signManifest(at: output + "/manifest.json", with: key)
        return manifest
    }

    /// Changes `greeting` in the source's German table and publishes signed with `key`.
    @discardableResult
    func publishSignedChange(_ value: String = UUID().uuidString, with key: MinisignSecretKey) throws
        -> ReleaseManifest {
        try sandbox.save((try sandbox.read("de.lproj/Localizable.strings")) + "\n\"greeting\" = \"Hallo \(value)\";\n",
                         to: "de.lproj/Localizable.strings")
        return try publishSigned(with: key)
    }

    /// Replaces the origin's manifest with `manifest` signed by `key`.
    func serveSigned(_ manifest: ReleaseManifest, with key: MinisignSecretKey) throws {
        try serveManifest(manifest.json)
        try ReleaseSigning.signManifest(at: output + "/manifest.json", with: key)
    }

    /// Renames `bytes` into place as the origin's manifest, its modification time a second past the old one's (so
    /// nginx's `ETag` changes, as `publish` makes sure).
    func serveManifest(_ bytes: [UInt8]) throws {
        let path = output + "/manifest.json"
        let previous = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
        try FileSystem.writeFile(bytes, toPath: path + ".tmp")
        let modified = max(Date(), (previous ?? .distantPast).addingTimeInterval(1))
        try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: path + ".tmp")
        try FileSystem.rename(path + ".tmp", to: path)
    }

    /// The origin's current manifest.
    var servedManifest: ReleaseManifest {
        get throws {
            try ReleaseManifest.decode(try FileSystem.readFile(atPath: output + "/manifest.json", maximumSize: 1 << 20))
        }
    }

    /// Every name under the target (links with their targets, files with their SHA-256), but the pull lock and the
    /// empty folder a first install leaves for the next pull to remove: equal
    /// pictures mean a pull changed nothing.
    var targetPicture: [String] {
        var picture: [String] = []
        func walk(_ relative: String) {
            let path = relative.isEmpty ? target : target + "/" + relative
            for entry in (try? FileSystem.listDirectory(atPath: path)) ?? [] where entry.name != "..pull.lock" && entry.name != "...empty" {
                let name = relative.isEmpty ? entry.name : relative + "/" + entry.name
                switch entry.kind {
                case .symlink: picture.append(name + " -> " + ((try? FileSystem.linkTarget(atPath: path + "/"
                    + entry.name)) ?? "?"))
                case .directory:
                    picture.append(name + "/")
                    walk(name)
                default:
                    let bytes = (try? FileSystem.readFile(atPath: path + "/" + entry.name, maximumSize: 1 << 24)) ?? []
                    picture.append(name + " " + SHA256.hexDigest(bytes))
                }
            }
        }
        walk("")
        return picture.sorted()
    }
}
