import Foundation
import HotStringsRelease
import HotStringsTestSupport
import HotStringsTestTraits
import Testing

/// SHA-256 against the standard's example vectors and against `sha256sum` on real files.
@Suite struct SHA256Tests {
    /// The FIPS 180-4 / NIST CSHA examples ("SHA256.pdf", "SHA2_Additional.pdf") and the classic long vectors.
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        ("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrs"
            + "mnopqrstnopqrstu",
         "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"),
    ])
    func standardVectors(message: String, digest: String) {
        #expect(SHA256.hexDigest(Array(message.utf8)) == digest)
    }

    @Test func oneMillionA() {
        let digest = "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"
        #expect(SHA256.hexDigest([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)) == digest)
        // Fed in uneven pieces, the digest is the same: the block buffering is right across boundaries.
        var hasher = SHA256()
        feedAMillionA(period: 131, step: 7) { hasher.update($0) }
        #expect(SHA256.hex(hasher.finalize()) == digest)
    }

    /// Every length around the padding boundaries (55, 56, 63, 64 bytes...) against `sha256sum`.
    @Test func paddingBoundariesMatchSha256sum() throws {
        let sandbox = try Sandbox(tables: [:], prefix: "hs-sha-")
        var expected: [String: String] = [:]
        for length in [1, 55, 56, 57, 63, 64, 65, 119, 120, 127, 128, 129, 1000] {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
            let path = sandbox.root + "/len-\(length)"
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            expected[path] = SHA256.hexDigest(bytes)
        }
        try expectSumToolAgrees(Self.sha256sum, expected: expected)
    }

    /// Real localization files of the corpus, the largest among them included.
    @Test(.needsCorpus) func corpusFilesMatchSha256sum() throws {
        let corpus = try #require(corpusRoot)
        let enumerator = FileManager.default.enumerator(atPath: corpus)
        var paths: [String] = []
        while let name = enumerator?.nextObject() as? String, paths.count < 60 {
            guard name.hasSuffix(".strings") || name.hasSuffix(".stringsdict") || name.hasSuffix(".xcstrings") else {
                continue
            }
            paths.append(corpus + "/" + name)
        }
        #expect(paths.count > 10)
        var expected: [String: String] = [:]
        for path in paths { expected[path] = SHA256.hexDigest(try Data(contentsOf: URL(fileURLWithPath: path))) }
        try expectSumToolAgrees(Self.sha256sum, expected: expected)
    }

    private static let sha256sum = ["/usr/bin/sha256sum", "/bin/sha256sum"]
}
