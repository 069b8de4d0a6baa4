import Foundation
import HotStringsRelease
import HotStringsTestSupport
import LinuxSystem
import Testing

/// A bundle to publish (a copy of sample-bundle), a publish folder, and a second bundle to pull into, in one
/// temporary folder.
final class ReleaseFixture {
    let sandbox: Sandbox
    /// The bundle that is published (`sandbox.bundle`).
    var source: String { sandbox.bundle }
    /// The publish output.
    var output: String { sandbox.root + "/published" }
    /// The bundle releases are pulled into.
    var target: String { sandbox.root + "/pulled" }

    init() throws {
        sandbox = try Sandbox(prefix: "hs-release-")
    }

    /// Publishes the source bundle; the new release's id.
    @discardableResult
    func publish() throws -> String {
        try Publisher().publish(bundle: source, to: output).manifest.release
    }

    /// Changes `greeting` in the source's `de.lproj/Localizable.strings` to `Hallo <value>` and publishes.
    @discardableResult
    func publishChange(_ value: String = UUID().uuidString) throws -> String {
        // Appended: the last of duplicate keys wins, so the served value changes.
        try sandbox.save((try sandbox.read("de.lproj/Localizable.strings")) + "\n\"greeting\" = \"Hallo \(value)\";\n",
                         to: "de.lproj/Localizable.strings")
        return try publish()
    }

    /// Publishes, behind publish's back (a hand-edited origin), a release whose `fr.lproj/Localizable.strings` does
    /// not parse: line 2, column 7. The manifest is renamed into place, as publish does.
    func publishBrokenFrenchTable() throws {
        let broken = Array("\"a\" = \"b\";\n\"c\" = ;\n".utf8)
        let digest = SHA256.hexDigest(broken)
        try FileSystem.writeFile(broken, toPath: output + "/files/" + digest)
        var manifest = try ReleaseManifest.decode(
            try FileSystem.readFile(atPath: output + "/manifest.json", maximumSize: 1 << 20))
        manifest.files = manifest.files.map { file in
            file.path == "fr.lproj/Localizable.strings"
                ? ReleaseManifest.File(path: file.path, size: broken.count, sha256: digest) : file
        }
        manifest.release = "hand-edited"
        try FileSystem.writeFile(manifest.json, toPath: output + "/manifest.json.tmp")
        try FileSystem.rename(output + "/manifest.json.tmp", to: output + "/manifest.json")
    }

    /// Pull options for `url` with short timeouts for tests.
    func options(_ url: String) throws -> PullOptions {
        var options = try PullOptions(url: url)
        options.limits.idleTimeout = .seconds(2)
        options.limits.totalTimeout = .seconds(10)
        return options
    }

    /// The release `..data` of the target points at.
    var currentRelease: String? { ReleaseStore(bundle: target).current()?.id }

    /// The names in the target's root.
    /// A real nginx serving `output` (made here); the test is cancelled when nginx is not installed.
    func nginxOrigin() throws -> NginxOrigin {
        guard NginxOrigin.executable != nil else { try Test.cancel("nginx is not installed (CI installs it)") }
        try FileSystem.makeDirectory(atPath: output)
        return try NginxOrigin(root: output)
    }

    var targetEntries: [String] { ((try? FileSystem.listDirectory(atPath: target)) ?? []).map(\.name) }

    /// Checks that what the target serves through its language and catalog links is exactly release `id` of the
    /// publish output: every file of its manifest, whole, and no language folder or root catalog more.
    func servesExactly(_ id: String) throws -> Bool {
        let bytes = try FileSystem.readFile(atPath: output + "/releases/\(id).json", maximumSize: 1 << 20)
        let manifest = try ReleaseManifest.decode(bytes)
        for file in manifest.files {
            guard let served = try? FileSystem.readFile(atPath: target + "/" + file.path, maximumSize: 1 << 24),
                  SHA256.hexDigest(served) == file.sha256 else { return false }
        }
        let linked = Set(targetEntries.filter {
            ($0.hasSuffix(".lproj") || $0.hasSuffix(".xcstrings")) && !$0.hasPrefix(".")
        })
        return linked == Set(manifest.folders + manifest.rootCatalogs)
    }
}
