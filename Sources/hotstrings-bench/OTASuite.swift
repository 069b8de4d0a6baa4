import Foundation
import HotStringsRelease
import HotStringsTestSupport
import LinuxSystem

/// `hotstrings-bench ota`: the over-the-air figures: our SHA-256 against `sha256sum` on the same file, and the bytes
/// a pull fetches for a one-key change of a real bundle next to the bundle's size, and publish-to-subscriber time of
/// three pulling daemons next to their save-to-subscriber time for a local edit (`OTAFleet`).
struct OTASuite: BenchmarkSuite {
    static let name = "ota"
    static let abstract =
        "ota: SHA-256 vs sha256sum; bytes a pull fetches for a one-key change vs the bundle; fleet publish time"
    static let help = """
        USAGE: swift run -c release hotstrings-bench ota [--hash-mib N] [--corpus PATH | --bundle PATH]
                                                     [--fleet-rounds N] [--pull-interval S]

        SHA-256: a file of N MiB of random bytes in a temporary folder, read and hashed by HotStrings' own SHA256
        (what `publish` and `pull` use), against `sha256sum FILE` (a process per run, reading the same file from
        the page cache), median of 5 each, interleaved; the digests must agree. Throughput as a ratio.

        Bytes fetched: a copy of the bundle (default: the corpus's element-ios/Riot/Assets, 153 files in 51
        languages) is published into a folder served by a real nginx on 127.0.0.1 and pulled into an empty
        bundle (release 1); then one key of one language (the first entry of fr.lproj/Vector.strings) gets a new
        value, the bundle is published again and pulled again. Counted from nginx's access log
        ($body_bytes_sent, every request of the second pull) and from the puller's own counter, next to the
        bundle's total size (every file of the manifest). Target: the changed file and the manifest only.

        Fleet: three `hotstrings serve BUNDLE --pull URL --pull-interval S` daemons (own bundle, socket and state
        each) pull from one nginx, two `hotstrings subscribe` processes each. N rounds: one key of a 100-key table
        changes and is published; the time from the publish until each subscriber has read the reload (p50 and
        max over subscribers and rounds), minus S. Next to it: three daemons without --pull on plain bundles of
        the same tables, two subscribers each; N rounds of an atomic save of the same one-key change into each
        bundle in turn, until each of its subscribers has read the reload. Ratios of max - S to the local save's
        max and p50.

        OPTIONS:
          --hash-mib N   size of the hashed file in MiB (default 64)
          --corpus PATH  the corpus folder (default $HOTSTRINGS_CORPUS, else ../shared/corpus)
          --bundle PATH  the bundle to publish instead of the corpus's element-ios bundle
          --fleet-rounds N    publishes and local saves of the fleet figure (default 10)
          --pull-interval S   the fleet daemons' pull interval in whole seconds (default 1)
        """

    static func run(arguments: [String]) throws -> Int32 {
        var options = OptionReader(arguments)
        let mebibytes = try options.positiveInteger("--hash-mib") ?? 64
        let corpus = try options.value("--corpus")
        let bundle = try options.value("--bundle")
            ?? (ParseInputs.corpusDirectory(option: corpus) ?? "../shared/corpus") + "/element-ios/Riot/Assets"
        let rounds = try options.positiveInteger("--fleet-rounds") ?? 10
        let interval = Double(try options.positiveInteger("--pull-interval") ?? 1)
        try options.finish()
        let workspace = try FileSystem.makeTemporaryDirectory(prefix: "hs-bench-ota-")
        defer { try? FileSystem.removeRecursively(atPath: workspace) }
        let hashed = try hashThroughput(mebibytes: mebibytes, in: workspace)
        let fetched = try bytesFetched(bundle: bundle, in: workspace)
        let fleet = try OTAFleet.run(rounds: rounds, interval: interval, in: workspace)
        return hashed && fetched && fleet ? 0 : 1
    }

    // MARK: - SHA-256

    private static func hashThroughput(mebibytes: Int, in workspace: String) throws -> Bool {
        let candidates = ["/usr/bin/sha256sum", "/bin/sha256sum"]
        guard let sha256sum = candidates.first(where: FileManager.default.isExecutableFile) else {
            print("SHA-256: skipped, sha256sum is not installed")
            return true
        }
        let path = workspace + "/random.bin"
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<(mebibytes << 20)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        try FileSystem.writeFileAtomically(bytes, toPath: path)

        var ours: [Double] = []
        var theirs: [Double] = []
        var ourDigest = ""
        var theirDigest = ""
        let clock = ContinuousClock()
        for round in 0..<6 {
            // The first round warms the page cache and the code; it is not counted.
            let ourTime = try clock.measure {
                ourDigest = SHA256.hexDigest(try FileSystem.readFile(atPath: path, maximumSize: bytes.count))
            }
            let theirTime = try clock.measure { theirDigest = try digest(of: path, with: sha256sum) }
            if round > 0 {
                ours.append(ourTime.seconds)
                theirs.append(theirTime.seconds)
            }
        }
        let size = Double(bytes.count) / 1e6
        let ourRate = size / Measure.median(ours)
        let theirRate = size / Measure.median(theirs)
        print("SHA-256 of \(mebibytes) MiB of random bytes, read from the page cache, median of 5 (one run):")
        print("  HotStrings SHA256     \(Format.rate(ourRate)) MB/s")
        print("  sha256sum             \(Format.rate(theirRate)) MB/s")
        print("  ratio (ours / sha256sum): \(Format.ratio(ourRate / theirRate))")
        guard ourDigest == theirDigest else {
            print("  DIGESTS DIFFER: ours \(ourDigest), sha256sum \(theirDigest)")
            return false
        }
        print("  digests agree: \(ourDigest)")
        return true
    }

    private static func digest(of path: String, with sha256sum: String) throws -> String {
        let run = try ProcessRun.tool(sha256sum, [path])
        return String(run.stdout.prefix { $0 != " " })
    }

    // MARK: - Bytes fetched

    private static func bytesFetched(bundle: String, in workspace: String) throws -> Bool {
        guard NginxOrigin.executable != nil else {
            print("\nBytes fetched: skipped, nginx is not installed")
            return true
        }
        let source = workspace + "/bundle"
        let output = workspace + "/published"
        let target = workspace + "/pulled"
        try copyTree(bundle, to: source)
        try FileSystem.makeDirectory(atPath: output)
        let nginx = try NginxOrigin(root: output)
        _ = try Publisher().publish(bundle: source, to: output)
        var pullOptions = try PullOptions(url: nginx.url)
        pullOptions.limits.totalTimeout = .seconds(120)
        let puller = Puller(bundle: target, options: pullOptions)
        let initial = try puller.pull()
        let before = nginx.requests.count

        let changed = "fr.lproj/Vector.strings"
        let key = try changeFirstValue(of: source + "/" + changed)
        let second = try Publisher().publish(bundle: source, to: output)
        let update = try puller.pull()
        let requests = nginx.requests.dropFirst(before).map { $0.split(separator: " ") }
        let served = requests.reduce(0) { $0 + (Int($1.last ?? "") ?? 0) }

        let total = second.manifest.files.reduce(0) { $0 + $1.size }
        let changedSize = second.manifest.files.first { $0.path == changed }?.size ?? 0
        print("\nBytes fetched for a one-key change ('\(key)' in \(changed)) of \(bundle):")
        print("  bundle: \(second.manifest.files.count) files, \(total) bytes; release 1 pull: \(initial.requests) "
            + "requests, \(initial.bytesFetched) bytes")
        print("  release 2 (\(second.writtenFiles) new, \(second.reusedFiles) reused): \(update.requests) "
            + "requests, \(update.bytesFetched) bytes received (puller), \(served) bytes served (nginx):")
        for request in requests { print("    " + request.joined(separator: " ")) }
        print("  changed file \(changedSize) bytes; fetched / bundle size: "
            + String(format: "%.4f (%.2f%%)", Double(served) / Double(total), 100 * Double(served) / Double(total)))
        let onlyThose = requests.count == 2 && requests.contains { $0.first == "/manifest.json" }
            && requests.contains { $0.first?.hasPrefix("/files/") == true }
        print("  only the manifest and the changed file: \(onlyThose ? "yes" : "NO")")
        return onlyThose
    }

    /// Gives the first `"key" = "value";` line of the `.strings` file at `path` a new value, in place; its key.
    private static func changeFirstValue(of path: String) throws -> String {
        var lines = try String(contentsOfFile: path, encoding: .utf8).components(separatedBy: "\n")
        let isEntry = { (line: String) in line.hasPrefix("\"") && line.hasSuffix("\";") && line.contains("\" = \"") }
        guard let index = lines.firstIndex(where: isEntry), let separator = lines[index].range(of: "\" = \"") else {
            throw UsageError("\(path) has no \"key\" = \"value\"; line to change")
        }
        let key = String(lines[index][lines[index].index(after: lines[index].startIndex)..<separator.lowerBound])
        lines[index] = String(lines[index].dropLast(2)) + " (changed)\";"
        try FileSystem.writeFileAtomically(Array(lines.joined(separator: "\n").utf8), toPath: path)
        return key
    }

    /// Copies the folder `source` to `destination` (made), with everything in it.
    private static func copyTree(_ source: String, to destination: String) throws {
        try FileManager.default.copyItem(atPath: source, toPath: destination)
    }
}
