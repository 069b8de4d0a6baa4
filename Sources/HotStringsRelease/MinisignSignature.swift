import Foundation

/// A signature file as minisign writes it: an untrusted comment line; the base64 of the algorithm ("ED" prehashed
/// or "Ed" legacy), the 8-byte key id and the 64-byte signature; the trusted comment line; the base64 of the
/// global signature, which signs the signature followed by the trusted comment so the comment cannot be changed.
package struct MinisignSignature: Sendable, Equatable {
    /// Whether the file's BLAKE2b-512 was signed (`ED`) rather than the file itself (`Ed`, `minisign -S -l`).
    package var isPrehashed: Bool
    /// The id of the key that signed, 8 bytes.
    package var keyID: [UInt8]
    /// The Ed25519 signature of the file (or its hash), 64 bytes.
    package var signature: [UInt8]
    /// The trusted comment's text (after "trusted comment: ").
    package var trustedComment: String
    /// The Ed25519 signature of `signature` followed by the trusted comment, 64 bytes.
    package var globalSignature: [UInt8]
    /// The untrusted comment's text (after "untrusted comment: "); not signed, never relied on.
    package var untrustedComment = "signature from minisign secret key"

    package init(isPrehashed: Bool, keyID: [UInt8], signature: [UInt8], trustedComment: String,
                 globalSignature: [UInt8]) {
        self.isPrehashed = isPrehashed
        self.keyID = keyID
        self.signature = signature
        self.trustedComment = trustedComment
        self.globalSignature = globalSignature
    }

    /// Reads a signature file.
    /// - Throws: `MinisignError` (`.malformed`) naming what is wrong.
    package init(fileText text: String) throws(MinisignError) {
        let lines = MinisignLines.lines(text)
        guard lines.count == 4, lines[0].hasPrefix(MinisignLines.untrusted), lines[2].hasPrefix(MinisignLines.trusted)
        else {
            throw MinisignError(
                .malformed,
                "a minisign signature is four lines: untrusted comment, signature, trusted comment, global signature"
            )
        }
        let bytes = try MinisignLines.decode(lines[1], count: 74, what: "the signature line")
        switch (bytes[0], bytes[1]) {
        case (UInt8(ascii: "E"), UInt8(ascii: "D")): isPrehashed = true
        case (UInt8(ascii: "E"), UInt8(ascii: "d")): isPrehashed = false
        default: throw MinisignError(.malformed, "the signature's algorithm is neither \"ED\" nor \"Ed\"")
        }
        keyID = Array(bytes[2..<10])
        signature = Array(bytes[10..<74])
        untrustedComment = String(lines[0].dropFirst(MinisignLines.untrusted.count))
        trustedComment = String(lines[2].dropFirst(MinisignLines.trusted.count))
        globalSignature = try MinisignLines.decode(lines[3], count: 64, what: "the global signature line")
    }

    /// The key id as minisign prints it.
    package var keyIDText: String { MinisignLines.keyIDText(keyID) }

    /// The file's text, as `minisign -S` writes it.
    package var fileText: String {
        let algorithm = isPrehashed ? "ED" : "Ed"
        let line = Data(Array(algorithm.utf8) + keyID + signature).base64EncodedString()
        return "\(MinisignLines.untrusted)\(untrustedComment)\n\(line)\n"
            + "\(MinisignLines.trusted)\(trustedComment)\n\(Data(globalSignature).base64EncodedString())\n"
    }

    /// Checks that `file` was signed by the first of `keys` whose id this signature names, trusted comment included.
    /// - Returns: the key that signed.
    /// - Throws: `MinisignError`: `.unknownKey` when no key has the signature's id, `.badSignature` when the file's
    ///   signature or the trusted comment's does not verify.
    @discardableResult
    package func verify(_ file: some Collection<UInt8>, keys: [MinisignPublicKey]) throws(MinisignError)
        -> MinisignPublicKey
    {
        guard let key = keys.first(where: { $0.keyID == keyID }) else {
            let known = keys.map(\.keyIDText).joined(separator: ", ")
            throw MinisignError(.unknownKey, "signed by key \(keyIDText), not a trusted key (\(known))")
        }
        let signed = isPrehashed ? BLAKE2b.hash(file) : Array(file)
        guard Ed25519.isValidSignature(signature, of: signed, publicKey: key.key) else {
            throw MinisignError(.badSignature, "the signature by key \(keyIDText) does not match the file")
        }
        guard Ed25519.isValidSignature(globalSignature, of: signature + Array(trustedComment.utf8), publicKey: key.key)
        else {
            throw MinisignError(.badSignature, "the trusted comment's signature by key \(keyIDText) does not verify")
        }
        return key
    }
}
