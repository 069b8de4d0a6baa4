import Foundation
import HotStringsRelease
import HotStringsTestSupport
import Testing

/// SHA-512 against the standard's examples and against `sha512sum` on the same bytes.
@Suite struct SHA512Tests {
    /// The FIPS 180-4 / NIST CSHA examples ("SHA512.pdf", "SHA2_Additional.pdf").
    @Test(arguments: [
        ("", "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce47d0d13c5d85f2b0ff8318d2877eec2f"
            + "63b931bd47417a81a538327af927da3e"),
        ("abc", "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feeb"
            + "bd454d4423643ce80e2a9ac94fa54ca49f"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "204a8fc6dda82f0a0ced7beb8e08a41657c16ef468b228a8279be331a703c33596fd15c13b1b07f9aa1d3bea57789ca0"
            + "31ad85c7a71dd70354ec631238ca3445"),
        ("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrs"
            + "mnopqrstnopqrstu",
         "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018501d289e4900f7e4331b99dec4b5433a"
            + "c7d329eeb6dd26545e96e55b874be909"),
    ])
    func standardVectors(message: String, digest: String) {
        #expect(SHA256.hex(SHA512.hash(Array(message.utf8))) == digest)
    }

    @Test func oneMillionA() {
        let digest = "e718483d0ce769644e2e42c7bc15b4638e1f98b13b2044285632a803afa973ebde0ff244877ea60a4cb0432ce577c31b"
            + "eb009c5c2c49aa2e4eadb217ad8cc09b"
        #expect(SHA256.hex(SHA512.hash([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000))) == digest)
        // Fed in uneven pieces, the digest is the same: the block buffering is right across boundaries.
        var hasher = SHA512()
        feedAMillionA(period: 257, step: 11) { hasher.update($0) }
        #expect(SHA256.hex(hasher.finalize()) == digest)
    }

    /// Every length around the padding boundaries (111, 112, 127, 128 bytes...) against `sha512sum`.
    @Test func paddingBoundariesMatchSha512sum() throws {
        let sandbox = try Sandbox(tables: [:], prefix: "hs-sha512-")
        var expected: [String: String] = [:]
        for length in [0, 1, 111, 112, 113, 127, 128, 129, 239, 240, 255, 256, 257, 5000] {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 3) }
            let path = sandbox.root + "/len-\(length)"
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            expected[path] = SHA256.hex(SHA512.hash(bytes))
        }
        try expectSumToolAgrees(["/usr/bin/sha512sum", "/bin/sha512sum"], expected: expected)
    }
}
