import Foundation
import HotStringsRelease
import Testing

/// minisign's key and signature files, read from files minisign itself wrote and written byte for byte as it does.
@Suite struct MinisignFormatTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/minisign")

    private func text(_ name: String) throws -> String {
        try String(contentsOf: Self.fixtures.appendingPathComponent(name), encoding: .utf8)
    }

    private func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: Self.fixtures.appendingPathComponent(name)))
    }

    @Test func keysMadeByMinisignRoundTripByteForByte() throws {
        let publicKey = try MinisignPublicKey(fileText: try text("test.pub"))
        #expect(publicKey.keyIDText == "12E57776D5FE37D9")
        #expect(publicKey.fileText == (try text("test.pub")))
        var secretKey = try MinisignSecretKey(fileText: try text("test.key"))
        #expect(secretKey.publicKey == publicKey)
        #expect(secretKey.fileText == (try text("test.key")))
        // The same key with its BLAKE2b-256 checksum filled in is read too.
        let checksummed = try MinisignSecretKey(fileText: try text("test-checksummed.key"))
        #expect(checksummed.publicKey == publicKey)
        secretKey.wipe()
    }

    @Test func signaturesMadeByMinisignVerify() throws {
        let publicKey = try MinisignPublicKey(fileText: try text("test.pub"))
        let file = try bytes("hello.txt")
        for name in ["hello.txt.minisig", "hello.txt.legacy.minisig"] {
            let signature = try MinisignSignature(fileText: try text(name))
            #expect(signature.isPrehashed == (name == "hello.txt.minisig"))
            #expect(signature.fileText == (try text(name)))
            #expect(throws: Never.self) { try signature.verify(file, keys: [publicKey]) }
            #expect(throws: MinisignError.self) { try signature.verify(file + [0x0A], keys: [publicKey]) }
            var comment = signature
            comment.trustedComment += "\tsequence:99"
            let error = #expect(throws: MinisignError.self) { try comment.verify(file, keys: [publicKey]) }
            #expect(error?.kind == .badSignature)
        }
    }

    /// Our signatures reproduce minisign's byte for byte: Ed25519 is deterministic, so the same key, file and
    /// trusted comment give the same file.
    @Test func ourSignaturesAreMinisignsBytes() throws {
        var secretKey = try MinisignSecretKey(fileText: try text("test.key"))
        defer { secretKey.wipe() }
        let file = try bytes("hello.txt")
        for (name, prehashed) in [("hello.txt.minisig", true), ("hello.txt.legacy.minisig", false)] {
            let theirs = try MinisignSignature(fileText: try text(name))
            let ours = secretKey.signature(of: file, trustedComment: theirs.trustedComment, prehashed: prehashed)
            #expect(ours.fileText == (try text(name)))
        }
    }

    @Test func anotherKeyIsUnknown() throws {
        var other = MinisignSecretKey.generate()
        defer { other.wipe() }
        let signature = try MinisignSignature(fileText: try text("hello.txt.minisig"))
        let error = #expect(throws: MinisignError.self) {
            try signature.verify(try bytes("hello.txt"), keys: [other.publicKey])
        }
        #expect(error?.kind == .unknownKey)
        // A generated key signs and verifies with its own public key, read back from its file.
        let ours = other.signature(of: Array("x".utf8), trustedComment: "timestamp:1\tfile:x")
        let publicKey = try MinisignPublicKey(fileText: other.publicKey.fileText)
        #expect(throws: Never.self) { try ours.verify(Array("x".utf8), keys: [publicKey]) }
        let reread = try MinisignSecretKey(fileText: other.fileText)
        #expect(reread.publicKey == publicKey)
    }

    @Test(arguments: [
        "",
        "untrusted comment: x\n",
        "untrusted comment: x\nRWQAAEIy\n",
        "not a comment\nRWTZN/7VdnflEi1DiSuT4lZmcMUF6LTYc5hUiiC5qFPNCnllDUYG6KN9\n",
    ])
    func malformedKeysAreRefused(text: String) {
        #expect(throws: MinisignError.self) { try MinisignPublicKey(fileText: text) }
        #expect(throws: MinisignError.self) { try MinisignSecretKey(fileText: text) }
    }

    /// A damaged secret key: a wrong checksum, or a public half that is not the seed's.
    @Test func damagedSecretKeysAreRefused() throws {
        let lines = try text("test-checksummed.key").split(separator: "\n").map(String.init)
        var bytes = [UInt8](try #require(Data(base64Encoded: lines[1])))
        bytes[130] ^= 1
        #expect(throws: MinisignError.self) {
            try MinisignSecretKey(fileText: lines[0] + "\n" + Data(bytes).base64EncodedString() + "\n")
        }
        let zeroLines = try text("test.key").split(separator: "\n").map(String.init)
        var unchecked = [UInt8](try #require(Data(base64Encoded: zeroLines[1])))
        unchecked[100] ^= 1
        #expect(throws: MinisignError.self) {
            try MinisignSecretKey(fileText: zeroLines[0] + "\n" + Data(unchecked).base64EncodedString() + "\n")
        }
    }
}
