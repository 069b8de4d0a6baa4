import Foundation
import HotStringsRelease
import StringsFormat
import Testing

/// Ed25519 against RFC 8032's vectors (signing and verifying) and Wycheproof's (every valid signature verifies,
/// every invalid one, malleable and non-canonical ones included, is rejected).
@Suite struct Ed25519Tests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    @Test func rfc8032Vectors() throws {
        let data = try Data(contentsOf: Self.fixtures.appendingPathComponent("rfc8032-ed25519.json"))
        let vectors = try #require(try JSONValue(parsing: data).arrayValue)
        #expect(vectors.count == 5)
        for vector in vectors {
            let name = vector["name"]?.stringValue ?? "?"
            let seed = try bytes(vector["secretKey"])
            let publicKey = try bytes(vector["publicKey"])
            let message = try bytes(vector["message"])
            let signature = try bytes(vector["signature"])
            #expect(Ed25519.publicKey(seed: seed) == publicKey, "\(name)")
            #expect(Ed25519.signature(of: message, seed: seed, publicKey: publicKey) == signature, "\(name)")
            #expect(Ed25519.isValidSignature(signature, of: message, publicKey: publicKey), "\(name)")
            var tampered = signature
            tampered[7] ^= 0x10
            #expect(!Ed25519.isValidSignature(tampered, of: message, publicKey: publicKey), "\(name)")
            #expect(!Ed25519.isValidSignature(signature, of: message + [0], publicKey: publicKey), "\(name)")
        }
    }

    /// A signature whose S has L added is the same point equation but must be refused (RFC 8032, 5.1.7: S < L).
    @Test func malleableSignatureIsRejected() throws {
        let seed = [UInt8](repeating: 7, count: 32)
        let publicKey = Ed25519.publicKey(seed: seed)
        let message = Array("sequence 12".utf8)
        let signature = Ed25519.signature(of: message, seed: seed, publicKey: publicKey)
        #expect(Ed25519.isValidSignature(signature, of: message, publicKey: publicKey))
        let order: [UInt8] = [
            0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7, 0xa2, 0xde, 0xf9, 0xde, 0x14,
            0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10,
        ]
        var plusOrder = Array(signature[0..<32])
        var carry = 0
        for index in 0..<32 {
            let sum = Int(signature[32 + index]) + Int(order[index]) + carry
            plusOrder.append(UInt8(sum & 0xFF))
            carry = sum >> 8
        }
        try #require(carry == 0)
        #expect(!Ed25519.isValidSignature(plusOrder, of: message, publicKey: publicKey))
    }

    @Test func wycheproofVectors() throws {
        let data = try Data(contentsOf: Self.fixtures.appendingPathComponent("wycheproof-ed25519_test.json"))
        let root = try JSONValue(parsing: data)
        let groups = try #require(root["testGroups"]?.arrayValue)
        var valid = 0
        var invalid = 0
        for group in groups {
            let publicKey = try bytes(group["publicKey"]?["pk"])
            for test in try #require(group["tests"]?.arrayValue) {
                let id = test["tcId"]?.int64Value ?? -1
                let comment = test["comment"]?.stringValue ?? ""
                let verdict = Ed25519.isValidSignature(
                    try bytes(test["sig"]), of: try bytes(test["msg"]), publicKey: publicKey
                )
                switch test["result"]?.stringValue {
                case "valid":
                    #expect(verdict, "tcId \(id) \(comment)")
                    valid += 1
                case "invalid":
                    #expect(!verdict, "tcId \(id) \(comment)")
                    invalid += 1
                default:
                    Issue.record("tcId \(id) has an unexpected result")
                }
            }
        }
        #expect(valid + invalid == root["numberOfTests"]?.int64Value.map(Int.init))
        #expect(valid > 0 && invalid > 0)
    }

    private func bytes(_ value: JSONValue?) throws -> [UInt8] {
        let text = Array(try #require(value?.stringValue).utf8)
        try #require(text.count % 2 == 0)
        func digit(_ byte: UInt8) throws -> UInt8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
            default: throw HexError()
            }
        }
        return try stride(from: 0, to: text.count, by: 2).map { try digit(text[$0]) << 4 | digit(text[$0 + 1]) }
    }

    private struct HexError: Error {}
}
