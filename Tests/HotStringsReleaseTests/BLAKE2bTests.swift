import HotStringsRelease
import Testing

/// BLAKE2b against RFC 7693's example and known answers (computed with Python's `hashlib.blake2b`).
@Suite struct BLAKE2bTests {
    @Test(arguments: [
        // RFC 7693, appendix A.
        ("abc", 64, "ba80a53f981c4d0d6a2797b69f12f6e94c212f14685ac4b74b12bb6fdbffa2d17d87c5392aab792dc252d5de4533cc95"
            + "18d38aa8dbf1925ab92386edd4009923"),
        ("", 64, "786a02f742015903c6c6fd852552d272912f4740e15847618a86e217f71f5419d25e1031afee585313896444934eb04b"
            + "903a685b1448b755d56f701afe9be2ce"),
        ("abc", 32, "bddd813c634239723171ef3fee98579b94964e3bb1cb3e427262c8c068d52319"),
    ])
    func knownAnswers(message: String, length: Int, digest: String) {
        #expect(SHA256.hex(BLAKE2b.hash(Array(message.utf8), digestLength: length)) == digest)
    }

    /// Exactly one block (the last block is compressed with the final flag, not as a full one), several blocks, and a
    /// million 'a' fed in uneven pieces.
    @Test func blockBoundaries() {
        #expect(SHA256.hex(BLAKE2b.hash([UInt8](repeating: 0, count: 128))) == "865939e120e6805438478841afb739ae4250cf37"
            + "2653078a065cdcfffca4caf798e6d462b65d658fc165782640eded70963449ae1500fb0f24981d7727e22c41")
        let bytes = Array((0..<4).flatMap { _ in (0...255).map { UInt8($0) } }) + Array("xyz".utf8)
        #expect(SHA256.hex(BLAKE2b.hash(bytes)) == "c8b10cbed59d5011474e7659d748e6535061cc5f6af658033d6849de723b415e"
            + "37c0ca712c3ce089cace0cf1e5e7edf388f5b863f9cd5e629efeb7541ecb0f58")
        var hasher = BLAKE2b()
        feedAMillionA(period: 300, step: 13) { hasher.update($0) }
        #expect(SHA256.hex(hasher.finalize()) == "98fb3efb7206fd19ebf69b6f312cf7b64e3b94dbe1a17107913975a793f177e1"
            + "d077609d7fba363cbba00d05f7aa4e4fa8715d6428104c0a75643b0ff3fd3eaf")
    }
}
