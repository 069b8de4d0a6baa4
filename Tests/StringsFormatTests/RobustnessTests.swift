import Foundation
import HotStringsTestSupport
import Testing
@testable import StringsFormat

/// Bad input must give a `ParseError` or a table, never a crash or a hang.
///
/// The inputs that could make a careless parser quadratic are megabytes long: a quadratic parser
/// would need hours for them (2^36 steps and more), a linear one milliseconds, so the suite's time limit is the witness.
@Suite(.timeLimit(.minutes(2))) struct RobustnessTests {
    @Test func everyPrefixOfAValidFileFailsCleanlyOrParses() throws {
        let source = Array("/* c */\n\"k\\U00e9y\" = \"v\\\"al\\n\";\nk2 = v2; 'k3';\n{ }".utf8)
        for length in 0...source.count {
            let prefix = Array(source[0..<length])
            _ = try? StringsFile.parse(prefix)
        }
        #expect(try StringsFile.parse(Array(source[0..<31])).count == 1)
    }

    @Test func sixteenMebibytesOfRandomBytes() {
        var generator = SplitMix64(seed: 42)
        let words = (0..<(2 << 20)).map { _ in generator.next() }
        let bytes = words.withUnsafeBytes { Array($0) }
        #expect(bytes.count == 16 << 20)
        #expect(throws: ParseError.self) { try StringsFile.parse(bytes) }
    }

    @Test func randomMutationsOfValidText() {
        var generator = SplitMix64(seed: 7)
        let seed = Array("/* c */ \"a\" = \"b\\n\\U0041\\101\"; c = 'd'; // x\n\"é\" = \"😀\";".utf8)
        var parsed = 0
        for _ in 0..<20_000 {
            var bytes = seed
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                let index = Int.random(in: 0..<bytes.count, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: bytes[index] = UInt8.random(in: 0...255, using: &generator)
                case 1: bytes.remove(at: index)
                default: bytes.insert(seed[Int.random(in: 0..<seed.count, using: &generator)], at: index)
                }
                if bytes.isEmpty { bytes = [0x20] }
            }
            if (try? StringsFile.parse(bytes)) != nil { parsed += 1 }
        }
        #expect(parsed > 0 && parsed < 20_000)
    }

    static let blowupCandidates: [(name: String, bytes: [UInt8], parses: Bool)] = {
        let count = 1 << 18
        func repeated(_ piece: String, _ times: Int, prefix: String = "", suffix: String = "") -> [UInt8] {
            Array(prefix.utf8) + Array(repeating: Array(piece.utf8), count: times).joined() + Array(suffix.utf8)
        }
        return [
            ("many unterminated comments", repeated("/*", count), false),
            ("many unterminated quotes", repeated("\"", count), false),
            ("many single quotes", repeated("'", count), false),
            ("comments on one line after an entry", repeated("/**/", count, prefix: "a = b;"), true),
            ("a long run of line comments", repeated("// x\n", count / 2, suffix: "a = b;"), true),
            ("many escapes", repeated("\\UD83D\\UDE00\\n\\101", count / 4, prefix: "a = \"", suffix: "\";"), true),
            ("many lone high-surrogate lookaheads", repeated("\\UD83D", count, prefix: "a = \""), false),
            ("a huge key", repeated("k", 8 * count, suffix: " = v;"), true),
            ("many entries", repeated("k = v;\n", count), true),
            ("deep nesting", repeated("{", count), false),
            ("deep value nesting", repeated("(", count, prefix: "a = "), false),
            ("many unterminated comments after a newline", repeated("\n/*", count), false),
            ("many backslashes", repeated("\\\\", count, prefix: "a = \""), false),
        ]
    }()

    @Test(arguments: blowupCandidates)
    func staysLinear(_ candidate: (name: String, bytes: [UInt8], parses: Bool)) {
        let result = Result { () throws(ParseError) in try StringsFile.parse(candidate.bytes) }
        switch result {
        case .success: #expect(candidate.parses)
        case .failure(let error):
            #expect(!candidate.parses, "\(error)")
            #expect(error.line >= 1 && error.column >= 1)
        }
    }
}
