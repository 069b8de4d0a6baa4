import Testing
@testable import StringsFormat

/// `*` widths and precisions from arguments, and the size of a result, are bounded (issue 20, finding 6): a
/// translation `%*d` given 9223372036854775807 killed `hotstrings get` in `String(repeating:count:)`, and
/// 4294967296 ran 30 s to 537 MB.
@Suite struct PrintfBoundsTests {
    /// `*` reads C's `int` as `String(format:)` on Linux does (the low 32 bits): these match Foundation.
    @Test(arguments: [
        (Int64(9_223_372_036_854_775_807), "[7]", "[7]"),  // -1: left-justified to 1; no precision
        (4_294_967_296, "[7]", "[7]"),  // 0
        (-5, "[7    ]", "[7]"),  // a negative width left-justifies; a negative precision is none
        (Int64.min, "[7]", "[7]"),  // 0
        (5, "[    7]", "[00007]"),
    ])
    func starCountsFromArgumentsActAsInC(count: Int64, width: String, precision: String) throws {
        #expect(try StringsdictFormatter.format("[%*d]", arguments: [.int(count), .int(7)]) == width)
        #expect(try StringsdictFormatter.format("[%.*d]", arguments: [.int(count), .int(7)]) == precision)
        #expect(StringsdictFormatterTests.foundationFormat("[%*d]", [.int(count), .int(7)]) == width)
        #expect(StringsdictFormatterTests.foundationFormat("[%.*d]", [.int(count), .int(7)]) == precision)
    }

    @Test(arguments: [Int64(Int32.max), Int64(Int32.min) + 1, 1 << 40 | Int64(Int32.max)])
    func aHugeStarWidthIsCappedLikeDigits(count: Int64) throws {
        let text = try StringsdictFormatter.format("%*d|%s", arguments: [.int(count), .int(7), .string("end")])
        #expect(text.utf8.count == FormatSpecifier.maximumCount + 4)
        #expect(text.hasSuffix("|end"))
        let digits = try StringsdictFormatter.format("%.*d", arguments: [.uint(UInt64(Int32.max)), .int(7)])
        #expect(digits.utf8.count == FormatSpecifier.maximumCount)
        let written = try StringsdictFormatter.format("%99999999999d", arguments: [.int(7)])
        #expect(written.utf8.count == FormatSpecifier.maximumCount)
    }

    @Test func aStarWidthInAVariableIsCappedToo() throws {
        let entry = StringsdictEntry(format: "%#@n@", variables: ["n": .plural(valueType: "d", forms: [.other: "%*d"])])
        let text = try StringsdictFormatter().format(entry, language: "en", arguments: [.int(3), .int(Int64.max)])
        #expect(text == "3")
    }

    @Test func theResultIsBounded() throws {
        let format = String(repeating: "%*d", count: 6)
        let arguments = (0..<6).flatMap { _ in [FormatArgument.int(Int64(Int32.max)), .int(1)] }
        #expect {
            try StringsdictFormatter.format(format, arguments: arguments)
        } throws: { error in
            (error as? FormatError)?.reason == "the formatted text is longer than 4194304 bytes"
        }
        #expect(throws: FormatError.self) {
            try StringsdictFormatter.format(
                "%@", arguments: [.string(String(repeating: "x", count: StringsdictFormatter.maximumOutputSize + 1))])
        }
    }
}
