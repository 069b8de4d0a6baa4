import Foundation
import HotStringsRelease
import HotStringsTestSupport
import StringsFormat
import Testing

/// Tables whose variables expand k⁸-fold are not published, and not installed by a pull (issue 20, finding 2):
/// both check files with `ReleaseContent.validate`, which parses them as the watcher does.
@Suite struct HostileTableReleaseTests {
    @Test(arguments: [("de.lproj/Bomb.stringsdict", HostileTables.pluralBomb, 4),
                      ("Bomb.xcstrings", HostileTables.catalogBomb, 1)])
    func anExpansionBombIsNotPublished(path: String, text: String, line: Int) throws {
        let fixture = try ReleaseFixture()
        try fixture.sandbox.write(text, to: path)
        #expect {
            try Publisher().publish(bundle: fixture.source, to: fixture.output)
        } throws: { error in
            guard case .invalidTable(let problem) = error as? ReleaseError else { return false }
            return problem.file == path && problem.line == line && problem.message.contains("'bomb'")
                && problem.message.contains("nests more than 8 deep")
        }
        #expect(!FileManager.default.fileExists(atPath: fixture.output + "/manifest.json"))
    }

    @Test func theCommandRefusesTheBombNamingItsKey() throws {
        let fixture = try ReleaseFixture()
        try fixture.sandbox.write(HostileTables.pluralBomb, to: "de.lproj/Bomb.stringsdict")
        let run = try HotstringsProcess.run(["publish", fixture.source, fixture.output])
        #expect(run.code == 1)
        #expect(run.stderr.contains("de.lproj/Bomb.stringsdict:4:3: error: entry 'bomb': variable 'a' nests"),
                "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: fixture.output + "/manifest.json"))
    }

    /// What a pull checks each downloaded file with before it installs anything.
    @Test func thePullCheckRefusesTheBombs() {
        for (path, text) in [("en.lproj/Bomb.stringsdict", HostileTables.pluralBomb),
                             ("Bomb.xcstrings", HostileTables.catalogBomb)] {
            #expect(throws: ReleaseError.self, "\(path)") {
                try ReleaseContent.validate(Array(text.utf8), path: path)
            }
        }
    }
}
