/// Ed25519 signatures (RFC 8032, 5.1), written here so that releases are signed and checked without any package.
///
/// Keys are the RFC's: a 32-byte secret seed and a 32-byte public key. Signing takes the same path whatever the
/// secret (no branches or table lookups on it) and zeroes the buffers it derived from the seed; Swift may still
/// have copied them, so the caller should keep the seed's own lifetime short too. Verification is the RFC's,
/// without the cofactor: it rejects S ≥ L and public keys or R values that are not canonical encodings, and
/// recomputes R to compare its canonical encoding byte for byte.
package enum Ed25519 {
    /// The public key of a 32-byte secret seed.
    package static func publicKey(seed: [UInt8]) -> [UInt8] {
        precondition(seed.count == 32, "an Ed25519 seed is 32 bytes")
        var expanded = SHA512.hash(seed)
        var scalar = clamped(expanded)
        let key = EdwardsPoint.baseMultipleInConstantTime(scalar).encoded
        expanded.wipe()
        scalar.wipe()
        return key
    }

    /// The 64-byte signature (R, S) of `message` by the key pair (`seed`, `publicKey`); `publicKey` must be the
    /// seed's (the caller checked it, e.g. with `publicKey(seed:)`).
    package static func signature(of message: some Collection<UInt8>, seed: [UInt8], publicKey: [UInt8]) -> [UInt8] {
        precondition(seed.count == 32 && publicKey.count == 32, "an Ed25519 seed and public key are 32 bytes each")
        var expanded = SHA512.hash(seed)
        var scalar = clamped(expanded)
        var nonceHasher = SHA512()
        nonceHasher.update(expanded[32..<64])
        nonceHasher.update(message)
        var nonceHash = nonceHasher.finalize()
        var nonce = Scalar25519.reduced(nonceHash)
        let r = EdwardsPoint.baseMultipleInConstantTime(nonce).encoded
        var challengeHasher = SHA512()
        challengeHasher.update(r)
        challengeHasher.update(publicKey)
        challengeHasher.update(message)
        let challenge = Scalar25519.reduced(challengeHasher.finalize())
        let s = Scalar25519.multiplyAdd(challenge, scalar, nonce)
        expanded.wipe()
        scalar.wipe()
        nonceHash.wipe()
        nonce.wipe()
        return r + s
    }

    /// Whether `signature` (64 bytes) is a valid signature of `message` by `publicKey` (32 bytes).
    package static func isValidSignature(
        _ signature: [UInt8], of message: some Collection<UInt8>, publicKey: [UInt8]
    ) -> Bool {
        guard signature.count == 64, publicKey.count == 32 else { return false }
        let r = Array(signature[0..<32])
        let s = Array(signature[32..<64])
        guard Scalar25519.isCanonical(s), let a = EdwardsPoint(encoded: publicKey) else { return false }
        var challengeHasher = SHA512()
        challengeHasher.update(r)
        challengeHasher.update(publicKey)
        challengeHasher.update(message)
        let challenge = Scalar25519.reduced(challengeHasher.finalize())
        // [S]B - [k]A must be R; comparing canonical encodings also rejects an R that is not one.
        let computed = EdwardsPoint.linearCombination(s, .base, challenge, a.negated)
        return computed.encoded == r
    }

    /// The secret scalar: the first half of SHA-512(seed), low three bits cleared, bit 254 set, bit 255 cleared.
    private static func clamped(_ expanded: [UInt8]) -> [UInt8] {
        var scalar = Array(expanded[0..<32])
        scalar[0] &= 248
        scalar[31] &= 127
        scalar[31] |= 64
        return scalar
    }
}
