import Foundation

/// Why a minisign key or signature file was refused, in words an operator can act on.
package struct MinisignError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    package enum Kind: Sendable, Equatable {
        /// The text is not a key or signature file in minisign's format.
        case malformed
        /// The signature was made by another key than the one given.
        case unknownKey
        /// The signature of the file or of the trusted comment does not verify.
        case badSignature
    }

    package var kind: Kind
    package var reason: String

    package init(_ kind: Kind, _ reason: String) {
        self.kind = kind
        self.reason = reason
    }

    package var description: String { reason }
}

/// The untrusted comment line minisign starts every file with, and the trusted one of a signature.
enum MinisignLines {
    static let untrusted = "untrusted comment: "
    static let trusted = "trusted comment: "

    /// The lines of a file, without line ends (`\n` or `\r\n`), empty trailing lines dropped.
    static func lines(_ text: String) -> [String] {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.hasSuffix("\r") ? String(line.dropLast()) : String(line)
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        return lines
    }

    /// The bytes of a base64 line of exactly `count` bytes.
    static func decode(_ line: String, count: Int, what: String) throws(MinisignError) -> [UInt8] {
        guard let data = Data(base64Encoded: line.trimmingCharacters(in: .whitespaces)), data.count == count else {
            throw MinisignError(.malformed, "\(what) is not \(count) bytes of base64")
        }
        return [UInt8](data)
    }

    /// A key id as minisign prints it: the eight bytes as a little-endian number in uppercase hexadecimal.
    static func keyIDText(_ keyID: [UInt8]) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        var text: [UInt8] = []
        for byte in keyID.reversed() {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}

/// A public key file as minisign writes it: an untrusted comment line, then the base64 of "Ed", the 8-byte key id
/// and the 32-byte Ed25519 key.
package struct MinisignPublicKey: Sendable, Equatable {
    /// The key id that signatures name, 8 bytes.
    package var keyID: [UInt8]
    /// The Ed25519 public key, 32 bytes.
    package var key: [UInt8]

    package init(keyID: [UInt8], key: [UInt8]) {
        precondition(keyID.count == 8 && key.count == 32, "a minisign key id is 8 bytes, its key 32")
        self.keyID = keyID
        self.key = key
    }

    /// Reads a public key file.
    /// - Throws: `MinisignError` (`.malformed`) naming what is wrong.
    package init(fileText text: String) throws(MinisignError) {
        let lines = MinisignLines.lines(text)
        guard lines.count == 2, lines[0].hasPrefix(MinisignLines.untrusted) else {
            throw MinisignError(.malformed, "a minisign public key file is an untrusted comment line and a key line")
        }
        let bytes = try MinisignLines.decode(lines[1], count: 42, what: "the public key line")
        guard bytes[0] == UInt8(ascii: "E"), bytes[1] == UInt8(ascii: "d") else {
            throw MinisignError(.malformed, "the public key is not an Ed25519 key (algorithm \"Ed\")")
        }
        self.init(keyID: Array(bytes[2..<10]), key: Array(bytes[10..<42]))
    }

    /// The key id as minisign prints it (16 uppercase hexadecimal digits).
    package var keyIDText: String { MinisignLines.keyIDText(keyID) }

    /// The file's text, as `minisign -G` writes it.
    package var fileText: String {
        let bytes = Array("Ed".utf8) + keyID + key
        return "\(MinisignLines.untrusted)minisign public key \(keyIDText)\n\(Data(bytes).base64EncodedString())\n"
    }
}

/// An unencrypted secret key file as `minisign -G -W` writes it: "Ed", KDF "\0\0" (none), checksum "B2", a zero
/// salt and zero KDF limits, the key id, the 64-byte secret key (seed and public key) and a checksum.
///
/// The checksum is BLAKE2b-256 of "Ed", the key id and the secret key; `minisign -G -W` writes zeros there, and so
/// do we (byte-compatible with its files). A non-zero checksum is checked. The seed is wiped by `wipe()`; the
/// caller wipes the key once it has signed.
package struct MinisignSecretKey: Sendable {
    /// The key id, 8 bytes.
    package private(set) var keyID: [UInt8]
    /// The Ed25519 secret seed, 32 bytes.
    private var seed: [UInt8]
    /// The Ed25519 public key, 32 bytes.
    package private(set) var publicKeyBytes: [UInt8]

    /// A new key pair from the system's random generator (`getrandom`).
    package static func generate() -> MinisignSecretKey {
        var generator = SystemRandomNumberGenerator()
        let keyID = (0..<8).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        var seed = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        let key = MinisignSecretKey(keyID: keyID, seed: seed)
        seed.wipe()
        return key
    }

    /// The key with this id and seed (its public key derived from the seed).
    package init(keyID: [UInt8], seed: [UInt8]) {
        precondition(keyID.count == 8 && seed.count == 32, "a minisign key id is 8 bytes, an Ed25519 seed 32")
        self.keyID = keyID
        self.seed = seed
        self.publicKeyBytes = Ed25519.publicKey(seed: seed)
    }

    /// Reads an unencrypted secret key file.
    /// - Throws: `MinisignError` (`.malformed`): not minisign's format, an encrypted key (we cannot ask for a
    ///   password), a checksum that does not match, or a public half that is not the seed's.
    package init(fileText text: String) throws(MinisignError) {
        let lines = MinisignLines.lines(text)
        guard lines.count == 2, lines[0].hasPrefix(MinisignLines.untrusted) else {
            throw MinisignError(.malformed, "a minisign secret key file is an untrusted comment line and a key line")
        }
        var bytes = try MinisignLines.decode(lines[1], count: 158, what: "the secret key line")
        defer { bytes.wipe() }
        guard bytes[0] == UInt8(ascii: "E"), bytes[1] == UInt8(ascii: "d") else {
            throw MinisignError(.malformed, "the secret key is not an Ed25519 key (algorithm \"Ed\")")
        }
        guard bytes[2] == 0, bytes[3] == 0 else {
            throw MinisignError(.malformed, "the secret key is encrypted; make one without a password (minisign -G -W)")
        }
        guard bytes[4] == UInt8(ascii: "B"), bytes[5] == UInt8(ascii: "2") else {
            throw MinisignError(.malformed, "the secret key's checksum is not BLAKE2b (\"B2\")")
        }
        let keyID = Array(bytes[54..<62])
        var secret = Array(bytes[62..<126])
        defer { secret.wipe() }
        let checksum = Array(bytes[126..<158])
        if checksum.contains(where: { $0 != 0 }) {
            var expected = BLAKE2b.hash(bytes[0..<2] + keyID + secret, digestLength: 32)
            defer { expected.wipe() }
            guard expected == checksum else {
                throw MinisignError(.malformed, "the secret key's checksum does not match (a damaged key file)")
            }
        }
        self.init(keyID: keyID, seed: Array(secret[0..<32]))
        guard publicKeyBytes == Array(secret[32..<64]) else {
            wipe()
            throw MinisignError(.malformed, "the secret key's public half is not its seed's (a damaged key file)")
        }
    }

    /// The public key file that goes with this key.
    package var publicKey: MinisignPublicKey { MinisignPublicKey(keyID: keyID, key: publicKeyBytes) }

    /// The file's text, as `minisign -G -W` writes it (zero checksum, salt and limits).
    package var fileText: String {
        var bytes = Array("Ed".utf8) + [0, 0] + Array("B2".utf8) + [UInt8](repeating: 0, count: 48) + keyID + seed
            + publicKeyBytes + [UInt8](repeating: 0, count: 32)
        defer { bytes.wipe() }
        return "\(MinisignLines.untrusted)minisign encrypted secret key\n\(Data(bytes).base64EncodedString())\n"
    }

    /// Signs `file` in minisign's format: prehashed (`ED`, minisign's default: the BLAKE2b-512 of the file is
    /// signed) or legacy (`Ed`, the file itself), with a global signature over the signature and `trustedComment`.
    package func signature(of file: some Collection<UInt8>, trustedComment: String, prehashed: Bool = true)
        -> MinisignSignature
    {
        let signed = prehashed ? BLAKE2b.hash(file) : Array(file)
        let signature = Ed25519.signature(of: signed, seed: seed, publicKey: publicKeyBytes)
        let global = Ed25519.signature(of: signature + Array(trustedComment.utf8), seed: seed, publicKey: publicKeyBytes)
        return MinisignSignature(
            isPrehashed: prehashed, keyID: keyID, signature: signature, trustedComment: trustedComment,
            globalSignature: global
        )
    }

    /// Zeroes the seed (best effort: Swift may have copied it).
    package mutating func wipe() {
        seed.wipe()
    }
}
