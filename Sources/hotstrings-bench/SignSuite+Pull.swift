import Foundation
import HotStringsRelease
import HotStringsTestSupport
import LinuxSystem

extension SignSuite {
    /// The median time of a signed pull of a one-key change from a real nginx (`--trusted-key`: the signature
    /// fetched and verified, one changed table fetched, verified and installed), `rounds` changes; nil when nginx
    /// is not installed. The bundle: `languages` folders of `tables` tables of 50 keys each.
    static func oneKeyChangePullTimes(rounds: Int, languages: Int = 10, tables: Int = 20) throws -> [Double]? {
        guard NginxOrigin.executable != nil else { return nil }
        let workspace = try FileSystem.makeTemporaryDirectory(prefix: "hs-bench-sign-pull-")
        defer { try? FileSystem.removeRecursively(atPath: workspace) }
        let (source, output, target) = (workspace + "/bundle", workspace + "/published", workspace + "/pulled")
        for language in 0..<languages {
            // Language folders the daemon serves (`aaa.lproj`): a pull refuses a folder whose name is no language.
            let folder = source + "/" + ManyLanguagesInstall.language(language) + ".lproj"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            for table in 0..<tables {
                let text = (0..<50).map { "\"key\($0)\" = \"value \($0) of table \(table)\";\n" }.joined()
                try FileSystem.writeFile(Array(text.utf8), toPath: folder + "/Table\(table).strings")
            }
        }
        try FileSystem.makeDirectory(atPath: output)
        let nginx = try NginxOrigin(root: output)
        var key = MinisignSecretKey.generate()
        defer { key.wipe() }
        var publisher = Publisher()
        publisher.expiresIn = .seconds(86_400)
        func publish() throws {
            _ = try publisher.publish(bundle: source, to: output)
            try ReleaseSigning.signManifest(at: output + "/manifest.json", with: key)
        }
        try publish()
        var options = try PullOptions(url: nginx.url)
        options.trustedKeys = [key.publicKey]
        let puller = Puller(bundle: target, options: options)
        _ = try puller.pull()
        var times: [Double] = []
        for round in 0..<rounds {
            let path = source + "/" + ManyLanguagesInstall.language(0) + ".lproj/Table0.strings"
            let text = try String(contentsOfFile: path, encoding: .utf8) + "\"key0\" = \"changed \(round)\";\n"
            try FileSystem.writeFile(Array(text.utf8), toPath: path)
            try publish()
            let start = ContinuousClock.now
            let outcome = try puller.pull()
            let elapsed = (ContinuousClock.now - start).components
            guard case .installed = outcome.kind else { throw UsageError("round \(round) installed nothing") }
            times.append(Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18)
        }
        return times
    }
}
