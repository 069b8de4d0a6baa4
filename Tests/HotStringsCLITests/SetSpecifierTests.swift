import Foundation
import HotStringsTestSupport
import StringsFormat
import Testing

/// `set --bundle` judges the value it writes as `lint` does: an error refuses it with `lint`'s message, nothing
/// written, and `--force` writes it; a warning is written.
struct SetSpecifierTests {
    @Test(arguments: SpecifierCases.all.map(\.key))
    func eachCaseOfTheTable(key: String) throws {
        let table = try #require(SpecifierCases.all.first { $0.key == key })
        try withFiles(SpecifierCases.files(translated: false)) { root in
            let file = root + "/de.lproj/\(SpecifierCases.table)." + (table.form == nil ? "strings" : "stringsdict")
            let before = try String(contentsOfFile: file, encoding: .utf8)
            let result = run(table.setArguments + ["--bundle", root])
            guard table.isRefused else {
                #expect(result.code == 0, "\(result.stderr)")
                #expect(try String(contentsOfFile: file, encoding: .utf8) != before)
                return
            }
            #expect(result.code == 1)
            #expect(result.stderr == "hotstrings set: error: \(table.refusal)\n")
            #expect(try String(contentsOfFile: file, encoding: .utf8) == before)
            let forced = run(table.setArguments + ["--force", "--bundle", root])
            #expect(forced.code == 0, "\(forced.stderr)")
            #expect(try String(contentsOfFile: file, encoding: .utf8).contains(table.german))
        }
    }
}
