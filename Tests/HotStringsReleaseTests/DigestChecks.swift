import Foundation
import HotStringsTestSupport
import Testing

/// A million `a` handed to `update` in uneven pieces (one byte, then `step` more each time, wrapping at `period`),
/// so that a hasher's block buffering is crossed at every offset.
func feedAMillionA(period: Int, step: Int, to update: ([UInt8]) -> Void) {
    var fed = 0
    var piece = 1
    while fed < 1_000_000 {
        let count = min(piece, 1_000_000 - fed)
        update([UInt8](repeating: UInt8(ascii: "a"), count: count))
        fed += count
        piece = piece % period + step
    }
}

/// Expects the first installed of `tools` (`sha256sum`, `sha512sum` at their usual paths) to print, for each file,
/// the hex digest `expected` gives for its path; cancels the test when none is installed.
func expectSumToolAgrees(_ tools: [String], expected: [String: String]) throws {
    guard let tool = tools.first(where: FileManager.default.isExecutableFile) else {
        try Test.cancel("\((tools.first as NSString?)?.lastPathComponent ?? "the tool") is not installed")
    }
    let run = try ProcessRun.tool(tool, expected.keys.sorted())
    #expect(run.code == 0, "\(run.stderr)")
    var checked = 0
    for line in run.stdout.split(separator: "\n") {
        let parts = line.split(separator: " ", maxSplits: 1)
        guard parts.count == 2 else { continue }
        let path = String(parts[1].drop { $0 == " " || $0 == "*" })
        #expect(expected[path] == String(parts[0]), "\(path)")
        checked += 1
    }
    #expect(checked == expected.count)
}
