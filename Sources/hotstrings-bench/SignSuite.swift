import Foundation
import HotStringsRelease
import HotStringsTestSupport
import LinuxSystem

/// `hotstrings-bench sign`: what checking a signed manifest costs next to hashing it and next to the pull of a
/// one-key change, and our SHA-512 next to `sha512sum` on the same bytes.
struct SignSuite: BenchmarkSuite {
    static let name = "sign"
    static let abstract =
        "sign: verifying a signed manifest vs hashing it and vs the pull of a one-key change; SHA-512 vs sha512sum"
    static let help = """
        USAGE: swift run -c release hotstrings-bench sign [--files N] [--megabytes N] [--rounds N]

        Verify: a manifest naming N files (default 200) is signed with a fresh key in minisign's format
        (prehashed ED, as publish --sign writes it); the time to verify it (BLAKE2b-512 of the manifest, the
        signature and the trusted comment's signature) against the time to SHA-256 the same bytes, which a pull
        does to every file anyway. Interleaved, median of the rounds. Then against the pull of a one-key change:
        a bundle of 10 languages x 20 tables served by a real nginx, one key changed, published signed, and pulled
        with the key trusted (signature fetched and verified, one table fetched, verified, installed); median
        of the rounds (skipped without nginx).

        SHA-512: N MiB (default 64) of bytes in a file; our SHA512 of the bytes in memory against `sha512sum` on
        the file (a child process, so its start is included), the digests compared. Median of the rounds.

        OPTIONS:
          --files N       files the manifest names (default 200)
          --megabytes N   MiB hashed by SHA-512 (default 64)
          --rounds N      rounds (default 5)
        """

    static func run(arguments: [String]) throws -> Int32 {
        var options = OptionReader(arguments)
        let fileCount = try options.positiveInteger("--files") ?? 200
        let megabytes = try options.positiveInteger("--megabytes") ?? 64
        let rounds = try options.positiveInteger("--rounds") ?? 5
        try options.finish()

        let files = (0..<fileCount).map { index in
            ReleaseManifest.File(path: "l\(index % 40).lproj/Table\(index).strings", size: 1000 + index,
                                 sha256: SHA256.hexDigest(Array("file \(index)".utf8)))
        }
        let manifest = ReleaseManifest(release: "20261204T000000Z-000000000000", created: "2026-12-04T00:00:00Z",
                                       files: files).json
        var key = MinisignSecretKey.generate()
        let signature = key.signature(of: manifest, trustedComment: "timestamp:0\tfile:manifest.json\thashed")
        let publicKey = key.publicKey
        key.wipe()
        var verified = true
        let (verifyTimes, hashTimes) = Measure.alternating(iterations: rounds) {
            verified = verified && (try? signature.verify(manifest, keys: [publicKey])) != nil
        } _: {
            _ = SHA256.hash(manifest)
        }
        guard verified else {
            printError("hotstrings-bench sign: a signature did not verify")
            return 1
        }
        let verify = Measure.median(verifyTimes)
        let hash = Measure.median(hashTimes)
        print("verify a signed manifest (\(manifest.count) bytes, \(fileCount) files), median of \(rounds):")
        print(String(format: "  verify %.3f ms, SHA-256 of the same bytes %.3f ms, ratio %@", verify * 1000,
                     hash * 1000, Format.ratio(verify / hash)))

        if let pullTimes = try oneKeyChangePullTimes(rounds: rounds) {
            let pull = Measure.median(pullTimes)
            print("verify vs the signed pull of a one-key change (200 tables, nginx), median of \(rounds):")
            print(String(format: "  verify %.3f ms, pull %.3f ms, ratio verify/pull %@", verify * 1000, pull * 1000,
                         Format.ratio(verify / pull)))
        } else {
            print("verify vs the pull of a one-key change: skipped, nginx is not installed")
        }

        guard let tool = ["/usr/bin/sha512sum", "/bin/sha512sum"].first(where: FileManager.default.isExecutableFile)
        else {
            print("SHA-512: sha512sum is not installed; not compared")
            return 0
        }
        let bytes = (0..<(megabytes << 20)).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ ($0 >> 12)) }
        let directory = try FileSystem.makeTemporaryDirectory(prefix: "hs-bench-sign-")
        defer { try? FileSystem.removeRecursively(atPath: directory) }
        let path = directory + "/bytes"
        try FileSystem.writeFile(bytes, toPath: path)
        var ours = ""
        var theirs = ""
        var toolFailed = false
        let (ourTimes, toolTimes) = Measure.alternating(iterations: rounds) {
            ours = SHA256.hex(SHA512.hash(bytes))
        } _: {
            guard let run = try? ProcessRun.tool(tool, [path]), run.code == 0 else {
                toolFailed = true
                return
            }
            theirs = String(run.stdout.prefix(128))
        }
        guard !toolFailed, ours == theirs else {
            printError("hotstrings-bench sign: SHA-512 digests differ (ours \(ours), sha512sum \(theirs))")
            return 1
        }
        let ourMedian = Measure.median(ourTimes)
        let toolMedian = Measure.median(toolTimes)
        print("SHA-512 of \(megabytes) MiB, median of \(rounds) (digests equal):")
        print(String(format: "  ours %.1f ms (%@ MB/s), sha512sum %.1f ms (%@ MB/s), ratio ours/sha512sum %@",
                     ourMedian * 1000, Format.rate(Double(bytes.count) / 1e6 / ourMedian), toolMedian * 1000,
                     Format.rate(Double(bytes.count) / 1e6 / toolMedian), Format.ratio(ourMedian / toolMedian)))
        return 0
    }
}
