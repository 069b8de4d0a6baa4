/// BLAKE2b (RFC 7693), unkeyed, written here for minisign's formats: a prehashed (`ED`) signature signs the
/// BLAKE2b-512 of the file, and a secret key file's checksum is a BLAKE2b-256.
///
/// Feed bytes with `update(_:)` in pieces of any size, then take `finalize()`.
package struct BLAKE2b: Sendable {
    /// The message schedule: which words each of the 12 rounds mixes in (RFC 7693, 2.7; round i uses row i % 10).
    private static let sigma: [[Int]] = [
        [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
        [14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3],
        [11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4],
        [7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8],
        [9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13],
        [2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9],
        [12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11],
        [13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10],
        [6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5],
        [10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0],
    ]

    private var state: [UInt64]
    /// Bytes not compressed yet: up to a whole block, because the last block is compressed differently.
    private var pending: [UInt8] = []
    /// Bytes compressed so far (the RFC's counter t; a message of 2^64 bytes or more is beyond any release).
    private var compressed: UInt64 = 0
    private let digestLength: Int

    /// A hasher for a digest of `digestLength` bytes (1 to 64): 64 for BLAKE2b-512, 32 for BLAKE2b-256.
    package init(digestLength: Int = 64) {
        precondition((1...64).contains(digestLength), "a BLAKE2b digest is 1 to 64 bytes")
        self.digestLength = digestLength
        state = SHA512.initialState
        // The parameter block's first word: digest length, no key, fanout 1, depth 1.
        state[0] ^= 0x0101_0000 ^ UInt64(digestLength)
        pending.reserveCapacity(128)
    }

    /// The BLAKE2b digest of `bytes`, `digestLength` bytes long.
    package static func hash(_ bytes: some Collection<UInt8>, digestLength: Int = 64) -> [UInt8] {
        var hasher = BLAKE2b(digestLength: digestLength)
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// Feeds `bytes`.
    package mutating func update(_ bytes: some Collection<UInt8>) {
        for byte in bytes {
            if pending.count == 128 {
                compressed &+= 128
                compressPending(isLast: false)
                pending.removeAll(keepingCapacity: true)
            }
            pending.append(byte)
        }
    }

    /// Compresses the last block, padded with zeros, and returns the digest.
    package mutating func finalize() -> [UInt8] {
        compressed &+= UInt64(pending.count)
        pending += [UInt8](repeating: 0, count: 128 - pending.count)
        compressPending(isLast: true)
        var digest: [UInt8] = []
        digest.reserveCapacity(64)
        for word in state {
            for shift in stride(from: 0, to: 64, by: 8) { digest.append(UInt8(truncatingIfNeeded: word >> UInt64(shift))) }
        }
        return Array(digest.prefix(digestLength))
    }

    /// The compression function F (RFC 7693, 3.2) on the 128 bytes in `pending`.
    private mutating func compressPending(isLast: Bool) {
        var m = [UInt64](repeating: 0, count: 16)
        for index in 0..<128 { m[index / 8] |= UInt64(pending[index]) << (8 * UInt64(index % 8)) }
        var v = state + SHA512.initialState
        v[12] ^= compressed
        if isLast { v[14] = ~v[14] }
        for round in 0..<12 {
            let s = Self.sigma[round % 10]
            Self.mix(&v, 0, 4, 8, 12, m[s[0]], m[s[1]])
            Self.mix(&v, 1, 5, 9, 13, m[s[2]], m[s[3]])
            Self.mix(&v, 2, 6, 10, 14, m[s[4]], m[s[5]])
            Self.mix(&v, 3, 7, 11, 15, m[s[6]], m[s[7]])
            Self.mix(&v, 0, 5, 10, 15, m[s[8]], m[s[9]])
            Self.mix(&v, 1, 6, 11, 12, m[s[10]], m[s[11]])
            Self.mix(&v, 2, 7, 8, 13, m[s[12]], m[s[13]])
            Self.mix(&v, 3, 4, 9, 14, m[s[14]], m[s[15]])
        }
        for index in 0..<8 { state[index] ^= v[index] ^ v[index + 8] }
    }

    /// The mixing function G (RFC 7693, 3.1).
    private static func mix(_ v: inout [UInt64], _ a: Int, _ b: Int, _ c: Int, _ d: Int, _ x: UInt64, _ y: UInt64) {
        v[a] = v[a] &+ v[b] &+ x
        v[d] = (v[d] ^ v[a]).rotatedRight(32)
        v[c] = v[c] &+ v[d]
        v[b] = (v[b] ^ v[c]).rotatedRight(24)
        v[a] = v[a] &+ v[b] &+ y
        v[d] = (v[d] ^ v[a]).rotatedRight(16)
        v[c] = v[c] &+ v[d]
        v[b] = (v[b] ^ v[c]).rotatedRight(63)
    }
}
